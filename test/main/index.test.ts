// The composition root, main/index.ts, run under Node. Electron's modules are the one thing faked: Electron cannot run
// here (no binary), so test/main/support/fake-electron.ts records what main asks of them, in order. electron-updater,
// which cannot load without Electron, is faked with them. Everything else is real: the settings files, the encrypted
// secret store, the logs, the stack with its training simulator, the IPC door, the app:// handler, the journal.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';

import { EncryptedSecretStore, WINDOWS_STDIN_REFUSED, type SafeStorageLike } from '../../main/secrets';
import { userSettingsPath } from '../../main/settings/paths';
import { APP_ENTRY_URL, CONTENT_SECURITY_POLICY } from '../../main/window';
import { CHANNEL_NAMES } from '../../shared/ipc';
import { FakeAutoUpdater, FakeElectron, FakeEvent, type FakeWebContents } from './support/fake-electron';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const requireFromMain = createRequire(path.join(projectRoot, 'main/shell/updater.ts'));

let fake: FakeElectron;
let autoUpdater: FakeAutoUpdater;
// Vitest keeps a mocked module across vi.resetModules(): it reads each name from the current test's fake.
vi.mock('electron', () => {
  // eslint-disable-next-line no-restricted-syntax -- the fake of Electron's module offers ipcMain under its own name
  const names = ['app', 'BrowserWindow', 'protocol', 'session', 'webContents', 'ipcMain', 'dialog', 'safeStorage', 'net', 'powerMonitor'];
  const current = Object.fromEntries(names.map((name) => [name, { enumerable: true, get: () => fake.module[name] }]));
  const module = Object.defineProperties({}, current);
  return Object.defineProperties({ default: module }, current);
});

let root: string;
let userData: string;
let resources: string;
const realArgv = process.argv;
const realPlatform = Object.getOwnPropertyDescriptor(process, 'platform');
let errors: MockInstance;

/** CommonJS loads (electron-updater, and anything that would require the real electron package) get the fakes too. */
function fakeCommonJs(id: string, exports: unknown): void {
  const file = requireFromMain.resolve(id);
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = exports;
  requireFromMain.cache[file] = module;
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'main-index-'));
  userData = path.join(root, 'user-data');
  resources = path.join(root, 'resources');
  mkdirSync(path.join(resources, 'native'), { recursive: true });
  // The packaged app loads better-sqlite3 from resources/native/ (npm run dist puts Electron's build there); under
  // Node, Node's own build plays it.
  copyFileSync(path.join(projectRoot, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), path.join(resources, 'native/better_sqlite3.node'));
  Object.assign(process, { resourcesPath: resources });
  autoUpdater = new FakeAutoUpdater();
  errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  // Quit as the agent would (choosing "quit anyway" if asked), and wait until the stack is closed.
  if (fake.app.exitCode === undefined && !fake.app.quitted) {
    fake.answers.splice(0, fake.answers.length, 1, 1);
    fake.app.quit();
    await vi.waitFor(() => expect(fake.app.quitted || fake.app.exitCode !== undefined).toBe(true), { timeout: 15_000 });
  }
  process.argv = realArgv;
  if (realPlatform) Object.defineProperty(process, 'platform', realPlatform);
  Reflect.deleteProperty(process, 'resourcesPath');
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

interface Launch {
  argv?: string[];
  /** The user's settings.json. */
  settings?: Record<string, unknown>;
  /** False: another instance holds the single-instance lock. */
  lock?: boolean;
  platform?: NodeJS.Platform;
}

/** Loads main/index.ts afresh, as Electron would run it, with the fakes in place; Electron is not ready yet. */
async function launch(options: Launch = {}): Promise<FakeElectron> {
  if (options.settings) {
    mkdirSync(userData, { recursive: true });
    writeFileSync(userSettingsPath(userData), JSON.stringify(options.settings));
  }
  if (options.platform) Object.defineProperty(process, 'platform', { value: options.platform, configurable: true });
  const argv = ['/opt/card-payments-desk/card-payments-desk', `--user-data-dir=${userData}`, ...(options.argv ?? [])];
  fake = new FakeElectron({
    defaultUserData: path.join(root, 'default-user-data'),
    logs: path.join(root, 'logs'),
    appPath: path.join(root, 'app.asar'),
    packaged: true,
    argv,
    ...(options.lock === undefined ? {} : { singleInstanceLock: options.lock }),
  });
  fakeCommonJs('electron', fake.module);
  fakeCommonJs('electron-updater', { autoUpdater });
  process.argv = argv;
  vi.resetModules();
  await import('../../main/index');
  return fake;
}

/** Ready, and waits until the window is up and its page loaded. */
async function startUp(electron: FakeElectron): Promise<void> {
  electron.ready();
  // A start that failed says why here (the error box), rather than as a time-out.
  await vi.waitFor(() => expect({ shown: electron.windows[0]?.shown, errorBoxes: electron.errorBoxes }).toEqual({ shown: true, errorBoxes: [] }), { timeout: 15_000 });
}

/** A call from the window's page, as ipcRenderer.invoke sends it (the sender is the frame that called). */
function invoke(electron: FakeElectron, channel: string, input: unknown, sender?: FakeWebContents): Promise<unknown> {
  const handler = electron.ipcHandlers.get(channel);
  if (handler === undefined) throw new Error(`no handler for ${channel}`);
  const contents = sender ?? electron.windows[0]?.webContents;
  if (contents === undefined) throw new Error('no window');
  return Promise.resolve(handler({ sender: contents, senderFrame: contents.mainFrame }, input));
}

async function ok<T>(electron: FakeElectron, channel: string, input: unknown): Promise<T> {
  const result = (await invoke(electron, channel, input)) as { ok: boolean; value?: T; error?: { message: string } };
  if (!result.ok) throw new Error(`${channel}: ${result.error?.message ?? 'refused'}`);
  return result.value as T;
}

/** An agent at the desk: the first administrator creates them; they sign in. */
async function signInAgent(electron: FakeElectron): Promise<void> {
  await ok(electron, 'session:createFirstAdmin', { id: 'ada', displayName: 'Ada Admin', password: 'a long password 42' });
  await ok(electron, 'operators:create', { id: 'ana', displayName: 'Ana Agent', role: 'agent', password: 'agent password 1234' });
  await ok(electron, 'session:signOut', {});
  await ok(electron, 'session:signIn', { id: 'ana', password: 'agent password 1234' });
}

/** A 3-D Secure payment that waits for the cardholder: a payment in progress. */
async function paymentInProgress(electron: FakeElectron): Promise<void> {
  const method = await ok<{ id: string }>(electron, 'payments:tokenize', {
    operationId: crypto.randomUUID(),
    card: { number: '4000000000003220', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
    reservationId: 'MEX-2H8R5T',
  });
  const { reservation } = await ok<{ reservation: { currency: string } }>(electron, 'reservations:get', { reservationId: 'MEX-2H8R5T' });
  await ok(electron, 'payments:pay', { operationId: crypto.randomUUID(), methodId: method.id, amountCents: 8000, currency: reservation.currency, reservationId: 'MEX-2H8R5T', acknowledgedPaymentIds: [] });
}

describe('main/index.ts, the composition root', () => {
  it('starts in order: the app:// scheme before ready, the data folder before the single-instance lock, then the stack, the door and the hardened window', async () => {
    const electron = await launch();
    // Before ready: only what Electron allows (and requires) then.
    expect(electron.log).toEqual(['protocol.registerSchemesAsPrivileged', 'app.setPath userData', 'app.requestSingleInstanceLock']);
    expect(electron.privilegedSchemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
    expect(electron.app.getPath('userData')).toBe(userData);

    await startUp(electron);
    expect(electron.log.slice(electron.log.indexOf('ready'))).toEqual([
      'ready',
      'session.setPermissionRequestHandler',
      'session.protocol.handle app',
      'new BrowserWindow',
      `window.loadURL ${APP_ENTRY_URL}`,
      'window.show',
    ]);

    // Every contract channel on the door, nothing else.
    expect([...electron.ipcHandlers.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());

    // The window: the hardened preferences, the preload, the page from app://.
    const [window] = electron.windows;
    expect(window?.options.webPreferences).toEqual({
      preload: path.join(projectRoot, 'preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: false,
    });
    expect(window?.loadedUrl).toBe(APP_ENTRY_URL);
    const served = await electron.protocolHandlers.get('app')?.(new Request(APP_ENTRY_URL));
    expect(served?.status).toBe(200);
    expect(served?.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);

    // The window's own page opens no pop-up and navigates nowhere (the rules are in place before it is made).
    const own = new FakeEvent();
    window?.webContents.emit('will-navigate', own);
    expect(own.defaultPrevented).toBe(true);
    expect(window?.webContents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    // No permission is granted; any web contents made later opens no pop-up and navigates nowhere.
    const granted = vi.fn();
    electron.permissionHandlers.request?.(undefined, 'media', granted);
    expect(granted).toHaveBeenCalledWith(false);
    expect(electron.permissionHandlers.check?.(undefined, 'geolocation')).toBe(false);
    const later = electron.createWebContents();
    expect(later.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    const navigation = new FakeEvent();
    later.emit('will-navigate', navigation);
    expect(navigation.defaultPrevented).toBe(true);

    // The door answers the app's own window, in training; another web contents at the same URL is refused.
    expect(await invoke(electron, 'app:info', {})).toEqual({
      ok: true,
      value: { environment: 'training', version: '1.2.3', language: 'es-MX', languageLocked: false, deskId: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown, storage: 'embedded' },
    });
    later.mainFrame.url = APP_ENTRY_URL;
    expect(await invoke(electron, 'app:info', {}, later)).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    expect(electron.errorBoxes).toEqual([]);
    expect(electron.messageBoxes).toEqual([]);
  });

  it('a second instance hands over: it quits before ready without opening anything; the first one shows its window', async () => {
    const second = await launch({ lock: false });
    expect(second.log).toEqual(['protocol.registerSchemesAsPrivileged', 'app.setPath userData', 'app.requestSingleInstanceLock', 'app.quit', 'quit']);
    second.ready();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.windows).toEqual([]);
    expect(second.ipcHandlers.size).toBe(0);

    const first = await launch();
    await startUp(first);
    const [window] = first.windows;
    if (window === undefined) throw new Error('no window');
    window.minimized = true;
    first.app.emit('second-instance', new FakeEvent(), ['card-payments-desk'], root);
    expect(first.log.slice(-2)).toEqual(['window.restore', 'window.focus']);
    expect(window.minimized).toBe(false);
  });

  it('settings that cannot be used: a dialog says which and why, in words for IT, and the app exits with 1 without a window', async () => {
    const electron = await launch({ settings: { idleTimeoutMinutes: 90, environment: 'production' } });
    electron.ready();
    await vi.waitFor(() => expect(electron.app.exitCode).toBe(1), { timeout: 15_000 });
    expect(electron.errorBoxes).toHaveLength(1);
    const [box] = electron.errorBoxes;
    expect(box?.title).toBe('Card Payments Desk cannot start');
    expect(box?.content).toMatch(/idleTimeoutMinutes/);
    expect(box?.content).toMatch(/If this keeps happening, tell IT\.$/);
    expect(box?.content).not.toMatch(/\n\s+at /);
    expect(electron.windows).toEqual([]);
    expect(electron.ipcHandlers.size).toBe(0);
  });

  it('a stored secret the OS can no longer decrypt: a dialog says so at start, naming what IT must do; the desk still opens', async () => {
    // Stored under another key (another OS profile, or before the keyring was reset).
    const before: SafeStorageLike = (await launch()).module['safeStorage'] as SafeStorageLike;
    fake.ready();
    await new EncryptedSecretStore({ safeStorage: before, file: path.join(userData, 'secrets.json'), platform: 'linux' }).write('clientSecret', 'cs_test_stored_before');
    await vi.waitFor(() => expect(fake.windows[0]?.shown).toBe(true), { timeout: 15_000 });
    fake.answers.splice(0);
    fake.app.quit();
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true), { timeout: 15_000 });

    const electron = await launch();
    electron.storageKey = Buffer.alloc(32, 7);
    await startUp(electron);
    await vi.waitFor(() => expect(electron.messageBoxes).toHaveLength(1));
    const [box] = electron.messageBoxes;
    expect(box?.window).toBe(electron.windows[0]);
    expect(box?.options.message).toBe('A secret stored on this computer cannot be used.');
    expect(box?.options.detail).toMatch(/^The stored clientSecret cannot be decrypted .*IT must provision the secret again on this computer \(--provision-secret\)\./);
    expect(box?.options.detail).toMatch(/tell IT\.$/);
    expect(box?.options.detail).not.toContain('cs_test_stored_before');
    expect(electron.app.exitCode).toBeUndefined();
    expect(electron.windows).toHaveLength(1);
  });

  it('during a payment: closing is refused unless the agent chooses to quit anyway, and the ready update is never installed then', async () => {
    // macOS, where an installed build updates itself; IT's update server in the settings.
    writeFileSync(path.join(resources, 'app-update.yml'), 'provider: generic\nurl: https://updates.invalid/card-payments-desk\n');
    const electron = await launch({ platform: 'darwin', settings: { language: 'en-US', updates: { url: 'https://updates.example.com/desk', channel: 'stable' } } });
    await startUp(electron);
    expect(autoUpdater.feeds).toEqual([{ provider: 'generic', url: 'https://updates.example.com/desk/stable', channel: 'latest' }]);

    await signInAgent(electron);
    await paymentInProgress(electron);
    // The stack's requests went through Electron's net.fetch (the OS proxy and certificates), not Node's fetch.
    expect(electron.fetched.some((url) => url.endsWith('/oauth2/token'))).toBe(true);
    expect(electron.fetched.some((url) => url.endsWith('/methods'))).toBe(true);
    expect(electron.fetched.some((url) => url.endsWith('/payments'))).toBe(true);

    autoUpdater.emit('update-downloaded', { version: '1.3.0' });
    expect(await invoke(electron, 'updates:status', {})).toMatchObject({ ok: true, value: { state: 'ready', version: '1.3.0', blockedBy: 'payment_in_progress' } });
    expect(await invoke(electron, 'updates:restart', {})).toMatchObject({ ok: false, error: { code: 'payment_in_progress' } });

    // The close button: refused, and the agent is asked (in the desk's language); "Keep working" is the default.
    const [window] = electron.windows;
    expect(window?.userCloses()).toBe(false);
    await vi.waitFor(() => expect(electron.messageBoxes).toHaveLength(1));
    expect(electron.messageBoxes[0]?.options).toMatchObject({ message: 'A payment is in progress.', buttons: ['Keep working', 'Quit anyway'], defaultId: 0, cancelId: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(electron.windows).toHaveLength(1);
    expect(electron.app.quitted).toBe(false);

    // Quitting (Cmd+Q, the tray…): refused the same way; the agent chooses to quit anyway.
    electron.answers.push(1);
    electron.app.quit();
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(electron.messageBoxes).toHaveLength(2);
    // The update waits: not installed on the way out while the payment had no result, nor installed before.
    expect(autoUpdater.autoInstallOnAppQuit).toBe(false);
    expect(autoUpdater.installs).toEqual([]);
  });

  it('with no payment in progress: it quits without asking, and a ready update is installed on the way out', async () => {
    writeFileSync(path.join(resources, 'app-update.yml'), 'provider: generic\nurl: https://updates.invalid/card-payments-desk\n');
    const electron = await launch({ platform: 'darwin', settings: { updates: { url: 'https://updates.example.com/desk', channel: 'pilot' } } });
    await startUp(electron);
    autoUpdater.emit('update-downloaded', { version: '1.3.0' });
    autoUpdater.autoInstallOnAppQuit = false;

    expect(electron.windows[0]?.userCloses()).toBe(true);
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(electron.messageBoxes).toEqual([]);
    expect(autoUpdater.autoInstallOnAppQuit).toBe(true);
  });

  it('--provision-secret=<file>: stores the secret encrypted for this user, deletes the file, says so and exits with 0', async () => {
    const file = path.join(root, 'secret.txt');
    writeFileSync(file, 'cs_live_from_it_0123456789\n');
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      done?.();
      return true;
    });
    const electron = await launch({ argv: [`--provision-secret=${file}`, '--secret-name=clientSecret'] });
    electron.ready();
    await vi.waitFor(() => expect(electron.app.exitCode).toBe(0), { timeout: 15_000 });
    expect(written).toEqual([`The clientSecret was stored encrypted for this user on this computer, and ${file} was deleted.\n`]);
    expect(existsSync(file)).toBe(false);
    const stored = new EncryptedSecretStore({ safeStorage: electron.module['safeStorage'] as SafeStorageLike, file: path.join(userData, 'secrets.json'), platform: 'linux' });
    expect(await stored.read('clientSecret')).toBe('cs_live_from_it_0123456789');
    expect(electron.windows).toEqual([]);
  });

  it('on Windows, --provision-secret from standard input is refused at once, pointing to the file form (exit code 2)', async () => {
    const electron = await launch({ platform: 'win32', argv: ['--provision-secret'] });
    expect(electron.app.exitCode).toBe(2);
    expect(errors).toHaveBeenCalledWith(WINDOWS_STDIN_REFUSED);
    expect(existsSync(path.join(userData, 'secrets.json'))).toBe(false);
  });
});
