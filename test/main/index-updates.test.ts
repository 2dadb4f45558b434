// main/index.ts and the auto-update, run under Node with Electron's modules faked (test/main/support/launch-main.ts) and
// electron-updater played per platform with what the OS installer then does (test/main/support/fake-updater.ts: MacUpdater
// and Squirrel.Mac, NsisUpdater and the NSIS installer that kills the app about a second after it starts).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { FakeEvent } from './support/fake-electron';
import { FakeAutoUpdater, type FakeAutoUpdaterOptions } from './support/fake-updater';
import { invoke, launch, ok, paymentInProgress, signInAgent, startUp, useMainLaunch } from './support/launch-main';

vi.mock('electron', async () => (await import('./support/launch-main')).electronModuleMock());

const ctx = useMainLaunch();

const UPDATES = { url: 'https://updates.example.com/desk', channel: 'stable' } as const;
const realExecPath = process.execPath;

afterEach(() => {
  process.execPath = realExecPath;
});

/** electron-updater for this platform, acting on the launch's Electron fake. */
function autoUpdaterFor(options: FakeAutoUpdaterOptions): FakeAutoUpdater {
  ctx.autoUpdater = new FakeAutoUpdater({ electron: () => ctx.fake, ...options });
  return ctx.autoUpdater;
}

/**
 * A desk that updates itself on this platform (main/updates/support.ts): app-update.yml from electron-builder and, on
 * Windows, a signed build (publisherName) installed by the per-user NSIS installer (its uninstaller next to the executable).
 */
function updatableInstall(platform: 'darwin' | 'win32'): void {
  const publisher = platform === 'win32' ? 'publisherName:\n  - Example Hotels S.A. de C.V.\n' : '';
  writeFileSync(
    path.join(ctx.resources, 'app-update.yml'),
    `provider: generic\nurl: https://updates.invalid/card-payments-desk\n${publisher}`,
  );
  if (platform === 'win32') {
    const installDir = path.join(ctx.root, 'Programs', 'card-payments-desk');
    mkdirSync(installDir, { recursive: true });
    writeFileSync(path.join(installDir, 'Uninstall Card Payments Desk.exe'), '');
    process.execPath = path.join(installDir, 'Card Payments Desk.exe');
  }
}

/** The desk's SQLite write-ahead logs: present while a store is open, checkpointed and removed when the last connection closes. */
function openWriteAheadLogs(): string[] {
  return readdirSync(ctx.userData, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('-wal'))
    .sort();
}

function logText(): string {
  const dir = ctx.fake.app.getPath('logs');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.log'))
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('');
}

/** The status once the stack has read the journal back after its last write (it says busy until then). */
async function idle(electron: Awaited<ReturnType<typeof launch>>): Promise<void> {
  const ready = { ok: true, value: { state: 'ready', version: '1.3.0', channel: 'stable' } };
  await vi.waitFor(async () => expect(await invoke(electron, 'updates:status', {})).toEqual(ready), {
    timeout: 10_000,
  });
}

describe('main/index.ts: updates are installed only on a restart to update, the desk idle, after the full shutdown', () => {
  it('macOS: an update downloaded during a payment, the agent quits anyway: nothing handed to Squirrel.Mac, the next start installs nothing', async () => {
    const autoUpdater = autoUpdaterFor({ platform: 'darwin' });
    updatableInstall('darwin');
    const electron = await launch({ platform: 'darwin', settings: { language: 'en-US', updates: UPDATES } });
    await startUp(electron);
    await signInAgent(electron);
    await paymentInProgress(electron);

    // MacUpdater.updateDownloaded: Squirrel.Mac would be handed the update now if autoInstallOnAppQuit were on.
    autoUpdater.downloadEnds('1.3.0');
    const status = await invoke(electron, 'updates:status', {});
    expect(status).toMatchObject({
      ok: true,
      value: { state: 'ready', version: '1.3.0', blockedBy: 'payment_in_progress' },
    });
    expect(autoUpdater.squirrelStaged).toBeUndefined();

    // The agent quits during the payment, choosing "Quit anyway".
    electron.answers.push(1);
    electron.app.quit();
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(electron.messageBoxes).toHaveLength(1);
    expect(autoUpdater.installs).toEqual([]);
    expect(autoUpdater.nextStart()).toBeUndefined();
    expect(autoUpdater.applied).toEqual([]);
    expect(autoUpdater.autoInstallOnAppQuit).toBe(false);
  });

  it('macOS and Windows: with no payment in progress, a plain quit installs nothing either', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const autoUpdater = autoUpdaterFor({ platform });
      updatableInstall(platform);
      const electron = await launch({ platform, settings: { updates: UPDATES } });
      await startUp(electron);
      autoUpdater.downloadEnds('1.3.0');
      expect(electron.windows[0]?.userCloses()).toBe(true);
      await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
      expect(electron.messageBoxes).toEqual([]);
      const installed = {
        platform,
        installs: autoUpdater.installs,
        next: autoUpdater.nextStart(),
        applied: autoUpdater.applied,
      };
      expect(installed).toEqual({ platform, installs: [], next: undefined, applied: [] });
      expect(electron.log).not.toContain('installer started');
    }
  });

  it('Windows: restart to update with the desk idle: the stack closed and the logs written out before the installer starts', async () => {
    // What the disk holds when the installer starts, and when it kills the app: what the desk leaves if it is killed then.
    const atInstaller: Record<string, { writeAheadLogs: string[]; log: string }> = {};
    const autoUpdater = autoUpdaterFor({
      platform: 'win32',
      installerKillsAfterMs: 50,
      onInstaller: (moment) => {
        atInstaller[moment] = { writeAheadLogs: openWriteAheadLogs(), log: logText() };
      },
    });
    updatableInstall('win32');
    const electron = await launch({ platform: 'win32', settings: { language: 'en-US', updates: UPDATES } });
    await startUp(electron);
    await signInAgent(electron);
    autoUpdater.downloadEnds('1.3.0');
    await idle(electron);
    // The stores are open: their write-ahead logs are there (so that their absence below means they were closed).
    expect(openWriteAheadLogs()).not.toEqual([]);

    // Answered at once: the app is on its way out.
    expect(await invoke(electron, 'updates:restart', {})).toEqual({ ok: true, value: { ok: true } });
    await vi.waitFor(() => expect(autoUpdater.killed).toBe(true), { timeout: 15_000 });

    // Every store closed (each write-ahead log checkpointed and removed) before the installer started.
    expect(atInstaller['started']?.writeAheadLogs).toEqual([]);
    // The log file complete before the installer started: the restart is in it, and nothing was written after.
    expect(atInstaller['started']?.log).toContain('restarting to install the update');
    expect(atInstaller['started']?.log).toBe(logText());
    expect(atInstaller['killed']).toEqual(atInstaller['started']);
    // One install, silent, the app started again afterwards; then electron-updater's app.quit() went through.
    expect(autoUpdater.installs).toEqual([{ isSilent: true, isForceRunAfter: true }]);
    expect(autoUpdater.applied).toEqual([{ version: '1.3.0', by: 'nsis-installer' }]);
    // The app did not end before the installer was started (a quit that went through then would leave no update).
    expect(electron.log.filter((entry) => entry === 'quit' || entry === 'installer started')).toEqual([
      'installer started',
      'quit',
    ]);
    expect(electron.log.slice(electron.log.indexOf('installer started'))).toEqual([
      'installer started',
      'app.quit',
      'quit',
      'installer killed the app',
    ]);
    expect(autoUpdater.autoInstallOnAppQuit).toBe(false);
    // The agent's restart is in the audit trail, written before the stack closed.
    const audit = new Database(path.join(ctx.userData, 'audit.db'), { readonly: true });
    try {
      expect(audit.prepare("SELECT actor, outcome FROM audit WHERE action = 'update.restart'").all()).toEqual([
        { actor: 'ana', outcome: 'ok' },
      ]);
    } finally {
      audit.close();
    }
  });

  it('macOS: restart to update with the desk idle: the stores closed, then Squirrel.Mac is handed the update and the app quits', async () => {
    let atStaging: string[] | undefined;
    const autoUpdater = autoUpdaterFor({
      platform: 'darwin',
      onInstaller: (moment) => {
        if (moment === 'staged') atStaging = openWriteAheadLogs();
      },
    });
    updatableInstall('darwin');
    const electron = await launch({ platform: 'darwin', settings: { language: 'en-US', updates: UPDATES } });
    await startUp(electron);
    await signInAgent(electron);
    autoUpdater.downloadEnds('1.3.0');
    expect(autoUpdater.squirrelStaged).toBeUndefined();
    await idle(electron);
    expect(openWriteAheadLogs()).not.toEqual([]);

    expect(await invoke(electron, 'updates:restart', {})).toEqual({ ok: true, value: { ok: true } });
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(atStaging).toEqual([]);
    const order = electron.log.filter((entry) => entry === 'quit' || entry.startsWith('squirrel'));
    expect(order).toEqual(['squirrel staged 1.3.0', 'squirrel quitAndInstall', 'quit']);
    expect(autoUpdater.installs).toEqual([{ isSilent: true, isForceRunAfter: true }]);
    expect(autoUpdater.nextStart()).toBe('1.3.0');
  });

  it('macOS: Squirrel.Mac refuses the update after the shutdown: the app still ends (nothing left running windowless), nothing installed', async () => {
    const autoUpdater = autoUpdaterFor({
      platform: 'darwin',
      squirrelFails: 'Code signature at URL did not pass validation',
    });
    updatableInstall('darwin');
    const electron = await launch({ platform: 'darwin', settings: { language: 'en-US', updates: UPDATES } });
    await startUp(electron);
    await signInAgent(electron);
    autoUpdater.downloadEnds('1.3.0');
    await idle(electron);

    expect(await invoke(electron, 'updates:restart', {})).toEqual({ ok: true, value: { ok: true } });
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(openWriteAheadLogs()).toEqual([]);
    expect(autoUpdater.nextStart()).toBeUndefined();
    expect(autoUpdater.applied).toEqual([]);
  });

  it('restart to update is refused while a payment is in progress: no shutdown, no installer, the desk goes on', async () => {
    const autoUpdater = autoUpdaterFor({ platform: 'win32' });
    updatableInstall('win32');
    const electron = await launch({ platform: 'win32', settings: { language: 'en-US', updates: UPDATES } });
    await startUp(electron);
    await signInAgent(electron);
    await paymentInProgress(electron);
    autoUpdater.downloadEnds('1.3.0');

    expect(await invoke(electron, 'updates:restart', {})).toMatchObject({
      ok: false,
      error: { code: 'payment_in_progress' },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(autoUpdater.installs).toEqual([]);
    expect(electron.log).not.toContain('installer started');
    // Not shutting down: the stack still answers, and closing is still asked about during the payment.
    expect(await invoke(electron, 'updates:status', {})).toMatchObject({
      ok: true,
      value: { state: 'ready', blockedBy: 'payment_in_progress' },
    });
    expect(openWriteAheadLogs()).not.toEqual([]);
    expect(electron.windows[0]?.userCloses()).toBe(false);
    await vi.waitFor(() => expect(electron.messageBoxes).toHaveLength(1));
    expect(existsSync(path.join(ctx.userData, 'audit.db'))).toBe(true);
  });
});

describe('main/index.ts: a restart to update never cuts a payment the agent has just asked for', () => {
  it('payments:pay past the door but not yet begun (its checks still reading the reservation): the restart is refused, the payment goes through, no installer', async () => {
    const autoUpdater = autoUpdaterFor({ platform: 'win32', installerKillsAfterMs: 50 });
    updatableInstall('win32');
    const electron = await launch({ platform: 'win32', settings: { language: 'en-US', updates: UPDATES } });
    await startUp(electron);
    await signInAgent(electron);
    const method = await ok<{ id: string }>(electron, 'payments:tokenize', {
      operationId: crypto.randomUUID(),
      card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
      reservationId: 'MEX-2H8R5T',
    });
    const { reservation } = await ok<{ reservation: { currency: string } }>(electron, 'reservations:get', {
      reservationId: 'MEX-2H8R5T',
    });
    autoUpdater.downloadEnds('1.3.0');
    await idle(electron);

    // The agent pays, and clicks "restart to update" before main has begun the payment (it is checking the amount owed).
    const paying = invoke(electron, 'payments:pay', {
      operationId: crypto.randomUUID(),
      methodId: method.id,
      amountCents: 8000,
      currency: reservation.currency,
      reservationId: 'MEX-2H8R5T',
      acknowledgedPaymentIds: [],
    });
    const restart = await invoke(electron, 'updates:restart', {});

    expect(restart).toMatchObject({ ok: false, error: { code: 'payment_in_progress' } });
    expect(await paying).toMatchObject({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(autoUpdater.installs).toEqual([]);
    expect(electron.log).not.toContain('installer started');
  });
});

describe('main/index.ts: a second launch while the desk restarts to update', () => {
  it('neither shows the shut-down desk again nor relaunches the old version beside the installer (which starts the new one itself)', async () => {
    const autoUpdater = autoUpdaterFor({ platform: 'win32', installerKillsAfterMs: 200 });
    updatableInstall('win32');
    const electron = await launch({ platform: 'win32', settings: { language: 'en-US', updates: UPDATES } });
    await startUp(electron);
    await signInAgent(electron);
    autoUpdater.downloadEnds('1.3.0');
    await idle(electron);

    expect(await invoke(electron, 'updates:restart', {})).toEqual({ ok: true, value: { ok: true } });
    // The icon clicked again while the desk shuts down for the installer (its window hidden, its stack closing)…
    electron.app.emit('second-instance', new FakeEvent(), ['card-payments-desk'], ctx.root, {});
    // …and again once the installer has quit the app (the window gone).
    await vi.waitFor(() => expect(electron.log).toContain('installer started'), { timeout: 15_000 });
    electron.app.emit('second-instance', new FakeEvent(), ['card-payments-desk'], ctx.root, {});
    await vi.waitFor(() => expect(autoUpdater.killed).toBe(true), { timeout: 15_000 });

    // The installer runs the new version afterwards (isForceRunAfter): no second desk of the old one, no desk shown closed.
    expect(autoUpdater.installs).toEqual([{ isSilent: true, isForceRunAfter: true }]);
    expect(electron.app.relaunched).toBe(0);
    expect(electron.log.slice(electron.log.indexOf('window.hide'))).not.toContain('window.show');
  });
});
