// The updater's rules: IT's feed per channel, background download, never installed while a payment is in progress.
// electron-updater's autoUpdater needs Electron (it cannot run here): a fake with the same events stands in for it.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../../shared/ipc';
import { channelFeedUrl, createUpdater, UpdateError, type AutoUpdaterLike, type GenericFeed, type UpdaterOptions } from '../../../main/updates';

/** Plays electron-updater's part: each checkForUpdates() emits what the next scripted answer says. */
class FakeAutoUpdater extends EventEmitter implements AutoUpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  allowDowngrade = true;
  allowPrerelease = true;
  feeds: GenericFeed[] = [];
  checks = 0;
  installs: { isSilent?: boolean; isForceRunAfter?: boolean }[] = [];
  /** What the server has: a version to offer (downloaded when autoDownload is on), nothing, or a failure. */
  answer: { kind: 'update'; version: string } | { kind: 'none' } | { kind: 'fail'; message: string } = { kind: 'none' };

  setFeedURL(options: GenericFeed): void {
    this.feeds.push(options);
  }

  checkForUpdates(): Promise<unknown> {
    this.checks++;
    this.emit('checking-for-update');
    const answer = this.answer;
    if (answer.kind === 'fail') {
      const error = new Error(answer.message);
      this.emit('error', error);
      return Promise.reject(error);
    }
    if (answer.kind === 'none') {
      this.emit('update-not-available', { version: '1.0.0' });
      return Promise.resolve({ isUpdateAvailable: false });
    }
    this.emit('update-available', { version: answer.version });
    if (this.autoDownload) this.emit('update-downloaded', { version: answer.version });
    return Promise.resolve({ isUpdateAvailable: true });
  }

  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push({ isSilent, isForceRunAfter });
  }
}

const SETTINGS = { url: 'https://updates.example.test/desk/', channel: 'pilot' } as const;

let fake: FakeAutoUpdater;
let paying: boolean;
let seen: UpdateStatus[];

function updater(overrides: Partial<UpdaterOptions> = {}): ReturnType<typeof createUpdater> {
  const created = createUpdater({ settings: SETTINGS, loadAutoUpdater: () => fake, paymentInProgress: () => paying, ...overrides });
  created.onChange((status) => seen.push(status));
  return created;
}

beforeEach(() => {
  fake = new FakeAutoUpdater();
  paying = false;
  seen = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('configuration', () => {
  it("reads IT's channel folder with the generic provider, downloads by itself, installs on a clean quit, never downgrades", () => {
    const created = updater();
    expect(fake.feeds).toEqual([{ provider: 'generic', url: 'https://updates.example.test/desk/pilot', channel: 'latest' }]);
    expect(fake.autoDownload).toBe(true);
    expect(fake.autoInstallOnAppQuit).toBe(true);
    expect(fake.allowDowngrade).toBe(false);
    expect(fake.allowPrerelease).toBe(false);
    expect(created.status()).toEqual({ state: 'idle', channel: 'pilot' });
  });

  it('one folder per channel under the url IT gives', () => {
    expect(channelFeedUrl({ url: 'https://updates.example.test/desk', channel: 'stable' })).toBe('https://updates.example.test/desk/stable');
    expect(channelFeedUrl({ url: 'https://updates.example.test/desk//', channel: 'pilot' })).toBe('https://updates.example.test/desk/pilot');
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
    expect(created.status()).toEqual({ state: 'disabled', message: expect.stringMatching(/no update server/) as unknown });
    await created.checkNow();
    created.start();
    expect(fake.feeds).toEqual([]);
    expect(fake.checks).toBe(0);
    expect(fake.listenerCount('update-downloaded')).toBe(0);
    expect(loads).toBe(0);
    expect(() => created.restart()).toThrow(UpdateError);
    created.beforeQuit();
    expect(fake.autoInstallOnAppQuit).toBe(false); // untouched: the fake's own initial value
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
    fake.answer = { kind: 'fail', message: 'net::ERR_NAME_NOT_RESOLVED https://updates.example.test/desk/pilot/latest.yml' };
    const warnings: unknown[] = [];
    const created = updater({ logger: { info: () => undefined, warn: (fields) => warnings.push(fields) } });
    await created.checkNow();
    expect(created.status()).toEqual({ state: 'error', channel: 'pilot', message: 'The update could not be checked or downloaded; the app tries again later.' });
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
    expect(created.status()).toEqual({ state: 'ready', version: '1.4.0', channel: 'pilot', blockedBy: 'payment_in_progress' });
    paying = false;
    expect(created.status()).toEqual({ state: 'ready', version: '1.4.0', channel: 'pilot' });
  });

  it('a payment in progress is not blocking anything while no update is ready', () => {
    paying = true;
    expect(updater().status()).toEqual({ state: 'idle', channel: 'pilot' });
  });

  it('restart() is refused in words while a payment is in progress, and nothing is installed', async () => {
    const created = await ready();
    paying = true;
    let error: unknown;
    try {
      created.restart();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UpdateError);
    expect(error).toMatchObject({ code: 'payment_in_progress', message: expect.stringMatching(/payment is still in progress/) as unknown });
    expect(fake.installs).toEqual([]);
  });

  it('restart() at the end of the call installs silently and starts the app again', async () => {
    const created = await ready();
    created.restart();
    expect(fake.installs).toEqual([{ isSilent: true, isForceRunAfter: true }]);
  });

  it('restart() with nothing ready is refused', () => {
    expect(() => updater().restart()).toThrow(expect.objectContaining({ code: 'not_ready' }) as Error);
    expect(fake.installs).toEqual([]);
  });

  it('quitting installs a ready update only when no payment is in progress', async () => {
    const created = await ready();
    paying = true;
    created.beforeQuit();
    expect(fake.autoInstallOnAppQuit).toBe(false);
    paying = false;
    created.beforeQuit();
    expect(fake.autoInstallOnAppQuit).toBe(true);
  });

  it('quitting when the stack cannot tell (it throws) installs nothing', async () => {
    const created = await ready();
    const throwing = createUpdater({
      settings: SETTINGS,
      loadAutoUpdater: () => fake,
      paymentInProgress: () => {
        throw new Error('The journal is closed.');
      },
    });
    expect(created.status().state).toBe('ready');
    throwing.beforeQuit();
    expect(fake.autoInstallOnAppQuit).toBe(false);
  });

  it('quitting during a payment turns off the install on quit even before the download ends', () => {
    const created = updater();
    paying = true;
    created.beforeQuit();
    expect(fake.autoInstallOnAppQuit).toBe(false);
  });
});
