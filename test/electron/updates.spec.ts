// The auto-update in a real Electron with the real electron-updater (MacUpdater on macOS, NsisUpdater on Windows): after
// start it installs nothing by itself (autoInstallOnAppQuit off), and a restart to update is refused during a payment.
//
// Updates run only in an installed build (main/updates/support.ts). A production build cannot be driven (its fuses turn the
// inspector off), so the app runs as `npm start` runs it, from a copy of Electron's dist folder made to look installed:
// ELECTRON_FORCE_IS_PACKAGED (Electron, shell/browser/api/electron_api_app.cc, App::IsPackaged: app.isPackaged is then
// true), electron-builder's resources/app-update.yml, better-sqlite3's Electron build in resources/native, and on Windows
// the per-user NSIS installer's uninstaller next to the executable. Nothing is downloaded: the feed is never reached.
import { constants, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { ElectronApplication, Page } from '@playwright/test';

import { userSettingsPath } from '../../main/settings/paths';
import { appArgs, expect, launchEnv, mainEntry, projectRoot, test } from './support/desk';
import { announceSkip, electronSkipReason, findElectronBinary } from './support/electron-binary';

function platformSkipReason(): string | undefined {
  return process.platform === 'darwin' || process.platform === 'win32'
    ? undefined
    : 'Linux desks never update themselves (IT deploys the deb package)';
}

const skipReason = electronSkipReason() ?? platformSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
test.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

const UPDATES = { url: 'https://updates.invalid/card-payments-desk', channel: 'stable' };

interface Installed {
  /** The copy of Electron's binary to start. */
  executablePath: string;
  root: string;
}

async function packageVersion(name: string): Promise<string> {
  const text = await readFile(path.join(projectRoot, 'node_modules', name, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** Electron's dist folder copied and made to look like the per-user install electron-builder makes (see above). */
async function installedCopy(): Promise<Installed> {
  const binary = findElectronBinary();
  if (!binary.available) throw new Error(binary.reason);
  const mac = process.platform === 'darwin';
  // dist/electron.exe, or dist/Electron.app/Contents/MacOS/Electron.
  const dist = mac ? path.resolve(binary.executablePath, '../../../..') : path.dirname(binary.executablePath);
  const root = await mkdtemp(path.join(tmpdir(), 'cpd-installed-'));
  const copy = path.join(root, 'dist');
  // A clone where the file system can (APFS), a copy elsewhere; the framework's relative links kept as they are.
  await cp(dist, copy, { recursive: true, verbatimSymlinks: true, mode: constants.COPYFILE_FICLONE });
  const executablePath = path.join(copy, path.relative(dist, binary.executablePath));
  const resources = mac ? path.join(copy, 'Electron.app', 'Contents', 'Resources') : path.join(copy, 'resources');

  // What main loads in an installed build: better-sqlite3 for Electron's ABI (the copy `npm start` prepares).
  const electronVersion = await packageVersion('electron');
  const sqliteVersion = await packageVersion('better-sqlite3');
  await mkdir(path.join(resources, 'native'), { recursive: true });
  await cp(
    path.join(
      projectRoot,
      'node_modules/.cache/electron-native',
      electronVersion,
      `better-sqlite3-${sqliteVersion}.node`,
    ),
    path.join(resources, 'native', 'better_sqlite3.node'),
  );
  // electron-builder's app-update.yml; a Windows build that can check an update's signature names its publisher.
  const publisher = mac ? '' : 'publisherName:\n  - Card Payments Desk\n';
  await writeFile(
    path.join(resources, 'app-update.yml'),
    `provider: generic\nurl: https://updates.invalid/card-payments-desk\n${publisher}`,
  );
  if (!mac) await writeFile(path.join(path.dirname(executablePath), 'Uninstall Card Payments Desk.exe'), '');
  return { executablePath, root };
}

/** A call from the page, through the preload's bridge (a string: the test project has no DOM typings). */
function call(
  window: Page,
  channel: string,
  input: unknown = {},
): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> {
  return window.evaluate(`window.api.invoke(${JSON.stringify(channel)}, ${JSON.stringify(input)})`);
}

async function ok<T>(window: Page, channel: string, input: unknown = {}): Promise<T> {
  const result = await call(window, channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error?.code ?? 'refused'}`);
  return result.value as T;
}

/**
 * What main's updater left on electron-updater's own autoUpdater: the same object main configured (createRequire resolves
 * to the same module of node_modules/electron-updater, whose `autoUpdater` is made once). Asked only once main has the window
 * up, so after createElectronUpdater.
 */
function autoUpdaterFacts(
  app: ElectronApplication,
): Promise<{ kind: string; autoInstallOnAppQuit: boolean; listening: number }> {
  return app.evaluate((_electron, root) => {
    const requireFromApp = process.getBuiltinModule('node:module').createRequire(`${root}/package.json`);
    const { autoUpdater } = requireFromApp('electron-updater') as typeof import('electron-updater');
    return {
      kind: autoUpdater.constructor.name,
      autoInstallOnAppQuit: autoUpdater.autoInstallOnAppQuit,
      listening: autoUpdater.listenerCount('update-downloaded'),
    };
  }, projectRoot);
}

let installed: Installed | undefined;

test.beforeAll(async () => {
  if (skipReason !== undefined) return;
  installed = await installedCopy();
});

test.afterAll(async () => {
  if (installed !== undefined) await rm(installed.root, { recursive: true, force: true });
});

test.describe('updates in an installed build', () => {
  let app: ElectronApplication | undefined;
  let userDataDir: string | undefined;

  test.beforeEach(async ({ playwright }) => {
    if (installed === undefined) throw new Error('no installed copy of Electron');
    if (!existsSync(mainEntry))
      throw new Error('out/main/index.js is missing: run `electron-vite build` first (npm run test:e2e does).');
    userDataDir = await mkdtemp(path.join(tmpdir(), 'cpd-updates-'));
    await writeFile(userSettingsPath(userDataDir), `${JSON.stringify({ language: 'en-US', updates: UPDATES })}\n`);
    // Given an executablePath, Playwright starts it as it is (as it drives a packaged app).
    app = await playwright._electron.launch({
      executablePath: installed.executablePath,
      args: appArgs(userDataDir),
      env: { ...launchEnv(), ELECTRON_FORCE_IS_PACKAGED: 'true' },
      cwd: projectRoot,
    });
  });

  test.afterEach(async () => {
    await app?.close();
    if (userDataDir !== undefined) await rm(userDataDir, { recursive: true, force: true });
  });

  test('after start, electron-updater never installs by itself: autoInstallOnAppQuit is off', async () => {
    if (app === undefined) throw new Error('not started');
    const window = await app.firstWindow();
    await window.waitForLoadState('domcontentloaded');
    expect(await app.evaluate(({ app: electronApp }) => electronApp.isPackaged)).toBe(true);
    expect(await autoUpdaterFacts(app)).toEqual({
      kind: process.platform === 'darwin' ? 'MacUpdater' : 'NsisUpdater',
      autoInstallOnAppQuit: false,
      // main's updater is listening: updates are on in this build.
      listening: 1,
    });
    expect(await ok(window, 'updates:status')).toMatchObject({
      state: expect.stringMatching(/^(idle|checking|error)$/),
      channel: 'stable',
    });
  });

  test('a restart to update is refused while a payment is in progress, and the app goes on', async () => {
    if (app === undefined) throw new Error('not started');
    const window = await app.firstWindow();
    await window.waitForLoadState('domcontentloaded');
    await ok(window, 'session:createFirstAdmin', {
      id: 'ada',
      displayName: 'Ada Admin',
      password: 'a long password 42',
    });
    await ok(window, 'operators:create', {
      id: 'ana',
      displayName: 'Ana Agent',
      role: 'agent',
      password: 'agent password 1234',
    });
    await ok(window, 'session:signOut');
    await ok(window, 'session:signIn', { id: 'ana', password: 'agent password 1234' });
    // A 3-D Secure payment that waits for the cardholder, at the training simulator.
    const method = await ok<{ id: string }>(window, 'payments:tokenize', {
      operationId: crypto.randomUUID(),
      card: { number: '4000000000003220', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
      reservationId: 'MEX-2H8R5T',
    });
    const { reservation } = await ok<{ reservation: { currency: string } }>(window, 'reservations:get', {
      reservationId: 'MEX-2H8R5T',
    });
    await ok(window, 'payments:pay', {
      operationId: crypto.randomUUID(),
      methodId: method.id,
      amountCents: 8000,
      currency: reservation.currency,
      reservationId: 'MEX-2H8R5T',
      acknowledgedPaymentIds: [],
    });

    // electron-updater's own 'update-downloaded', as its updater emits it at the end of a download (AppUpdater.dispatchUpdateDownloaded).
    await app.evaluate((_electron, root) => {
      const requireFromApp = process.getBuiltinModule('node:module').createRequire(`${root}/package.json`);
      const { autoUpdater } = requireFromApp('electron-updater') as typeof import('electron-updater');
      autoUpdater.emit('update-downloaded', {
        version: '99.0.0',
        files: [],
        path: '',
        sha512: '',
        releaseDate: new Date().toISOString(),
        downloadedFile: '',
      });
    }, projectRoot);
    expect(await ok(window, 'updates:status')).toMatchObject({
      state: 'ready',
      version: '99.0.0',
      blockedBy: 'payment_in_progress',
    });

    expect(await call(window, 'updates:restart')).toMatchObject({ ok: false, error: { code: 'payment_in_progress' } });
    // Not shutting down: the window is there, the stack answers, and nothing was handed to an installer.
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
    expect(await ok(window, 'updates:status')).toMatchObject({ state: 'ready', blockedBy: 'payment_in_progress' });
    expect((await autoUpdaterFacts(app)).autoInstallOnAppQuit).toBe(false);
  });
});
