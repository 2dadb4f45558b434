// The updater's rules: IT's feed per channel, background download, installed only when the agent restarts to update with
// the desk idle, after main's shutdown, never on a plain quit. electron-updater's autoUpdater needs Electron (it cannot run
// here): test/main/support/fake-updater.ts plays MacUpdater and NsisUpdater as electron-updater 6.8.10 behaves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../../shared/ipc';
import {
  channelFeedUrl,
  createUpdater,
  INSTALL_DEADLINE_MS,
  UpdateError,
  type UpdaterOptions,
} from '../../../main/updates';
import { FakeElectron } from '../support/fake-electron';
import { FakeAutoUpdater, type FakeAutoUpdaterOptions } from '../support/fake-updater';

const SETTINGS = { url: 'https://updates.example.test/desk/', channel: 'pilot' } as const;

let root: string;
let electron: FakeElectron;
let fake: FakeAutoUpdater;
let paying: boolean;
let seen: UpdateStatus[];
/** main's shutdown before an install: started (in order, with what else happened) and resolved when the test says. */
let shutdowns: number;
let endShutdown: (() => void) | undefined;

function prepareInstall(): Promise<void> {
  shutdowns++;
  electron.record('shutdown begun');
  return new Promise((resolve) => {
    endShutdown = () => {
      electron.record('shutdown done');
      resolve();
    };
  });
}

/** The autoUpdater of one platform, whose quits and installs act on this test's Electron fake. */
function platform(options: FakeAutoUpdaterOptions): void {
  fake = new FakeAutoUpdater({ electron: () => electron, ...options });
}

function updater(overrides: Partial<UpdaterOptions> = {}): ReturnType<typeof createUpdater> {
  const created = createUpdater({
    settings: SETTINGS,
    loadAutoUpdater: () => fake,
    paymentInProgress: () => paying,
    prepareInstall,
    ...overrides,
  });
  created.onChange((status) => seen.push(status));
  return created;
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'updater-'));
  electron = new FakeElectron({
    defaultUserData: path.join(root, 'user-data'),
    logs: path.join(root, 'logs'),
    appPath: root,
    packaged: true,
    argv: [],
  });
  platform({ platform: 'darwin' });
  paying = false;
  seen = [];
  shutdowns = 0;
  endShutdown = undefined;
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(root, { recursive: true, force: true });
});

describe('configuration', () => {
  it("reads IT's channel folder with the generic provider, downloads by itself, never installs by itself, never downgrades", () => {
    // Seen at the first thing main does with it: autoInstallOnAppQuit is off before the feed is even set.
    let onAtFeed: boolean | undefined;
    const setFeedURL = fake.setFeedURL.bind(fake);
    fake.setFeedURL = (feed) => {
      onAtFeed = fake.autoInstallOnAppQuit;
      setFeedURL(feed);
    };
    const created = updater();
    expect(onAtFeed).toBe(false);
    expect(fake.feeds).toEqual([
      { provider: 'generic', url: 'https://updates.example.test/desk/pilot', channel: 'latest' },
    ]);
    expect(fake.autoDownload).toBe(true);
    expect(fake.autoInstallOnAppQuit).toBe(false);
    expect(fake.allowDowngrade).toBe(false);
    expect(fake.allowPrerelease).toBe(false);
    expect(created.status()).toEqual({ state: 'idle', channel: 'pilot' });
  });

  it('one folder per channel under the url IT gives', () => {
    expect(channelFeedUrl({ url: 'https://updates.example.test/desk', channel: 'stable' })).toBe(
      'https://updates.example.test/desk/stable',
    );
    expect(channelFeedUrl({ url: 'https://updates.example.test/desk//', channel: 'pilot' })).toBe(
      'https://updates.example.test/desk/pilot',
    );
  });

  it('no update server: disabled, and electron-updater is never created, configured nor asked', async () => {
    let loads = 0;
    const created = updater({
      settings: undefined,
      loadAutoUpdater: () => {
        loads++;
        return fake;
      },
    });
    expect(created.status()).toEqual({
      state: 'disabled',
      message: expect.stringMatching(/no update server/) as unknown,
    });
    await created.checkNow();
    created.start();
    expect(fake.feeds).toEqual([]);
    expect(fake.checks).toBe(0);
    expect(fake.listenerCount('update-downloaded')).toBe(0);
    expect(loads).toBe(0);
    expect(() => created.restart()).toThrow(UpdateError);
    expect(shutdowns).toBe(0);
  });

  it('a desk that cannot update itself (an MSI install, an unsigned build) is disabled with the reason', async () => {
    const created = updater({ unsupported: 'This desk was installed with the MSI.' });
    expect(created.status()).toEqual({ state: 'disabled', message: 'This desk was installed with the MSI.' });
    await created.checkNow();
    expect(fake.checks).toBe(0);
  });
});

describe('checking and downloading', () => {
  it('nothing new: checking, then idle', async () => {
    const created = updater();
    await created.checkNow();
    expect(seen.map((status) => status.state)).toEqual(['checking', 'idle']);
    expect(created.status()).toEqual({ state: 'idle', channel: 'pilot' });
  });

  it('a new version: downloading, then ready with its version, and the listeners told each step', async () => {
    fake.answer = { kind: 'update', version: '1.4.0' };
    const created = updater();
    await created.checkNow();
    expect(seen).toEqual([
      { state: 'checking', channel: 'pilot' },
      { state: 'downloading', version: '1.4.0', channel: 'pilot' },
      { state: 'ready', version: '1.4.0', channel: 'pilot' },
    ]);
    expect(created.status()).toEqual({ state: 'ready', version: '1.4.0', channel: 'pilot' });
  });

  it('once an update is ready, no more looks: the one installed stays the one verified', async () => {
    fake.answer = { kind: 'update', version: '1.4.0' };
    const created = updater();
    await created.checkNow();
    fake.answer = { kind: 'update', version: '1.5.0' };
    await created.checkNow();
    expect(fake.checks).toBe(1);
    expect(created.status().version).toBe('1.4.0');
  });

  it('a failure: the error state in words for the agent (not the raw error), and the next look can succeed', async () => {
    fake.answer = {
      kind: 'fail',
      message: 'net::ERR_NAME_NOT_RESOLVED https://updates.example.test/desk/pilot/latest.yml',
    };
    const warnings: unknown[] = [];
    const created = updater({ logger: { info: () => undefined, warn: (fields) => warnings.push(fields) } });
    await created.checkNow();
    expect(created.status()).toEqual({
      state: 'error',
      channel: 'pilot',
      message: 'The update could not be checked or downloaded; the app tries again later.',
    });
    expect(warnings).toContainEqual({ error: expect.stringContaining('ERR_NAME_NOT_RESOLVED') as unknown });
    fake.answer = { kind: 'update', version: '1.4.0' };
    await created.checkNow();
    expect(created.status().state).toBe('ready');
  });

  it('start(): the first look after the delay, then one per interval', async () => {
    vi.useFakeTimers();
    const created = updater({ firstCheckDelayMs: 60_000, checkIntervalMs: 3_600_000 });
    created.start();
    created.start(); // twice is still one schedule
    await vi.advanceTimersByTimeAsync(59_999);
    expect(fake.checks).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * 3_600_000);
    expect(fake.checks).toBe(3);
    created.stop();
    await vi.advanceTimersByTimeAsync(10 * 3_600_000);
    expect(fake.checks).toBe(3);
  });
});

describe('never while a payment is in progress', () => {
  async function ready(): Promise<ReturnType<typeof createUpdater>> {
    fake.answer = { kind: 'update', version: '1.4.0' };
    const created = updater();
    await created.checkNow();
    return created;
  }

  it('the status says a ready update waits for the payment, and says so no more once it has its result', async () => {
    const created = await ready();
    paying = true;
    expect(created.status()).toEqual({
      state: 'ready',
      version: '1.4.0',
      channel: 'pilot',
      blockedBy: 'payment_in_progress',
    });
    paying = false;
    expect(created.status()).toEqual({ state: 'ready', version: '1.4.0', channel: 'pilot' });
  });

  it('a payment in progress is not blocking anything while no update is ready', () => {
    paying = true;
    expect(updater().status()).toEqual({ state: 'idle', channel: 'pilot' });
  });

  it('restart() is refused in words while a payment is in progress: no shutdown, nothing installed', async () => {
    const created = await ready();
    paying = true;
    let error: unknown;
    try {
      created.restart();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UpdateError);
    expect(error).toMatchObject({ code: 'payment_in_progress', params: undefined });
    expect(shutdowns).toBe(0);
    expect(fake.installs).toEqual([]);
  });

  it('restart() with nothing ready is refused, before any shutdown', () => {
    expect(() => updater().restart()).toThrow(expect.objectContaining({ code: 'not_ready' }) as Error);
    expect(shutdowns).toBe(0);
    expect(fake.installs).toEqual([]);
  });
});

describe('macOS (MacUpdater and Squirrel.Mac)', () => {
  async function ready(): Promise<ReturnType<typeof createUpdater>> {
    fake.answer = { kind: 'update', version: '1.4.0' };
    const created = updater();
    await created.checkNow();
    expect(created.status().state).toBe('ready');
    return created;
  }

  it('a download is not handed to Squirrel.Mac: quitting during a payment leaves the next start on this version', async () => {
    await ready();
    paying = true;
    expect(fake.squirrelStaged).toBeUndefined();
    // The agent quits anyway (Electron's own quit: nothing of the updater's is asked).
    electron.app.quit();
    expect(electron.app.quitted).toBe(true);
    expect(fake.nextStart()).toBeUndefined();
    expect(fake.applied).toEqual([]);
  });

  it('nor on a quit with no payment: only the restart to update installs', async () => {
    await ready();
    electron.app.quit();
    expect(fake.nextStart()).toBeUndefined();
    expect(fake.applied).toEqual([]);
  });

  it('restart(): the shutdown begins in the same call, and Squirrel.Mac gets the update only once it is done', async () => {
    const created = await ready();
    created.restart();
    // Synchronously: main is closing before restart() returns.
    expect(shutdowns).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.installs).toEqual([]);
    expect(fake.squirrelStaged).toBeUndefined();
    expect(electron.app.quitted).toBe(false);

    endShutdown?.();
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true));
    expect(fake.installs).toEqual([{ isSilent: true, isForceRunAfter: true }]);
    expect(electron.log).toEqual([
      'shutdown begun',
      'shutdown done',
      'squirrel staged 1.4.0',
      'squirrel quitAndInstall',
      'app.quit',
      'quit',
    ]);
    expect(fake.nextStart()).toBe('1.4.0');
  });

  it('a second restart() while one is under way: no second shutdown, no second install', async () => {
    const created = await ready();
    created.restart();
    created.restart();
    endShutdown?.();
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true));
    created.restart();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shutdowns).toBe(1);
    expect(fake.installs).toHaveLength(1);
  });

  it('a shutdown that fails (it has its own deadline) is logged, message only, and the install goes on', async () => {
    const warnings: unknown[] = [];
    fake.answer = { kind: 'update', version: '1.4.0' };
    const failure = Object.assign(new Error('the center did not close in time'), { stack: 'at secret place' });
    const created = updater({
      prepareInstall: () => Promise.reject(failure),
      logger: { info: () => undefined, warn: (fields) => warnings.push(fields) },
    });
    await created.checkNow();
    created.restart();
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true));
    expect(warnings).toEqual([{ error: 'the center did not close in time' }]);
    expect(fake.nextStart()).toBe('1.4.0');
  });

  it('a shutdown that throws at once, and a log already closed: the install still goes on', async () => {
    fake.answer = { kind: 'update', version: '1.4.0' };
    let logsClosed = false;
    const created = updater({
      prepareInstall: () => {
        logsClosed = true;
        throw new Error('already closed');
      },
      logger: {
        info: () => {
          if (logsClosed) throw new Error('SonicBoom destroyed');
        },
        warn: () => {
          if (logsClosed) throw new Error('SonicBoom destroyed');
        },
      },
    });
    await created.checkNow();
    expect(() => created.restart()).not.toThrow();
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true));
    expect(fake.nextStart()).toBe('1.4.0');
  });

  it('Squirrel.Mac refuses the update after the shutdown: the app ends anyway (nothing left running), nothing installed', async () => {
    platform({ platform: 'darwin', squirrelFails: 'Code signature at URL did not pass validation' });
    fake.answer = { kind: 'update', version: '1.4.0' };
    let failed = 0;
    const created = updater({ installFailed: () => failed++ });
    await created.checkNow();
    created.restart();
    endShutdown?.();
    await vi.waitFor(() => expect(failed).toBe(1));
    expect(created.status().state).toBe('ready');
    expect(fake.nextStart()).toBeUndefined();
  });
});

describe('an OS installer that never takes the update nor says why', () => {
  it('Squirrel.Mac silent after the handoff: past the install deadline the app ends anyway (no shut-down desk left running windowless)', async () => {
    platform({ platform: 'darwin', squirrelSilent: true });
    fake.answer = { kind: 'update', version: '1.4.0' };
    let failed = 0;
    const created = updater({ installFailed: () => failed++ });
    await created.checkNow();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    created.restart();
    endShutdown?.();
    for (let i = 0; i < 10 && fake.installs.length === 0; i++) await Promise.resolve();
    expect(fake.installs).toHaveLength(1);
    vi.advanceTimersByTime(INSTALL_DEADLINE_MS - 1);
    expect(failed).toBe(0);
    vi.advanceTimersByTime(1);
    expect(failed).toBe(1);
    expect(fake.nextStart()).toBeUndefined();
  });
});

describe('Windows (NsisUpdater and the NSIS installer)', () => {
  beforeEach(() => {
    platform({ platform: 'win32', installerKillsAfterMs: 10 });
  });

  it('a plain quit after a download starts no installer', async () => {
    fake.answer = { kind: 'update', version: '1.4.0' };
    const created = updater();
    await created.checkNow();
    expect(created.status().state).toBe('ready');
    electron.app.quit();
    expect(electron.app.quitted).toBe(true);
    expect(fake.applied).toEqual([]);
    expect(electron.log).not.toContain('installer started');
  });

  it('restart(): the installer, which kills the app about a second after it starts, is started only after the shutdown', async () => {
    fake.answer = { kind: 'update', version: '1.4.0' };
    const created = updater();
    await created.checkNow();
    created.restart();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(electron.log).toEqual(['shutdown begun']);
    endShutdown?.();
    await vi.waitFor(() => expect(fake.killed).toBe(true));
    expect(electron.log).toEqual([
      'shutdown begun',
      'shutdown done',
      'installer started',
      'app.quit',
      'quit',
      'installer killed the app',
    ]);
    expect(fake.installs).toEqual([{ isSilent: true, isForceRunAfter: true }]);
    expect(fake.applied).toEqual([{ version: '1.4.0', by: 'nsis-installer' }]);
  });
});
