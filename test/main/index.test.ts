// The composition root, main/index.ts, run under Node with Electron's modules faked (test/main/support/launch-main.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { EncryptedSecretStore, type SafeStorageLike } from '../../main/secrets';
import { APP_ENTRY_URL, CONTENT_SECURITY_POLICY } from '../../main/window';
import { CHANNEL_NAMES } from '../../shared/ipc';
import { FakeEvent } from './support/fake-electron';
import {
  invoke,
  launch,
  paymentInProgress,
  projectRoot,
  signInAgent,
  startUp,
  useMainLaunch,
} from './support/launch-main';

vi.mock('electron', async () => (await import('./support/launch-main')).electronModuleMock());

const ctx = useMainLaunch();

describe('main/index.ts, the composition root', () => {
  it('starts in order: the app:// scheme before ready, the data folder before the single-instance lock, then the stack, the door and the hardened window', async () => {
    const electron = await launch();
    // Before ready: only what Electron allows (and requires) then.
    expect(electron.log).toEqual([
      'protocol.registerSchemesAsPrivileged',
      'app.setPath userData',
      'app.requestSingleInstanceLock',
    ]);
    expect(electron.privilegedSchemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(electron.app.getPath('userData')).toBe(ctx.userData);

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
      value: {
        environment: 'training',
        version: '1.2.3',
        language: 'es-MX',
        languageLocked: false,
        deskId: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
        storage: 'embedded',
      },
    });
    later.mainFrame.url = APP_ENTRY_URL;
    expect(await invoke(electron, 'app:info', {}, later)).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(electron.errorBoxes).toEqual([]);
    expect(electron.messageBoxes).toEqual([]);
  });

  it('a second instance hands over: it quits before ready without opening anything; the first one shows its window', async () => {
    const second = await launch({ lock: false });
    expect(second.log).toEqual([
      'protocol.registerSchemesAsPrivileged',
      'app.setPath userData',
      'app.requestSingleInstanceLock',
      'app.quit',
      'quit',
    ]);
    second.ready();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.windows).toEqual([]);
    expect(second.ipcHandlers.size).toBe(0);

    const first = await launch();
    await startUp(first);
    const [window] = first.windows;
    if (window === undefined) throw new Error('no window');
    window.minimized = true;
    first.app.emit('second-instance', new FakeEvent(), ['card-payments-desk'], ctx.root);
    expect(first.log.slice(-3)).toEqual(['window.restore', 'window.show', 'window.focus']);
    expect(window.minimized).toBe(false);
  });

  it('settings that cannot be used: a dialog says which and why, in words for IT, and the app exits with 1 without a window', async () => {
    const electron = await launch({ settings: { idleTimeoutMinutes: 90, environment: 'production' } });
    electron.ready();
    await vi.waitFor(() => expect(electron.app.exitCode).toBe(1), { timeout: 15_000 });
    expect(electron.errorBoxes).toHaveLength(1);
    const [box] = electron.errorBoxes;
    // In the system's language (es-MX here): the desk's own setting could not be read.
    expect(box?.title).toBe('Card Payments Desk no puede iniciar');
    expect(box?.content).toMatch(/idleTimeoutMinutes/);
    expect(box?.content).toMatch(/Si vuelve a pasar, avise a TI\.$/);
    expect(box?.content).not.toMatch(/\n\s+at /);
    expect(electron.windows).toEqual([]);
    expect(electron.ipcHandlers.size).toBe(0);
  });

  it('a stored secret the OS can no longer decrypt: a dialog says so at start, naming what IT must do; the desk still opens', async () => {
    // Stored under another key (another OS profile, or before the keyring was reset).
    const before: SafeStorageLike = (await launch()).module['safeStorage'] as SafeStorageLike;
    ctx.fake.ready();
    await new EncryptedSecretStore({
      safeStorage: before,
      file: path.join(ctx.userData, 'secrets.json'),
      platform: 'linux',
    }).write('clientSecret', 'cs_test_stored_before');
    await vi.waitFor(() => expect(ctx.fake.windows[0]?.shown).toBe(true), { timeout: 15_000 });
    ctx.fake.answers.splice(0);
    ctx.fake.app.quit();
    await vi.waitFor(() => expect(ctx.fake.app.quitted).toBe(true), { timeout: 15_000 });

    const electron = await launch();
    electron.storageKey = Buffer.alloc(32, 7);
    await startUp(electron);
    await vi.waitFor(() => expect(electron.messageBoxes).toHaveLength(1));
    const [box] = electron.messageBoxes;
    expect(box?.window).toBe(electron.windows[0]);
    expect(box?.options.message).toBe('A secret stored on this computer cannot be used.');
    expect(box?.options.detail).toMatch(
      /^The stored clientSecret cannot be decrypted .*IT must provision the secret again on this computer \(--provision-secret\)\./,
    );
    expect(box?.options.detail).toMatch(/tell IT\.$/);
    expect(box?.options.detail).not.toContain('cs_test_stored_before');
    expect(electron.app.exitCode).toBeUndefined();
    expect(electron.windows).toHaveLength(1);
  });

  it('during a payment: closing is refused unless the agent chooses to quit anyway, and the ready update is never installed then', async () => {
    // macOS, where an installed build updates itself; IT's update server in the settings.
    writeFileSync(
      path.join(ctx.resources, 'app-update.yml'),
      'provider: generic\nurl: https://updates.invalid/card-payments-desk\n',
    );
    const electron = await launch({
      platform: 'darwin',
      settings: { language: 'en-US', updates: { url: 'https://updates.example.com/desk', channel: 'stable' } },
    });
    await startUp(electron);
    expect(ctx.autoUpdater.feeds).toEqual([
      { provider: 'generic', url: 'https://updates.example.com/desk/stable', channel: 'latest' },
    ]);

    await signInAgent(electron);
    await paymentInProgress(electron);
    // The stack's requests went through Electron's net.fetch (the OS proxy and certificates), not Node's fetch.
    expect(electron.fetched.some((url) => url.endsWith('/oauth2/token'))).toBe(true);
    expect(electron.fetched.some((url) => url.endsWith('/methods'))).toBe(true);
    expect(electron.fetched.some((url) => url.endsWith('/payments'))).toBe(true);

    ctx.autoUpdater.emit('update-downloaded', { version: '1.3.0' });
    expect(await invoke(electron, 'updates:status', {})).toMatchObject({
      ok: true,
      value: { state: 'ready', version: '1.3.0', blockedBy: 'payment_in_progress' },
    });
    expect(await invoke(electron, 'updates:restart', {})).toMatchObject({
      ok: false,
      error: { code: 'payment_in_progress' },
    });

    // The close button: refused, and the agent is asked (in the desk's language); "Keep working" is the default.
    const [window] = electron.windows;
    expect(window?.userCloses()).toBe(false);
    await vi.waitFor(() => expect(electron.messageBoxes).toHaveLength(1));
    expect(electron.messageBoxes[0]?.options).toMatchObject({
      message: 'A payment is in progress.',
      buttons: ['Keep working', 'Quit anyway'],
      defaultId: 0,
      cancelId: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(electron.windows).toHaveLength(1);
    expect(electron.app.quitted).toBe(false);

    // Quitting (Cmd+Q, the tray…): refused the same way; the agent chooses to quit anyway.
    electron.answers.push(1);
    electron.app.quit();
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(electron.messageBoxes).toHaveLength(2);
    // The update waits: not installed on the way out while the payment had no result, nor installed before.
    expect(ctx.autoUpdater.autoInstallOnAppQuit).toBe(false);
    expect(ctx.autoUpdater.installs).toEqual([]);
  });
});
