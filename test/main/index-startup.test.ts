// main/index.ts's start under Node, Electron's modules faked (test/main/support/launch-main.ts): the window comes at
// once, before the center's connection and the recovery, and says what is happening; the door serves app:startup only
// until the stack is ready.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { FakeEvent } from './support/fake-electron';
import { invoke, launch, useMainLaunch } from './support/launch-main';

vi.mock('electron', async () => (await import('./support/launch-main')).electronModuleMock());

// The center is a policy setting, read only from IT's managed file; its system path (/etc/…) needs root, so this test's
// managed file is in a folder of its own.
const managed = vi.hoisted(() => ({ file: '' }));
vi.mock('../../main/settings/paths', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  managedSettingsPath: () => managed.file,
}));

const ctx = useMainLaunch();

let managedDir: string;
let silent: Server;
const sockets: Socket[] = [];

beforeEach(async () => {
  managedDir = mkdtempSync(path.join(tmpdir(), 'main-index-startup-'));
  managed.file = path.join(managedDir, 'managed-settings.json');
  // The center's PostgreSQL behind a dead network: the connection is accepted and nothing ever answers.
  silent = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  rmSync(managedDir, { recursive: true, force: true });
});

describe('main/index.ts: a window at once', () => {
  it('with a center that does not answer, the window is up and says "connecting to the center"; every other call waits as `starting`; a second launch brings it forward', async () => {
    const port = (silent.address() as { port: number }).port;
    writeFileSync(
      managed.file,
      JSON.stringify({
        settings: { center: { host: '127.0.0.1', port, database: 'cards', user: 'card_desk_app', sslmode: 'disable' } },
      }),
    );
    const electron = await launch({ settings: { language: 'en-US' } });
    electron.ready();
    await vi.waitFor(() => expect(electron.windows[0]?.shown).toBe(true), { timeout: 15_000 });
    await vi.waitFor(() => expect(sockets.length).toBeGreaterThan(0), { timeout: 15_000 });

    expect(await invoke(electron, 'app:startup', {})).toEqual({
      ok: true,
      value: { phase: 'connecting_center', language: 'en-US' },
    });
    expect(await invoke(electron, 'session:status', {})).toMatchObject({ ok: false, error: { code: 'starting' } });
    // The window was told as the phase changed.
    expect(electron.windows[0]?.webContents.sent).toContainEqual({
      event: 'app:startup',
      payload: { phase: 'connecting_center', language: 'en-US' },
    });

    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');
    window.minimized = true;
    electron.app.emit('second-instance', new FakeEvent(), ['card-payments-desk'], ctx.root, {});
    expect(electron.log.slice(-3)).toEqual(['window.restore', 'window.show', 'window.focus']);
    expect(electron.errorBoxes).toEqual([]);

    // Closing now is not asked (nothing is in progress) and does not hang on the silent center: the shutdown's deadline.
    expect(window.userCloses()).toBe(true);
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true), { timeout: 15_000 });
    expect(electron.errorBoxes).toEqual([]);
  });
});
