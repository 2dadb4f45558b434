// The desk's end in a real Electron: the OS shutting down, the OS session ending, an exception nothing caught. The OS
// events are emitted on Electron's own objects from the test (no OS can be shut down here); the rest is the real app.
import { expect, test } from './support/desk';
import { announceSkip, electronSkipReason } from './support/electron-binary';

const skipReason = electronSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
test.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

/** Resolves with the process's exit code once the app's process has ended. */
function exited(desk: { app: { process(): import('node:child_process').ChildProcess } }): Promise<number | null> {
  const child = desk.app.process();
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

test('macOS/Linux shutting down: main delays it (prevents the event), closes the stack and quits, asking nothing', async ({
  desk,
}) => {
  await expect(desk.window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  const ending = exited(desk);
  const prevented = await desk.app.evaluate(({ powerMonitor }) => {
    let called = false;
    // Electron's power monitor emits 'shutdown' with an event whose preventDefault() delays the OS (docs/api/power-monitor.md).
    powerMonitor.emit('shutdown', { preventDefault: () => (called = true) });
    return called;
  });
  expect(prevented).toBe(true);
  expect(await ending).toBe(0);
});

test("Windows' session-end: the bounded shutdown runs and the process ends with 0", async ({ desk }) => {
  await expect(desk.window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  const ending = exited(desk);
  await desk.app.evaluate(({ BrowserWindow }) => {
    const [window] = BrowserWindow.getAllWindows();
    // docs/api/browser-window.md, Event: 'session-end' (Windows): emitted by Electron on WM_ENDSESSION.
    window?.emit('session-end', { preventDefault: () => undefined, reasons: ['logoff'] });
  });
  expect(await ending).toBe(0);
});

test('an exception nothing caught in main: the error box says so in the desk’s language, no stack, and the process ends with 1', async ({
  desk,
}) => {
  await expect(desk.window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  const ending = exited(desk);
  const shown = await desk.app.evaluate(({ dialog }) => {
    // dialog.showErrorBox is modal until someone clicks: replaced here by a recorder (the one part of Electron faked).
    const boxes: { title: string; content: string }[] = [];
    dialog.showErrorBox = (title: string, content: string) => {
      boxes.push({ title, content });
    };
    (globalThis as { __cpdBoxes?: unknown }).__cpdBoxes = boxes;
    setTimeout(() => {
      throw new Error('nothing caught this');
    }, 0);
    return new Promise<{ title: string; content: string }[]>((resolve) => setTimeout(() => resolve(boxes), 200));
  });
  expect(shown).toEqual([
    {
      title: 'Card Payments Desk met an error and will close',
      content: expect.stringMatching(/tell IT\.$/) as unknown,
    },
  ]);
  expect(JSON.stringify(shown)).not.toContain('nothing caught this');
  expect(await ending).toBe(1);
});
