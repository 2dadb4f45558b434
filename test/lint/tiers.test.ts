// Keeps main's tiers proven: the kernel imports nothing above it, a capability reaches another only through its index.ts
// and never the door or composition, the door never composition; composition may import any file below it.
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The project's real eslint.config.js, minus type-aware rules: the snippets below are virtual files that no tsconfig
// lists. The imported targets exist, so the resolver-based rule can resolve them.
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

const boundaryRules = new Set(['import-x/no-restricted-paths', 'no-restricted-imports', 'no-restricted-syntax']);

async function boundaryMessages(filePath: string, code: string): Promise<{ rule: string; message: string }[]> {
  const results = await eslint.lintText(code, { filePath, warnIgnored: true });
  expect(results).toHaveLength(1);
  const messages = results[0]?.messages ?? [];
  // A fatal message (parse error, ignored file) would make an "allowed" case pass vacuously.
  expect(messages.filter((message) => message.fatal === true)).toEqual([]);
  return messages.flatMap((message) =>
    message.ruleId !== null && boundaryRules.has(message.ruleId)
      ? [{ rule: message.ruleId, message: message.message }]
      : [],
  );
}

const tierRule = 'import-x/no-restricted-paths';

describe('the kernel (errors, logging, storage) imports nothing else of main/', () => {
  it.each([
    ['main/storage/probe.ts', "import '../payments';"],
    ['main/storage/probe.ts', "import '../center';"],
    ['main/errors/probe.ts', "import '../ipc';"],
    ['main/logging/probe.ts', "import '../app';"],
    ['main/storage/probe.ts', "import '../index';"],
    ['main/logging/probe.ts', "export type { SecretStore } from '../payments/config';"],
  ])('%s: %s is rejected', async (filePath, code) => {
    expect(await boundaryMessages(filePath, code)).toContainEqual({
      rule: tierRule,
      message: expect.stringContaining('are the kernel') as string,
    });
  });

  it.each([
    ['main/storage/probe.ts', "import '../errors';"],
    ['main/logging/probe.ts', "import '../errors/index';"],
    ['main/storage/probe.ts', "import './postgres';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await boundaryMessages(filePath, code)).toEqual([]);
  });
});

describe('a capability imports neither the door nor composition', () => {
  it.each([
    ['main/payments/probe.ts', "import '../ipc';"],
    ['main/settings/probe.ts', "import '../window/trust';"],
    ['main/settings/probe.ts', "import { CenterSettings } from '../center';\nexport const c = CenterSettings;"],
    ['main/audit/probe.ts', "import '../center/desk-id';"],
    ['main/refunds/probe.ts', "import '../app';"],
    ['main/operators/probe.ts', "export const load = () => import('../cli/center');"],
    ['main/sandbox/probe.ts', "import '../shell/menu';"],
    ['main/reports/probe.ts', "import '../index';"],
    ['main/payments/probe.ts', "import '../../main/ipc/index';"],
  ])('%s: %s is rejected', async (filePath, code) => {
    expect(await boundaryMessages(filePath, code)).toContainEqual({
      rule: tierRule,
      message: expect.stringContaining('A capability imports the kernel and other capabilities only') as string,
    });
  });
});

describe("a capability or the door reaches another capability only through that one's index.ts", () => {
  it.each([
    ['main/reports/probe.ts', "import '../payments/engine';", 'payments'],
    [
      'main/reservations/probe.ts',
      "import { SecretError } from '../secrets/errors';\nexport const e = SecretError;",
      'secrets',
    ],
    ['main/settings/probe.ts', "import '../messaging/config';", 'messaging'],
    ['main/updates/probe.ts', "export type { UpdatesSettings } from '../settings/schema';", 'settings'],
    ['main/refunds/probe.ts', "export const load = () => import('../operators/store');", 'operators'],
    ['main/payments/probe.ts', "import '../sandbox/server';", 'sandbox'],
    ['main/ipc/probe.ts', "import '../payments/engine';", 'payments'],
    ['main/window/probe.ts', "import '../settings/schema';", 'settings'],
  ])('%s: %s is rejected', async (filePath, code, capability) => {
    expect(await boundaryMessages(filePath, code)).toContainEqual({
      rule: tierRule,
      message: expect.stringContaining(`Reach main/${capability} through its index.ts`) as string,
    });
  });

  it.each([
    ['main/refunds/probe.ts', "import '../payments';"],
    ['main/settings/probe.ts', "import '../messaging/index';"],
    ['main/reservations/probe.ts', "import { SecretError } from '../secrets';\nexport const e = SecretError;"],
    ['main/payments/probe.ts', "import './journal';\nimport '../sandbox';"],
    ['main/secrets/probe.ts', "import '../storage/atomic-write';\nimport '../errors';"],
    ['main/audit/probe.ts', "import '../logging/redact';"],
    ['main/ipc/probe.ts', "import '../payments';\nimport '../messaging';"],
    ['main/window/probe.ts', "import '../ipc/dispatch';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await boundaryMessages(filePath, code)).toEqual([]);
  });
});

describe('the door (ipc, window) imports no composition', () => {
  it.each([
    ['main/ipc/probe.ts', "import '../app';"],
    ['main/window/probe.ts', "import '../shell/window';"],
    ['main/ipc/probe.ts', "import '../center';"],
    ['main/window/probe.ts', "import '../cli/desk';"],
    ['main/ipc/probe.ts', "import '../index';"],
  ])('%s: %s is rejected', async (filePath, code) => {
    expect(await boundaryMessages(filePath, code)).toContainEqual({
      rule: tierRule,
      message: expect.stringContaining('The door (ipc, window) imports the kernel and the capabilities only') as string,
    });
  });
});

describe('composition (app, center, cli, shell, main/index.ts) may import any file below it', () => {
  it.each([
    ['main/center/probe.ts', "import '../payments/journal';\nimport '../audit/trail';"],
    ['main/cli/probe.ts', "import '../center/desk-id';\nimport '../settings/load';\nimport '../audit';"],
    ['main/app/probe.ts', "import '../ipc';\nimport '../center';\nimport '../storage/sqlite';"],
    ['main/shell/probe.ts', "import '../window/trust';\nimport '../cli/desk';"],
    ['main/index.ts', "import './cli/desk';\nimport './app';\nimport './ipc/electron';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await boundaryMessages(filePath, code)).toEqual([]);
  });
});

// The CLIs live in main/cli/: the desk's own modes run inside Electron; the others run under plain Node (tsx).
describe('Electron in main/cli/: only the desk’s own command-line modes', () => {
  it('main/cli/desk.ts may import electron', async () => {
    expect(
      await boundaryMessages('main/cli/desk.ts', "import { app } from 'electron';\nexport const a = app;"),
    ).toEqual([]);
  });

  it.each(['main/cli/center.ts', 'main/cli/audit-verify.ts', 'main/cli/sandbox.ts', 'main/cli/probe.ts'])(
    '%s may not import electron',
    async (filePath) => {
      expect(
        (await boundaryMessages(filePath, "import { app } from 'electron';\nexport const a = app;")).map((m) => m.rule),
      ).toContain('no-restricted-imports');
    },
  );
});
