// A window at once, in a real Electron: with a center that never answers (a TCP port that accepts and says nothing, as a
// PostgreSQL behind a dead network would), the window is there and shows the start-up screen while main still connects,
// every other call refused as `starting`; a second start of the app hands over to it, and its window comes to the front
// (restored when minimized). The center is IT's managed setting: the test writes the managed settings file, so it runs
// where that file can be written (root on Linux and macOS; on Windows the file follows %ProgramData%, given here).
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { _electron, test, expect } from '@playwright/test';

import { managedSettingsPath, userSettingsPath } from '../../main/settings/paths';
import { appArgs, launchEnv, mainEntry, projectRoot, startSecondInstance } from './support/desk';
import { announceSkip, electronSkipReason } from './support/electron-binary';

const skipReason = electronSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
test.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

/** Where the managed settings are read from for the app started with `env` (Windows: under its %ProgramData%). */
function managedPathFor(env: Record<string, string>): string {
  return managedSettingsPath(process.platform, env);
}

/** True when this user can write the managed settings file (or make its folder). */
function canWrite(file: string): boolean {
  let dir = path.dirname(file);
  while (!existsSync(dir)) dir = path.dirname(dir);
  try {
    accessSync(existsSync(file) ? file : dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A port that accepts connections and never answers: the center's PostgreSQL behind a dead network. */
async function silentPort(): Promise<{ port: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server, sockets };
}

// Page-side snippets are strings: the test project has no DOM typings, and they run in the sandboxed page.
const sessionStatus = 'window.api.session.status({})';
const startupStatus = 'window.api.app.startup({})';

test('with a center that never answers, the window shows the start-up screen at once; a second start brings it to the front', async () => {
  test.setTimeout(120_000);
  if (!existsSync(mainEntry))
    throw new Error('out/main/index.js is missing: run `electron-vite build` first (npm run test:e2e does).');
  const env = launchEnv();
  const programData = process.platform === 'win32' ? await mkdtemp(path.join(tmpdir(), 'cpd-programdata-')) : undefined;
  if (programData !== undefined) env['PROGRAMDATA'] = programData;
  const managed = managedPathFor(env);
  test.skip(
    !canWrite(managed),
    `the center is IT's managed setting: this user cannot write ${managed} (run as root to prove this here)`,
  );

  const center = await silentPort();
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'cpd-electron-'));
  await writeFile(userSettingsPath(userDataDir), `${JSON.stringify({ language: 'en-US' })}\n`);
  const before = existsSync(managed) ? readFileSync(managed, 'utf8') : undefined;
  mkdirSync(path.dirname(managed), { recursive: true });
  writeFileSync(
    managed,
    `${JSON.stringify({ center: { host: '127.0.0.1', port: center.port, database: 'card_desk', user: 'card_desk_app', sslmode: 'disable' } })}\n`,
  );
  const app = await _electron.launch({ args: appArgs(userDataDir), env, cwd: projectRoot });
  try {
    const window = await app.firstWindow();
    // The window is there while main waits on the center: the start-up screen, in the desk's language.
    await expect(window.getByRole('status')).toHaveText('Connecting to the center…');
    expect(center.sockets.size).toBeGreaterThan(0);
    expect(await window.evaluate(startupStatus)).toEqual({
      ok: true,
      value: { phase: 'connecting_center', language: 'en-US' },
    });
    expect(await window.evaluate(sessionStatus)).toMatchObject({ ok: false, error: { code: 'starting' } });

    // A second start, the window minimized: the first instance answers, its window restored and in front; the second exits.
    await app.evaluate(({ app: electronApp, BrowserWindow }) => {
      BrowserWindow.getAllWindows()[0]?.minimize();
      (globalThis as { __cpdSecondInstance?: Promise<boolean> }).__cpdSecondInstance = new Promise((resolve) => {
        electronApp.once('second-instance', () => resolve(true));
      });
    });
    const exitCode = await startSecondInstance(userDataDir, env);
    expect(exitCode).toBe(0);
    expect(
      await app.evaluate(() => (globalThis as { __cpdSecondInstance?: Promise<boolean> }).__cpdSecondInstance),
    ).toBe(true);
    await expect
      .poll(() =>
        app.evaluate(({ BrowserWindow }) =>
          BrowserWindow.getAllWindows().map((w) => ({ minimized: w.isMinimized(), visible: w.isVisible() })),
        ),
      )
      .toEqual([{ minimized: false, visible: true }]);
    // Still starting: nothing of the desk was opened under the start-up screen.
    await expect(window.getByRole('status')).toHaveText('Connecting to the center…');
  } finally {
    await app.close().catch(() => undefined);
    for (const socket of center.sockets) socket.destroy();
    center.server.close();
    if (before === undefined) rmSync(managed, { force: true });
    else writeFileSync(managed, before);
    await rm(userDataDir, { recursive: true, force: true });
    if (programData !== undefined) await rm(programData, { recursive: true, force: true });
  }
});
