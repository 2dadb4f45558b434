// main/cli/desk.ts on its own: which mode the arguments ask for, what each needs of a Linux desktop session, and the
// refusal without a display, which must be out before Chromium sets up its toolkit (Electron faked: no binary here).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  commandLineMode,
  EXIT,
  isCommandLineLaunch,
  missingSession,
  runCommandLine,
  type CommandLineOptions,
} from '../../../main/cli/desk';
import { FakeElectron } from '../support/fake-electron';

const current = vi.hoisted(() => ({ fake: undefined as FakeElectron | undefined }));
vi.mock('electron', () => ({
  get app() {
    return current.fake?.app;
  },
}));

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cli-'));
  current.fake = new FakeElectron({
    defaultUserData: path.join(root, 'user-data'),
    logs: path.join(root, 'logs'),
    appPath: root,
    packaged: true,
    argv: [],
  });
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const APP = '/opt/card-payments-desk/card-payments-desk';
const DESKTOP = { DISPLAY: ':0', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' };

describe('commandLineMode', () => {
  it('names the mode the arguments ask for, wrong use first; none for the desk itself', () => {
    expect(commandLineMode([APP], 'linux')).toBeUndefined();
    expect(commandLineMode([APP, '--print-config=json', '--check-center'], 'linux')).toEqual({
      kind: 'print',
      format: 'json',
    });
    expect(commandLineMode([APP, '--check-center', '--print-config=yaml'], 'linux')).toMatchObject({ kind: 'invalid' });
    expect(commandLineMode([APP, '--provision-secret'], 'win32')).toMatchObject({ kind: 'invalid' });
    expect(commandLineMode([APP, '--provision-secret', '--secret-name=centerPassword'], 'linux')).toEqual({
      kind: 'provision',
      args: { kind: 'provision', name: 'centerPassword', source: { kind: 'stdin' } },
    });
    expect(commandLineMode([APP, '--migrate-center'], 'darwin')).toEqual({ kind: 'migrate' });
    expect(commandLineMode([APP, '--move-in-center'], 'linux')).toEqual({ kind: 'move-in' });
  });
});

describe('missingSession (Linux)', () => {
  it('every mode needs a display (X11 or Wayland); Windows and macOS need nothing of the kind', () => {
    for (const kind of ['provision', 'print', 'check', 'migrate', 'move-in'] as const) {
      expect(missingSession(kind, 'linux', {})).toMatchObject({
        needs: 'display',
        message: expect.stringMatching(/xvfb-run -a card-payments-desk --/) as unknown,
      });
      expect(
        missingSession(kind, 'linux', {
          WAYLAND_DISPLAY: 'wayland-0',
          DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
        }),
      ).toBeUndefined();
      expect(missingSession(kind, 'win32', {})).toBeUndefined();
      expect(missingSession(kind, 'darwin', {})).toBeUndefined();
    }
  });

  it('the modes that open the secrets need the session D-Bus; --print-config and --migrate-center do not', () => {
    const noBus = { DISPLAY: ':0', XDG_RUNTIME_DIR: root };
    for (const kind of ['provision', 'check', 'move-in'] as const)
      expect(missingSession(kind, 'linux', noBus)).toMatchObject({ needs: 'session-bus' });
    for (const kind of ['print', 'migrate'] as const) expect(missingSession(kind, 'linux', noBus)).toBeUndefined();
    expect(missingSession('check', 'linux', DESKTOP)).toBeUndefined();
  });
});

describe('isCommandLineLaunch', () => {
  it('tells the additionalData of a command-line mode from a second launch of the desk', () => {
    expect(isCommandLineLaunch({ commandLine: true })).toBe(true);
    for (const data of [undefined, null, {}, { commandLine: 'yes' }, 'commandLine', []])
      expect(isCommandLineLaunch(data)).toBe(false);
  });
});

describe('runCommandLine without a display (Linux)', () => {
  it('the sentence is written before it returns (Chromium ends the process at its toolkit set-up, before any write callback), then app.exit(2)', () => {
    const file = path.join(root, 'stderr');
    const fd = openSync(file, 'w');
    try {
      const stderr = Object.assign(new PassThrough(), { fd });
      const options: CommandLineOptions = {
        argv: [APP, '--print-config'],
        platform: 'linux',
        env: {},
        stderr,
        secretStore: () => {
          throw new Error('not reached');
        },
        useElectronSqlite: () => {
          throw new Error('not reached');
        },
      };
      expect(runCommandLine(options)).toBe(true);
      // Nothing has run on the event loop yet: what is in the file now is all a real process would have said.
      expect(readFileSync(file, 'utf8')).toMatch(
        /^--print-config needs a display on Linux .*xvfb-run -a card-payments-desk --print-config/,
      );
      expect(current.fake?.app.exitCode).toBe(EXIT.misused);
      expect(current.fake?.log).toEqual(['app.exit 2']);
    } finally {
      closeSync(fd);
    }
  });

  it('the desk itself is not a command-line mode: nothing is said, nothing ends', () => {
    const options: CommandLineOptions = {
      argv: [APP],
      platform: 'linux',
      env: {},
      secretStore: () => expect.fail(),
      useElectronSqlite: () => expect.fail(),
    };
    expect(runCommandLine(options)).toBe(false);
    expect(current.fake?.log).toEqual([]);
  });
});
