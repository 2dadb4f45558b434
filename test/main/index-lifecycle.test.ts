// main/index.ts's life and end under Node, Electron's modules faked (test/main/support/launch-main.ts): the end of the OS
// session, errors nothing caught, a second launch while the desk closes. Each fake behaviour cites what it models.
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { EncryptedSecretStore, type SafeStorageLike } from '../../main/secrets';

import { FakeEvent, type FakeWebContents } from './support/fake-electron';
import {
  invoke,
  launch,
  mainProcessHandler,
  paymentInProgress,
  signInAgent,
  startUp,
  useMainLaunch,
} from './support/launch-main';

vi.mock('electron', async () => (await import('./support/launch-main')).electronModuleMock());

const ctx = useMainLaunch();

/** The stack answers no more once it is closed: the door refuses app:info from the window's page as `closed`. */
async function stackClosed(contents: FakeWebContents | undefined): Promise<boolean> {
  if (contents === undefined) throw new Error('no window');
  const answer = (await invoke(ctx.fake, 'app:info', {}, contents)) as { ok: boolean; error?: { code: string } };
  return !answer.ok && answer.error?.code === 'closed';
}

describe('main/index.ts: the end of the OS session', () => {
  it('Windows logoff or shutdown during a payment: the logoff is not vetoed, nothing is asked, the stack closes and the process ends with 0', async () => {
    const electron = await launch({ platform: 'win32' });
    await startUp(electron);
    await signInAgent(electron);
    await paymentInProgress(electron);
    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');

    // Electron docs, BrowserWindow "Event: 'query-session-end'" (Windows): "Emitted when a session is about to end due to a
    // shutdown, machine restart, or user log-off. Calling event.preventDefault() can delay the system shutdown, although
    // it's generally best to respect the user's choice". Electron answers WM_QUERYENDSESSION with !prevented
    // (shell/browser/native_window_views_win.cc), and "if any application returns zero, the session is not ended"
    // (Microsoft, WM_QUERYENDSESSION): the logoff is never vetoed. Windows sends no before-quit or will-quit then
    // (Electron docs, app "Event: 'before-quit'": "On Windows, this event will not be emitted if the app is closed due
    // to a shutdown/restart of the system or a user logout").
    const contents = window.webContents;
    const query = new FakeEvent();
    window.emit('query-session-end', query);
    expect(query.defaultPrevented).toBe(false);
    await vi.waitFor(() => expect(electron.app.exitCode).toBe(0), { timeout: 15_000 });
    expect(electron.messageBoxes).toEqual([]);
    expect(electron.log).not.toContain('quit');
    // The stack was closed before the process ended: the door answers no more.
    expect(await stackClosed(contents)).toBe(true);
  });

  it("Windows 'session-end' alone (the session ends, no query first) runs the same bounded shutdown", async () => {
    const electron = await launch({ platform: 'win32' });
    await startUp(electron);
    const [window] = electron.windows;
    const contents = window?.webContents;
    // Electron docs, BrowserWindow "Event: 'session-end'" (Windows): "Once this event fires, there is no way to prevent
    // the session from ending."
    window?.emit('session-end', new FakeEvent());
    await vi.waitFor(() => expect(electron.app.exitCode).toBe(0), { timeout: 15_000 });
    expect(await stackClosed(contents)).toBe(true);
    expect(electron.messageBoxes).toEqual([]);
  });

  it('macOS or Linux shutting down during a payment: the shutdown is delayed (prevented), nothing is asked, and the app quits', async () => {
    const electron = await launch({ platform: 'linux' });
    await startUp(electron);
    await signInAgent(electron);
    await paymentInProgress(electron);
    const contents = electron.windows[0]?.webContents;
    // Electron docs, powerMonitor "Event: 'shutdown'" (Linux, macOS): "If the event handler invokes e.preventDefault(),
    // Electron will attempt to delay system shutdown in order for the app to exit cleanly. If e.preventDefault() is called,
    // the app should exit as soon as possible by calling something like app.quit()."
    const shutdown = new FakeEvent();
    electron.powerMonitor.emit('shutdown', shutdown);
    expect(shutdown.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(electron.messageBoxes).toEqual([]);
    expect(await stackClosed(contents)).toBe(true);
  });
});

describe('main/index.ts: a signal at logout', () => {
  it('Linux: SIGTERM during a payment (Electron turns it into a quit) asks nothing and closes the stack', async () => {
    const electron = await launch({ platform: 'linux' });
    await startUp(electron);
    await signInAgent(electron);
    await paymentInProgress(electron);
    const contents = electron.windows[0]?.webContents;
    // Electron's shell/browser/electron_browser_main_parts.cc (InstallShutdownSignalHandlers): the first SIGTERM or SIGINT
    // calls Browser::Quit(), as app.quit() does: before-quit, then each window's close, then will-quit.
    electron.app.quit();
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(electron.messageBoxes).toEqual([]);
    expect(await stackClosed(contents)).toBe(true);
  });
});

describe('main/index.ts: what nothing caught', () => {
  it('an exception nothing caught after start: a dialog in the desk’s language (no stack), the stack closed, exit 1', async () => {
    const electron = await launch({ settings: { language: 'es-MX' } });
    await startUp(electron);
    const contents = electron.windows[0]?.webContents;
    // Node calls the process's 'uncaughtException' listeners (Node docs, process "Event: 'uncaughtException'"); without one,
    // Electron shows its own "A JavaScript error occurred in the main process" box with the stack.
    const error = new Error('something broke');
    error.stack = 'Error: something broke\n    at secret (/opt/app/main.js:1:1)';
    // Up once start() has resolved (its last step follows the window's load).
    await new Promise((resolve) => setTimeout(resolve, 50));
    mainProcessHandler('uncaughtException')(error);
    await vi.waitFor(() => expect(electron.app.exitCode).toBe(1), { timeout: 15_000 });
    expect(electron.errorBoxes).toEqual([
      {
        title: 'Card Payments Desk tuvo un error y se va a cerrar',
        content: expect.stringMatching(/^Los pagos que ya se enviaron siguen en el servicio.*avise a TI\.$/) as unknown,
      },
    ]);
    expect(JSON.stringify(electron.errorBoxes)).not.toMatch(/ at |main\.js/);
    expect(await stackClosed(contents)).toBe(true);
  });

  it('an exception nothing caught while the desk is already quitting: no error box (it would hold the quit), the quit ends as a quit', async () => {
    const electron = await launch({ settings: { language: 'es-MX' } });
    await startUp(electron);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(electron.windows[0]?.userCloses()).toBe(true);
    // Something closed under a late callback throws while the stack closes. dialog.showErrorBox is synchronous (a modal
    // box that blocks main until it is dismissed, Electron docs, dialog.showErrorBox): the shutdown's deadline cannot
    // run meanwhile, and a Windows logoff or the installer waits on it.
    mainProcessHandler('uncaughtException')(new Error('Object has been destroyed'));
    await vi.waitFor(() => expect(electron.app.quitted || electron.app.exitCode !== undefined).toBe(true), {
      timeout: 15_000,
    });
    expect(electron.errorBoxes).toEqual([]);
    expect(electron.app.exitCode).toBeUndefined();
  });

  it('a rejection nobody handled once the desk is up is logged; the desk goes on', async () => {
    const electron = await launch();
    await startUp(electron);
    await new Promise((resolve) => setTimeout(resolve, 50));
    mainProcessHandler('unhandledRejection')(new Error('late'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(electron.app.exitCode).toBeUndefined();
    expect(electron.errorBoxes).toEqual([]);
    expect(await invoke(electron, 'app:info', {})).toMatchObject({ ok: true });
  });

  it('once the desk serves, a rejection nobody handled is logged even while the start-up warning about a secret is still open', async () => {
    // A secret stored under another OS key: the desk opens and says so in a box the agent has not dismissed yet.
    const before = (await launch()).module['safeStorage'] as SafeStorageLike;
    ctx.fake.ready();
    await new EncryptedSecretStore({
      safeStorage: before,
      file: path.join(ctx.userData, 'secrets.json'),
      platform: 'linux',
    }).write('reservationsApiKey', 'rk_stored_before');
    await vi.waitFor(() => expect(ctx.fake.windows[0]?.shown).toBe(true), { timeout: 15_000 });
    ctx.fake.app.quit();
    await vi.waitFor(() => expect(ctx.fake.app.quitted).toBe(true), { timeout: 15_000 });

    const electron = await launch();
    electron.storageKey = Buffer.alloc(32, 7);
    const dialog = electron.module['dialog'] as { showMessageBox: (...args: unknown[]) => Promise<unknown> };
    const show = dialog.showMessageBox;
    // The box stays open (the agent is away): showMessageBox's promise settles only when it is dismissed.
    dialog.showMessageBox = (...args: unknown[]) => {
      void show(...args);
      return new Promise(() => undefined);
    };
    await startUp(electron);
    await vi.waitFor(() => expect(electron.messageBoxes).toHaveLength(1), { timeout: 15_000 });
    // The desk serves (the agent works behind the box, a recovered payment is followed).
    expect(await invoke(electron, 'app:info', {})).toMatchObject({ ok: true });

    mainProcessHandler('unhandledRejection')(new Error('late'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(electron.errorBoxes).toEqual([]);
    expect(electron.app.exitCode).toBeUndefined();
    expect(await invoke(electron, 'app:info', {})).toMatchObject({ ok: true });
  });

  it('settings that cannot be used: the error box is in the system’s language before any setting could be read', async () => {
    const electron = await launch({ settings: { idleTimeoutMinutes: 90, environment: 'production' } });
    electron.app.locale = 'en-GB';
    electron.ready();
    await vi.waitFor(() => expect(electron.app.exitCode).toBe(1), { timeout: 15_000 });
    expect(electron.errorBoxes).toHaveLength(1);
    expect(electron.errorBoxes[0]?.title).toBe('Card Payments Desk cannot start');
    expect(electron.errorBoxes[0]?.content).toMatch(/idleTimeoutMinutes[\s\S]*If this keeps happening, tell IT\.$/);
  });
});

describe('main/index.ts: a second launch', () => {
  it('while the desk is closing (its window gone), the desk starts again once it has ended', async () => {
    const electron = await launch();
    await startUp(electron);
    expect(electron.windows[0]?.userCloses()).toBe(true);
    // The window is gone and the stack is closing: the icon is clicked again. Electron docs, app.relaunch(): "Relaunches the
    // app when current instance exits."
    electron.app.emit('second-instance', new FakeEvent(), ['card-payments-desk'], ctx.root, {});
    expect(electron.app.relaunched).toBe(1);
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
  });

  it('while the agent is asked whether to quit during a payment, the window comes to the front', async () => {
    const electron = await launch();
    await startUp(electron);
    await signInAgent(electron);
    await paymentInProgress(electron);
    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');
    electron.answers.push(0);
    expect(window.userCloses()).toBe(false);
    window.minimized = true;
    electron.app.emit('second-instance', new FakeEvent(), ['card-payments-desk'], ctx.root, {});
    expect(electron.log.slice(-3)).toEqual(['window.restore', 'window.show', 'window.focus']);
    expect(electron.app.relaunched).toBe(0);
  });
});

describe('main/index.ts: a command-line mode beside the running desk', () => {
  it('--move-in-center asking for the lock (additionalData { commandLine: true }) neither brings the desk forward nor relaunches it', async () => {
    const electron = await launch();
    await startUp(electron);
    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');
    window.minimized = true;
    const before = electron.log.length;
    // Electron docs, app.requestSingleInstanceLock([additionalData]): the data arrives as the 'second-instance' event's
    // fourth argument in the first instance.
    electron.app.emit('second-instance', new FakeEvent(), ['card-payments-desk', '--move-in-center'], ctx.root, {
      commandLine: true,
    });
    expect(electron.log.slice(before)).toEqual([]);
    expect(window.minimized).toBe(true);
    expect(electron.windows[0]?.userCloses()).toBe(true);
    electron.app.emit('second-instance', new FakeEvent(), ['card-payments-desk', '--move-in-center'], ctx.root, {
      commandLine: true,
    });
    expect(electron.app.relaunched).toBe(0);
  });
});
