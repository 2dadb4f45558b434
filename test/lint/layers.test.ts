// Keeps the lint boundaries proven: each forbidden layer crossing or Electron API use must fail, allowed ones must pass.
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The project's real eslint.config.js, minus type-aware rules: the snippets below are virtual files
// that no tsconfig lists. The imported targets exist, so the resolver-based layer rule can resolve them.
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

const boundaryRules = new Set([
  'import-x/no-restricted-paths',
  'no-restricted-imports',
  'no-restricted-syntax',
  'no-restricted-globals',
  'no-restricted-properties',
]);

async function boundaryViolations(filePath: string, code: string): Promise<string[]> {
  const results = await eslint.lintText(code, { filePath, warnIgnored: true });
  expect(results).toHaveLength(1);
  const messages = results[0]?.messages ?? [];
  // A fatal message (parse error, ignored file) would make an "allowed" case pass vacuously.
  expect(messages.filter((message) => message.fatal === true)).toEqual([]);
  return messages.flatMap((message) =>
    message.ruleId !== null && boundaryRules.has(message.ruleId) ? [message.ruleId] : [],
  );
}

describe('layer boundaries (import-x/no-restricted-paths)', () => {
  it.each([
    ['shared/probe.ts', "import '../main/index';"],
    ['shared/probe.ts', "import '../preload/index';"],
    ['shared/probe.ts', "import '../renderer/src/app/App';"],
    ['shared/probe.ts', "import '../test/lint/layers.test';"],
    ['renderer/src/probe.ts', "import '../../main/index';"],
    ['renderer/src/probe.ts', "import type { Environment } from '../../main/index';\nexport type E = Environment;"],
    ['renderer/src/probe.ts', "import '../../preload/index';"],
    ['preload/probe.ts', "import '../main/index';"],
    ['preload/probe.ts', "import '../renderer/src/app/App';"],
    ['main/probe.ts', "import '../renderer/src/app/App';"],
    ['main/probe.ts', "import '../preload/index';"],
    ['main/payments/probe.ts', "export { App } from '../../renderer/src/app/App';"],
  ])('%s: %s is rejected', async (filePath, code) => {
    expect(await boundaryViolations(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['shared/probe.ts', "import { Environment } from './environment';\nexport const e = Environment;"],
    ['renderer/src/probe.ts', "import '../../shared/index';"],
    ['preload/probe.ts', "import '../shared/index';"],
    ['main/probe.ts', "import '../shared/index';"],
    ['main/probe.ts', "import './index';"],
    ['test/probe.ts', "import '../main/index';\nimport '../preload/index';\nimport '../shared/index';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await boundaryViolations(filePath, code)).toEqual([]);
  });
});

describe("the renderer's bridge client: api.ts files only", () => {
  it.each([
    [
      'renderer/src/features/payment/ui/probe.tsx',
      "import { bridge } from '../../../bridge/client';\nexport const b = bridge;",
    ],
    ['renderer/src/features/refunds/ui/probe.tsx', "export { unwrap } from '../../../bridge/client';"],
    ['renderer/src/app/probe.tsx', "import '../bridge/client';"],
    [
      'renderer/src/features/session/activity-probe.ts',
      "import { hasBridge } from '../../bridge/client';\nexport const h = hasBridge;",
    ],
    ['renderer/src/ui/probe.tsx', "export const load = () => import('../bridge/client');"],
  ])('%s: %s is rejected', async (filePath, code) => {
    expect(await boundaryViolations(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['renderer/src/features/payment/api.ts', "import { bridge } from '../../bridge/client';\nexport const b = bridge;"],
    ['renderer/src/app/api.ts', "import { bridge } from '../bridge/client';\nexport const b = bridge;"],
    [
      'renderer/src/features/payment/ui/probe.tsx',
      "import { ApiError } from '../../../bridge/errors';\nexport const e = ApiError;",
    ],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await boundaryViolations(filePath, code)).toEqual([]);
  });
});

describe('Electron API boundaries', () => {
  const imports = 'no-restricted-imports';
  const syntax = 'no-restricted-syntax';
  it.each([
    ['main/payments/probe.ts', "import { app } from 'electron';", imports],
    ['main/payments/probe.ts', "export const load = () => import('electron');", syntax],
    ['main/payments/probe.ts', "const electron = require('electron');", syntax],
    ['main/sandbox/probe.ts', "import * as electron from 'electron/main';", imports],
    ['shared/probe.ts', "import 'electron';", imports],
    ['renderer/src/probe.ts', "import { contextBridge } from 'electron/renderer';", imports],
    ['test/probe.ts', "import { app } from 'electron';", imports],
    ['main/index.ts', "import { ipcMain } from 'electron';", syntax],
    ['main/shell/probe.ts', "import electron from 'electron';\nexport const m = electron['ipcMain'];", syntax],
    ['main/ipc/probe.ts', "import { ipcRenderer } from 'electron';", syntax],
    ['preload/probe.ts', "import { ipcMain } from 'electron';", syntax],
    ['preload/probe.ts', "import { readFileSync } from 'node:fs';", imports],
    ['preload/probe.ts', "import path from 'path';", imports],
  ])('%s: %s is rejected by %s', async (filePath, code, rule) => {
    expect(await boundaryViolations(filePath, code)).toContain(rule);
  });

  it.each([
    ['main/index.ts', "import { app, BrowserWindow } from 'electron';"],
    ['main/shell/probe.ts', "import { shell } from 'electron';"],
    ['main/ipc/probe.ts', "import { ipcMain } from 'electron';"],
    ['preload/probe.ts', "import { contextBridge, ipcRenderer } from 'electron';"],
    ['main/payments/probe.ts', "import { createHash } from 'node:crypto';"],
    ['electron.vite.config.ts', "import { defineConfig } from 'electron-vite';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await boundaryViolations(filePath, code)).toEqual([]);
  });
});

// One fetch for main: the stack's caller passes it (Electron's net.fetch in the app); no module of main calls Node's global one.
describe('one fetch for main (no-restricted-globals, no-restricted-properties)', () => {
  it.each([
    [
      'main/payments/probe.ts',
      "export const get = () => fetch('https://service.example/v1');",
      'no-restricted-globals',
    ],
    ['main/reservations/probe.ts', 'export const f = { fetch };', 'no-restricted-globals'],
    [
      'main/messaging/probe.ts',
      "export const get = () => globalThis.fetch('https://api.example/');",
      'no-restricted-properties',
    ],
    ['main/app/probe.ts', 'export const { fetch: f } = globalThis;', 'no-restricted-properties'],
    [
      'main/sandbox/probe.ts',
      "export const get = () => global.fetch('http://127.0.0.1/');",
      'no-restricted-properties',
    ],
    ['main/index.ts', "export const get = () => fetch('https://example.com/');", 'no-restricted-globals'],
  ])('%s: %s is rejected by %s', async (filePath, code, rule) => {
    expect(await boundaryViolations(filePath, code)).toContain(rule);
  });

  // Nor an HTTP client of its own, which would bypass net.fetch (the OS proxy, PAC files and certificate store) just the same.
  it.each([
    [
      'main/payments/probe.ts',
      "import { request } from 'node:https';\nexport const get = () => request('https://service.example/v1');",
    ],
    [
      'main/messaging/probe.ts',
      "import { fetch as f } from 'undici';\nexport const get = () => f('https://api.example/');",
    ],
    [
      'main/reservations/probe.ts',
      "import http from 'http';\nexport const get = () => http.get('http://pms.example/');",
    ],
    [
      'main/shell/probe.ts',
      "import https from 'node:https';\nexport const get = () => https.get('https://example.com/');",
    ],
    ['main/ipc/probe.ts', "import axios from 'axios';\nexport const get = () => axios.get('https://example.com/');"],
    ['main/index.ts', "import { request } from 'node:http';\nexport const get = () => request('http://example.com/');"],
  ])('%s: %s is rejected by no-restricted-imports', async (filePath, code) => {
    expect(await boundaryViolations(filePath, code)).toContain('no-restricted-imports');
  });

  it('the training simulator may still serve on node:http, and main/ still may not import electron', async () => {
    expect(
      await boundaryViolations(
        'main/sandbox/probe.ts',
        "import { createServer } from 'node:http';\nexport const s = createServer();",
      ),
    ).toEqual([]);
    expect(
      await boundaryViolations('main/payments/probe.ts', "import { app } from 'electron';\nexport const a = app;"),
    ).toContain('no-restricted-imports');
    expect(
      await boundaryViolations('main/sandbox/probe.ts', "import { app } from 'electron';\nexport const a = app;"),
    ).toContain('no-restricted-imports');
  });

  it.each([
    [
      'main/payments/probe.ts',
      "export function get(deps: { fetch: typeof fetch }) {\n  return deps.fetch('https://service.example/v1');\n}",
    ],
    ['main/app/probe.ts', 'export type Fetch = typeof globalThis.fetch;'],
    ['test/probe.ts', "export const get = () => fetch('http://127.0.0.1/');"],
    ['scripts/probe.mjs', "export const get = () => fetch('http://127.0.0.1/');"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await boundaryViolations(filePath, code)).toEqual([]);
  });
});
