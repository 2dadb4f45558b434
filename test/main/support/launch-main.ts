/**
 * main/index.ts run under Node, as Electron would run it, with Electron's modules faked (test/main/support/fake-electron.ts:
 * Electron cannot run here, no binary). electron-updater, which cannot load without Electron, is faked with them.
 * Everything else is real: the settings files, the encrypted secret store, the logs, the stack with its training
 * simulator, the IPC door, the app:// handler, the journal.
 *
 * A test file using it declares, at its top level (vi.mock is hoisted, so it cannot live here):
 *   vi.mock('electron', async () => (await import('./support/launch-main')).electronModuleMock());
 * and calls `useMainLaunch()` once; `launch()` then loads main/index.ts afresh for each start.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, expect, vi, type MockInstance } from 'vitest';

import { userSettingsPath } from '../../../main/settings/paths';
import { FakeAutoUpdater, FakeElectron, type FakeWebContents } from './fake-electron';

export const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
const requireFromMain = createRequire(path.join(projectRoot, 'main/shell/updater.ts'));

/** What one test's launches share: its folders, its fakes, console.error. */
export interface MainLaunchContext {
  root: string;
  userData: string;
  /** process.resourcesPath of the packaged app (resources/native/ holds better-sqlite3). */
  resources: string;
  autoUpdater: FakeAutoUpdater;
  /** The fake of the last launch. */
  fake: FakeElectron;
  errors: MockInstance;
}

/** The process-wide handlers main/index.ts adds at each launch: removed after each test. */
const PROCESS_EVENTS = ['uncaughtException', 'unhandledRejection'] as const;
const processListeners = new Map<string, ((...args: never[]) => unknown)[]>();
/** process as a plain emitter: its typings overload each event name. */
const processEvents = process as unknown as {
  listeners(name: string): ((...args: never[]) => unknown)[];
  removeListener(name: string, listener: (...args: never[]) => unknown): void;
};

// On globalThis: vi.resetModules() gives each launch a fresh copy of this module, and the mock factory reads the fake of
// the current test whichever copy it loaded.
const shared = globalThis as { __mainLaunchContext?: MainLaunchContext };
const context = (shared.__mainLaunchContext ??= {} as MainLaunchContext);

/**
 * The `electron` module main/index.ts imports, for `vi.mock('electron', …)`: each name read from the current launch's
 * fake (Vitest keeps a mocked module across vi.resetModules()).
 */
export function electronModuleMock(): Record<string, unknown> {
  const names = [
    'app',
    'BrowserWindow',
    'Menu',
    'protocol',
    'session',
    'webContents',
    // eslint-disable-next-line no-restricted-syntax -- the fake of Electron's module offers ipcMain under its own name
    'ipcMain',
    'dialog',
    'safeStorage',
    'net',
    'powerMonitor',
    'shell',
  ];
  const current = Object.fromEntries(
    names.map((name) => [name, { enumerable: true, get: () => context.fake.module[name] }]),
  );
  const module = Object.defineProperties({}, current);
  return Object.defineProperties({ default: module }, current);
}

/** CommonJS loads (electron-updater, and anything that would require the real electron package) get the fakes too. */
function fakeCommonJs(id: string, exports: unknown): void {
  const file = requireFromMain.resolve(id);
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = exports;
  requireFromMain.cache[file] = module;
}

const realArgv = process.argv;
const realPlatform = Object.getOwnPropertyDescriptor(process, 'platform');

/** The folders and fakes of each test, and after it a quit as the agent would (choosing "quit anyway" if asked). */
export function useMainLaunch(): MainLaunchContext {
  beforeEach(() => {
    context.root = mkdtempSync(path.join(tmpdir(), 'main-index-'));
    context.userData = path.join(context.root, 'user-data');
    context.resources = path.join(context.root, 'resources');
    mkdirSync(path.join(context.resources, 'native'), { recursive: true });
    // The packaged app loads better-sqlite3 from resources/native/ (npm run dist puts Electron's build there); under
    // Node, Node's own build plays it.
    copyFileSync(
      path.join(projectRoot, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
      path.join(context.resources, 'native/better_sqlite3.node'),
    );
    Object.assign(process, { resourcesPath: context.resources });
    context.autoUpdater = new FakeAutoUpdater();
    context.errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const name of PROCESS_EVENTS) processListeners.set(name, [...processEvents.listeners(name)]);
  });

  afterEach(async () => {
    const { fake } = context;
    if (fake !== undefined && fake.app.exitCode === undefined && !fake.app.quitted) {
      fake.answers.splice(0, fake.answers.length, 1, 1);
      fake.app.quit();
      await vi.waitFor(() => expect(fake.app.quitted || fake.app.exitCode !== undefined).toBe(true), {
        timeout: 15_000,
      });
    }
    for (const name of PROCESS_EVENTS) {
      const before = processListeners.get(name) ?? [];
      for (const listener of processEvents.listeners(name))
        if (!before.includes(listener)) processEvents.removeListener(name, listener);
    }
    process.argv = realArgv;
    if (realPlatform) Object.defineProperty(process, 'platform', realPlatform);
    Reflect.deleteProperty(process, 'resourcesPath');
    vi.restoreAllMocks();
    rmSync(context.root, { recursive: true, force: true });
  });
  return context;
}

export interface Launch {
  argv?: string[];
  /** The user's settings.json. */
  settings?: Record<string, unknown>;
  /** False: another instance holds the single-instance lock. */
  lock?: boolean;
  platform?: NodeJS.Platform;
}

/** Loads main/index.ts afresh, as Electron would run it, with the fakes in place; Electron is not ready yet. */
export async function launch(options: Launch = {}): Promise<FakeElectron> {
  const { userData, root } = context;
  if (options.settings) {
    mkdirSync(userData, { recursive: true });
    writeFileSync(userSettingsPath(userData), JSON.stringify(options.settings));
  }
  if (options.platform) Object.defineProperty(process, 'platform', { value: options.platform, configurable: true });
  const argv = ['/opt/card-payments-desk/card-payments-desk', `--user-data-dir=${userData}`, ...(options.argv ?? [])];
  context.fake = new FakeElectron({
    defaultUserData: path.join(root, 'default-user-data'),
    logs: path.join(root, 'logs'),
    appPath: path.join(root, 'app.asar'),
    packaged: true,
    argv,
    ...(options.lock === undefined ? {} : { singleInstanceLock: options.lock }),
  });
  fakeCommonJs('electron', context.fake.module);
  fakeCommonJs('electron-updater', { autoUpdater: context.autoUpdater });
  process.argv = argv;
  vi.resetModules();
  await import('../../../main/index');
  return context.fake;
}

/** The handler main/index.ts added for a process event at the last launch (called directly: emitting the event would also reach Vitest's own). */
export function mainProcessHandler(name: (typeof PROCESS_EVENTS)[number]): (reason: unknown) => void {
  const before = processListeners.get(name) ?? [];
  const added = processEvents.listeners(name).filter((listener) => !before.includes(listener));
  const last = added.at(-1);
  if (last === undefined) throw new Error(`main/index.ts added no ${name} handler`);
  return last as (reason: unknown) => void;
}

/** Ready, and waits until the window is up and the desk serves (its start-up door says `ready`). */
export async function startUp(electron: FakeElectron): Promise<void> {
  electron.ready();
  // A start that failed says why here (the error box), rather than as a time-out.
  await vi.waitFor(
    () =>
      expect({ shown: electron.windows[0]?.shown, errorBoxes: electron.errorBoxes }).toEqual({
        shown: true,
        errorBoxes: [],
      }),
    { timeout: 15_000 },
  );
  await vi.waitFor(
    async () => {
      expect(electron.errorBoxes).toEqual([]);
      expect(await invoke(electron, 'app:startup', {})).toMatchObject({ ok: true, value: { phase: 'ready' } });
    },
    { timeout: 15_000 },
  );
}

/** A call from the window's page, as ipcRenderer.invoke sends it (the sender is the frame that called). */
export function invoke(
  electron: FakeElectron,
  channel: string,
  input: unknown,
  sender?: FakeWebContents,
): Promise<unknown> {
  const handler = electron.ipcHandlers.get(channel);
  if (handler === undefined) throw new Error(`no handler for ${channel}`);
  const contents = sender ?? electron.windows[0]?.webContents;
  if (contents === undefined) throw new Error('no window');
  return Promise.resolve(handler({ sender: contents, senderFrame: contents.mainFrame }, input));
}

export async function ok<T>(electron: FakeElectron, channel: string, input: unknown): Promise<T> {
  const result = (await invoke(electron, channel, input)) as { ok: boolean; value?: T; error?: { message: string } };
  if (!result.ok) throw new Error(`${channel}: ${result.error?.message ?? 'refused'}`);
  return result.value as T;
}

/** An agent at the desk: the first administrator creates them; they sign in. */
export async function signInAgent(electron: FakeElectron): Promise<void> {
  await ok(electron, 'session:createFirstAdmin', {
    id: 'ada',
    displayName: 'Ada Admin',
    password: 'a long password 42',
  });
  await ok(electron, 'operators:create', {
    id: 'ana',
    displayName: 'Ana Agent',
    role: 'agent',
    password: 'agent password 1234',
  });
  await ok(electron, 'session:signOut', {});
  await ok(electron, 'session:signIn', { id: 'ana', password: 'agent password 1234' });
}

/** A 3-D Secure payment that waits for the cardholder: a payment in progress. */
export async function paymentInProgress(electron: FakeElectron): Promise<void> {
  const method = await ok<{ id: string }>(electron, 'payments:tokenize', {
    operationId: crypto.randomUUID(),
    card: { number: '4000000000003220', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
    reservationId: 'MEX-2H8R5T',
  });
  const { reservation } = await ok<{ reservation: { currency: string } }>(electron, 'reservations:get', {
    reservationId: 'MEX-2H8R5T',
  });
  await ok(electron, 'payments:pay', {
    operationId: crypto.randomUUID(),
    methodId: method.id,
    amountCents: 8000,
    currency: reservation.currency,
    reservationId: 'MEX-2H8R5T',
    acknowledgedPaymentIds: [],
  });
}
