// IT's command-line modes as main/index.ts runs them (main/cli/desk.ts), under Node with Electron's modules faked
// (test/main/support/launch-main.ts), standard output and error being pipes to IT's script (FakePipes: a chunk is out
// only on a later turn of the event loop, and app.exit() ends the process at once).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { EncryptedSecretStore, WINDOWS_STDIN_REFUSED, type SafeStorageLike } from '../../main/secrets';
import { isCommandLineLaunch } from '../../main/cli/desk';
import { FakePipes } from './support/fake-electron';
import { launch, useMainLaunch } from './support/launch-main';

vi.mock('electron', async () => (await import('./support/launch-main')).electronModuleMock());

const ctx = useMainLaunch();

/** The desktop session's variables, as a terminal in the user's session has them; each test changes what it needs. */
const SESSION = ['DISPLAY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR'] as const;
const saved = Object.fromEntries(SESSION.map((name) => [name, process.env[name]]));
let pipes: FakePipes;
let runtimeDir: string;

beforeEach(() => {
  runtimeDir = mkdtempSync(path.join(tmpdir(), 'runtime-'));
  Object.assign(process.env, {
    DISPLAY: ':0',
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${runtimeDir}/bus`,
    XDG_RUNTIME_DIR: runtimeDir,
  });
  Reflect.deleteProperty(process.env, 'WAYLAND_DISPLAY');
  pipes = new FakePipes(() => ctx.fake);
});

afterEach(() => {
  for (const name of SESSION) {
    if (saved[name] === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = saved[name];
  }
  rmSync(runtimeDir, { recursive: true, force: true });
});

/** Waits until the process has ended (app.exit) and every write made before has been delivered or lost. */
async function ended(electron: { app: { exitCode: number | undefined } }): Promise<number | undefined> {
  await vi.waitFor(() => expect(electron.app.exitCode).toBeDefined(), { timeout: 15_000 });
  await new Promise((resolve) => setImmediate(resolve));
  return electron.app.exitCode;
}

function secretFile(): string {
  const file = path.join(ctx.root, 'secret.txt');
  writeFileSync(file, 'cs_live_from_it_0123456789\n');
  return file;
}

describe('the command-line modes: exit codes and messages as docs/IT.md says, never lost when piped', () => {
  it('--provision-secret=<file>: stores the secret encrypted for this user, deletes the file, says so and exits with 0', async () => {
    const file = secretFile();
    const electron = await launch({ argv: [`--provision-secret=${file}`, '--secret-name=clientSecret'] });
    electron.ready();
    expect(await ended(electron)).toBe(0);
    expect(pipes.stdout).toEqual([
      `The clientSecret was stored encrypted for this user on this computer, and ${file} was deleted.\n`,
    ]);
    expect(existsSync(file)).toBe(false);
    const stored = new EncryptedSecretStore({
      safeStorage: electron.module['safeStorage'] as SafeStorageLike,
      file: path.join(ctx.userData, 'secrets.json'),
      platform: 'linux',
    });
    expect(await stored.read('clientSecret')).toBe('cs_live_from_it_0123456789');
    expect(electron.windows).toEqual([]);
  });

  it('arguments not used right (--print-config=xml): the sentence reaches the pipe before the process ends with 2', async () => {
    const electron = await launch({ argv: ['--print-config=xml'] });
    expect(await ended(electron)).toBe(2);
    expect({ stderr: pipes.stderr, lost: pipes.lost }).toEqual({
      stderr: ['--print-config takes no value, or =json: --print-config=json\n'],
      lost: [],
    });
    expect(electron.windows).toEqual([]);
  });

  it('on Windows, --provision-secret from standard input is refused at once, pointing to the file form (exit code 2), and the sentence is out', async () => {
    const electron = await launch({ platform: 'win32', argv: ['--provision-secret'] });
    expect(await ended(electron)).toBe(2);
    expect(pipes.stderr).toEqual([`${WINDOWS_STDIN_REFUSED}\n`]);
    expect(existsSync(path.join(ctx.userData, 'secrets.json'))).toBe(false);
  });

  it('--print-config piped: all of its output is out before the process ends with 0', async () => {
    const electron = await launch({ argv: ['--print-config'] });
    electron.ready();
    expect(await ended(electron)).toBe(0);
    const out = pipes.stdout.join('');
    expect(out).toMatch(/environment\s+"training"/);
    expect(out).toMatch(/clientSecret\s+not stored/);
    expect(pipes.lost).toEqual([]);
  });

  it('--check-center without a center setting: exits with 2, saying so', async () => {
    const electron = await launch({ argv: ['--check-center'] });
    electron.ready();
    expect(await ended(electron)).toBe(2);
    expect(pipes.stderr.join('')).toMatch(/This desk has no center setting/);
  });

  it('--migrate-center without a center setting: exits with 2, saying so', async () => {
    const electron = await launch({ argv: ['--migrate-center'] });
    electron.ready();
    expect(await ended(electron)).toBe(2);
    expect(pipes.stderr.join('')).toMatch(/There is no center setting in/);
  });
});

describe('--move-in-center while the desk runs', () => {
  it('exits with 1 (a problem to settle: close the desk), its sentence out, and tells the running desk it is a command-line launch', async () => {
    const electron = await launch({ lock: false, argv: ['--move-in-center'] });
    expect(await ended(electron)).toBe(1);
    expect(pipes.stderr.join('')).toMatch(/^Nothing was moved: the desk is running on this folder: close it first/);
    expect(pipes.lost).toEqual([]);
    // What the running desk's 'second-instance' event receives: it must not come to the front for it.
    expect(electron.lockRequests).toHaveLength(1);
    expect(isCommandLineLaunch(electron.lockRequests[0])).toBe(true);
    electron.ready();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(electron.windows).toEqual([]);
  });

  it('over ssh (no session D-Bus) too, the running desk is what it says first: exit 1', async () => {
    Reflect.deleteProperty(process.env, 'DBUS_SESSION_BUS_ADDRESS');
    const electron = await launch({ platform: 'linux', lock: false, argv: ['--move-in-center'] });
    expect(await ended(electron)).toBe(1);
    expect(pipes.stderr.join('')).toMatch(/^Nothing was moved: the desk is running on this folder/);
  });

  it('with the desk closed and no center setting: the move holds the lock, then exits with 2, saying so', async () => {
    const electron = await launch({ argv: ['--move-in-center'] });
    electron.ready();
    expect(await ended(electron)).toBe(2);
    expect(pipes.stderr.join('')).toMatch(/There is no center setting in/);
    expect(isCommandLineLaunch(electron.lockRequests[0])).toBe(true);
  });

  it('a second launch of the desk itself is no command-line launch: the running desk still comes to the front for it', async () => {
    const electron = await launch({ lock: false });
    expect(electron.lockRequests).toHaveLength(1);
    expect(isCommandLineLaunch(electron.lockRequests[0])).toBe(false);
    expect(isCommandLineLaunch({})).toBe(false);
    expect(isCommandLineLaunch(null)).toBe(false);
  });
});

describe('Linux keyrings on desktops Chromium does not recognise', () => {
  it("sway or i3 (the backend reads basic_text) with a keyring on the session bus: the secret is stored under the keyring's key", async () => {
    const file = secretFile();
    const electron = await launch({ platform: 'linux', argv: [`--provision-secret=${file}`] });
    electron.linuxDesktop = { storageBackend: 'basic_text', secretService: true };
    electron.ready();
    expect({ code: await ended(electron), stderr: pipes.stderr }).toEqual({ code: 0, stderr: [] });
    const stored = JSON.parse(readFileSync(path.join(ctx.userData, 'secrets.json'), 'utf8')) as {
      secrets: Record<string, string>;
    };
    expect(
      Buffer.from(stored.secrets['clientSecret'] ?? '', 'base64')
        .subarray(0, 3)
        .toString(),
    ).toBe('v11');
  });

  it('no keyring answers (Chromium falls back to its built-in key): refused with 1, naming what IT must install; nothing stored, the file kept', async () => {
    const file = secretFile();
    const electron = await launch({ platform: 'linux', argv: [`--provision-secret=${file}`] });
    electron.linuxDesktop = { storageBackend: 'basic_text', secretService: false };
    electron.ready();
    expect(await ended(electron)).toBe(1);
    expect(pipes.stderr.join('')).toMatch(/No keyring answered on this computer.*gnome-keyring/);
    expect(existsSync(path.join(ctx.userData, 'secrets.json'))).toBe(false);
    expect(existsSync(file)).toBe(true);
  });
});

describe('Linux without a desktop session', () => {
  it('no session D-Bus (ssh, a system service): the modes that open the keyring say what they need and exit with 2, nothing done', async () => {
    Reflect.deleteProperty(process.env, 'DBUS_SESSION_BUS_ADDRESS');
    const file = secretFile();
    const electron = await launch({ platform: 'linux', argv: [`--provision-secret=${file}`] });
    electron.ready();
    expect(await ended(electron)).toBe(2);
    const said = pipes.stderr.join('');
    expect(said).toMatch(/--provision-secret opens this user's keyring through the desktop session's D-Bus/);
    expect(said).toMatch(/DBUS_SESSION_BUS_ADDRESS is not set/);
    expect(said).toMatch(/dbus-run-session/);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(path.join(ctx.userData, 'secrets.json'))).toBe(false);
  });

  it("systemd's user bus at $XDG_RUNTIME_DIR/bus is a session bus too", async () => {
    Reflect.deleteProperty(process.env, 'DBUS_SESSION_BUS_ADDRESS');
    writeFileSync(path.join(runtimeDir, 'bus'), '');
    const electron = await launch({ platform: 'linux', argv: ['--check-center'] });
    electron.ready();
    expect(await ended(electron)).toBe(2);
    expect(pipes.stderr.join('')).toMatch(/This desk has no center setting/);
  });

  it('--print-config and --migrate-center decrypt nothing: they run without the session D-Bus', async () => {
    Reflect.deleteProperty(process.env, 'DBUS_SESSION_BUS_ADDRESS');
    const electron = await launch({ platform: 'linux', argv: ['--print-config'] });
    electron.ready();
    expect(await ended(electron)).toBe(0);
    expect(pipes.stdout.join('')).toMatch(/environment\s+"training"/);
  });
});
