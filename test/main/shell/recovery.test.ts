// A lost page (main/shell/recovery.ts, main/window/recovery.ts) over Electron's web contents events, faked as Electron
// documents them (docs/api/web-contents.md: 'render-process-gone' with RenderProcessGoneDetails, 'unresponsive',
// 'responsive', contents.forcefullyCrashRenderer() emitting 'render-process-gone'; test/main/support/fake-electron.ts).
// Timers and performance.now() are Vitest's fake ones: the grace and the crash-loop window pass without waiting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CrashLoop, RECOVERY_LIMITS } from '../../../main/window';
import { crashRenderer, FakeElectron, type FakeBrowserWindow } from '../support/fake-electron';

const holder = vi.hoisted(() => ({ fake: undefined as { module: Record<string, unknown> } | undefined }));
vi.mock('electron', () => {
  const names = ['app', 'BrowserWindow', 'dialog'];
  const current = Object.fromEntries(
    names.map((name) => [name, { enumerable: true, get: () => holder.fake?.module[name] }]),
  );
  return Object.defineProperties({ default: Object.defineProperties({}, current) }, current);
});

const { watchRenderer } = await import('../../../main/shell/recovery');
type Recovery = Parameters<Parameters<typeof watchRenderer>[1]['onRecovered']>[0];

let electron: FakeElectron;
let window: FakeBrowserWindow;
let recovered: Recovery[];
let language: 'es-MX' | 'en-US';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance', 'Date'] });
  electron = new FakeElectron({
    defaultUserData: '/tmp/unused',
    logs: '/tmp/unused',
    appPath: '/tmp/unused',
    packaged: true,
    argv: [],
  });
  holder.fake = electron;
  const Window = electron.module['BrowserWindow'] as new (options: object) => FakeBrowserWindow;
  window = new Window({});
  recovered = [];
  language = 'es-MX';
  watchRenderer(window as never, { language: () => language, onRecovered: (recovery) => recovered.push(recovery) });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a renderer that goes away', () => {
  it('is reloaded for every reason but a clean exit, each recovery told with its reason and exit code', () => {
    crashRenderer(window.webContents, 'clean-exit', 0);
    expect(window.webContents.reloads).toBe(0);
    for (const reason of ['crashed', 'oom']) {
      vi.advanceTimersByTime(RECOVERY_LIMITS.withinMs);
      crashRenderer(window.webContents, reason, 1);
    }
    vi.advanceTimersByTime(RECOVERY_LIMITS.withinMs);
    crashRenderer(window.webContents, 'something-new', 2);
    expect(window.webContents.reloads).toBe(3);
    expect(recovered).toEqual([
      { reason: 'crashed', reloaded: true, exitCode: 1 },
      { reason: 'oom', reloaded: true, exitCode: 1 },
      { reason: 'unknown', reloaded: true, exitCode: 2 },
    ]);
  });

  it('a window already closed is left alone', () => {
    window.destroy();
    crashRenderer(window.webContents, 'crashed', 1);
    expect(window.webContents.reloads).toBe(0);
    expect(recovered).toEqual([]);
  });
});

describe('a renderer that hangs', () => {
  it('answering again within the grace is left alone', () => {
    window.webContents.emit('unresponsive');
    vi.advanceTimersByTime(RECOVERY_LIMITS.unresponsiveGraceMs - 1);
    window.webContents.emit('responsive');
    vi.advanceTimersByTime(RECOVERY_LIMITS.unresponsiveGraceMs * 3);
    expect(window.webContents.forcefulCrashes).toBe(0);
    expect(window.webContents.reloads).toBe(0);
  });

  it('still hung after the grace is ended (forcefullyCrashRenderer) and reloaded, recorded as unresponsive', () => {
    window.webContents.emit('unresponsive');
    // Chromium repeats 'unresponsive' while the page stays hung: one wait, one end.
    vi.advanceTimersByTime(RECOVERY_LIMITS.unresponsiveGraceMs / 2);
    window.webContents.emit('unresponsive');
    vi.advanceTimersByTime(RECOVERY_LIMITS.unresponsiveGraceMs / 2);
    expect(window.webContents.forcefulCrashes).toBe(1);
    // The renderer is gone once its process is (the fake's setImmediate), then reloaded.
    expect(window.webContents.reloads).toBe(0);
    vi.runOnlyPendingTimers();
    expect(window.webContents.reloads).toBe(1);
    expect(recovered).toEqual([{ reason: 'unresponsive', reloaded: true }]);
  });
});

describe('a crash loop', () => {
  it('the third loss within a minute is not reloaded: a dialog in the desk’s language, then the app quits', async () => {
    language = 'en-US';
    crashRenderer(window.webContents, 'crashed', 1);
    vi.advanceTimersByTime(20_000);
    crashRenderer(window.webContents, 'crashed', 1);
    vi.advanceTimersByTime(20_000);
    crashRenderer(window.webContents, 'crashed', 1);
    expect(window.webContents.reloads).toBe(2);
    expect(recovered.map((r) => r.reloaded)).toEqual([true, true, false]);
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true));
    expect(electron.messageBoxes).toHaveLength(1);
    expect(electron.messageBoxes[0]?.window).toBe(window);
    expect(electron.messageBoxes[0]?.options).toMatchObject({
      type: 'error',
      message: 'The app’s window stopped working several times.',
      buttons: ['Close the app'],
    });
    expect(electron.messageBoxes[0]?.options.detail).toContain('tell IT');
    // Nothing more is reloaded or asked after it.
    crashRenderer(window.webContents, 'crashed', 1);
    expect(window.webContents.reloads).toBe(2);
    expect(electron.messageBoxes).toHaveLength(1);
  });

  it('losses further apart than a minute are each reloaded', () => {
    for (let loss = 0; loss < 6; loss++) {
      crashRenderer(window.webContents, 'crashed', 1);
      vi.advanceTimersByTime(RECOVERY_LIMITS.withinMs / 2);
    }
    expect(window.webContents.reloads).toBe(6);
    expect(electron.messageBoxes).toEqual([]);
  });

  it('is measured on the monotonic clock: the wall clock jumping forward between losses hides no loop', () => {
    crashRenderer(window.webContents, 'crashed', 1);
    vi.setSystemTime(Date.now() + 2 * 60 * 60_000);
    crashRenderer(window.webContents, 'crashed', 1);
    vi.setSystemTime(Date.now() + 2 * 60 * 60_000);
    crashRenderer(window.webContents, 'crashed', 1);
    expect(window.webContents.reloads).toBe(2);
    expect(recovered.at(-1)).toEqual({ reason: 'crashed', reloaded: false, exitCode: 1 });
  });
});

describe('CrashLoop', () => {
  it('counts the losses of the last window of time only', () => {
    let now = 0;
    const loop = new CrashLoop(() => now, { losses: 3, withinMs: 1000 });
    expect([loop.lost(), ((now = 999), loop.lost())]).toEqual(['reload', 'reload']);
    now = 1500;
    expect(loop.lost()).toBe('reload');
    now = 1600;
    expect(loop.lost()).toBe('stop');
  });
});
