/**
 * The real app under Playwright's _electron, started the way `npm start` (electron-vite preview) starts it: Electron
 * given the project folder, each test with its own fresh --user-data-dir, NODE_ENV=production. Nothing is mocked.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { test as base, type ElectronApplication, type Page } from '@playwright/test';

import { userSettingsPath } from '../../../main/settings/paths';
import { findElectronBinary } from './electron-binary';

export { expect } from '@playwright/test';

export const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const mainEntry = path.join(projectRoot, 'out/main/index.js');

/** Electron's environment: the caller's, as production, without variables that would turn Electron into something else. */
export function launchEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) env[key] = value;
  }
  // Would run Electron as plain Node, or point the window at electron-vite's dev server instead of app://.
  delete env['ELECTRON_RUN_AS_NODE'];
  delete env['ELECTRON_RENDERER_URL'];
  env['NODE_ENV'] = 'production';
  return env;
}

/**
 * The arguments that start the built app on a given data folder (main honours --user-data-dir).
 * Electron's default_app (what an unpackaged `electron <path>` runs) takes the first argument that is not a switch as
 * the app: a folder with a package.json becomes the app path, and its `main` (out/main/index.js), `productName` and
 * `version` are used, as in the packaged app.asar. Given out/main/index.js itself, the app path would be out/main (where
 * main finds no node_modules/.cache for better-sqlite3) and the app would be named "Electron", with Electron's version.
 */
export function appArgs(userDataDir: string): string[] {
  return [projectRoot, `--user-data-dir=${userDataDir}`];
}

export interface Desk {
  app: ElectronApplication;
  /** The app's one window. */
  window: Page;
  userDataDir: string;
  /** Console errors and uncaught exceptions of the window since the test got it. */
  problems: string[];
}

/** Starts the app on a data folder (a fresh one, in English, unless given) and waits for its window. */
export type LaunchDesk = (userDataDir?: string) => Promise<Desk>;

interface Launched {
  app: ElectronApplication;
  /** What the main process wrote to stdout and stderr, attached to the report when the test fails. */
  output: string[];
  closed: boolean;
}

export const test = base.extend<{ launchDesk: LaunchDesk; desk: Desk }>({
  launchDesk: async ({ playwright }, use, testInfo) => {
    if (!existsSync(mainEntry)) {
      throw new Error('out/main/index.js is missing: run `electron-vite build` first (npm run test:e2e does).');
    }
    const dataDirs: string[] = [];
    const launched: Launched[] = [];

    await use(async (given) => {
      let userDataDir = given;
      if (userDataDir === undefined) {
        userDataDir = await mkdtemp(path.join(tmpdir(), 'cpd-electron-'));
        dataDirs.push(userDataDir);
        // The desk speaks Spanish unless told otherwise; the tests read the English labels, chosen as a desk
        // would choose them: in the user's settings.json.
        await writeFile(userSettingsPath(userDataDir), `${JSON.stringify({ language: 'en-US' })}\n`);
      }
      // No executablePath: Playwright then takes the electron package's binary (or ELECTRON_OVERRIDE_DIST_PATH's)
      // and preloads its loader, which holds the app's `ready` until Playwright is attached: no window is missed.
      const app = await playwright._electron.launch({ args: appArgs(userDataDir), env: launchEnv(), cwd: projectRoot });
      const entry: Launched = { app, output: [], closed: false };
      launched.push(entry);
      app.on('close', () => {
        entry.closed = true;
      });
      const child = app.process();
      child.stdout?.on('data', (chunk: Buffer) => entry.output.push(chunk.toString('utf8')));
      child.stderr?.on('data', (chunk: Buffer) => entry.output.push(chunk.toString('utf8')));

      const window = await app.firstWindow();
      await window.waitForLoadState('domcontentloaded');
      const problems: string[] = [];
      window.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      window.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      return { app, window, userDataDir, problems };
    });

    for (const entry of launched) {
      if (!entry.closed) await entry.app.close();
    }
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [index, entry] of launched.entries()) {
        await testInfo.attach(`main process output, launch ${index + 1}`, {
          body: entry.output.join(''),
          contentType: 'text/plain',
        });
      }
    }
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  },

  desk: async ({ launchDesk }, use) => {
    await use(await launchDesk());
  },
});

/**
 * Starts the app a second time on a data folder, as a double-click on its icon does, and resolves with its exit code.
 * Playwright starts Electron with --no-sandbox on Linux (the SUID helper is rarely set up); the second start does too.
 */
export async function startSecondInstance(
  userDataDir: string,
  env: Record<string, string> = launchEnv(),
): Promise<number | null> {
  const binary = findElectronBinary();
  if (!binary.available) throw new Error(binary.reason);
  const args = [...(process.platform === 'linux' ? ['--no-sandbox'] : []), ...appArgs(userDataDir)];
  const second = spawn(binary.executablePath, args, { env, stdio: 'ignore' });
  try {
    return await new Promise<number | null>((resolve, reject) => {
      second.once('error', reject);
      second.once('exit', (code) => resolve(code));
    });
  } finally {
    if (second.exitCode === null && second.signalCode === null) second.kill();
  }
}
