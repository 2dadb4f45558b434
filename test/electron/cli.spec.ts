// IT's command-line modes in a real Electron (main/cli/desk.ts): what they print reaches a pipe in full before the
// process ends, with the exit code docs/IT.md (section 9) documents, and a mode started while the desk runs leaves its
// window as it is.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { SECRET_NAMES } from '../../main/secrets/store';
import { appArgs, expect, launchEnv, test } from './support/desk';
import { announceSkip, electronSkipReason, findElectronBinary } from './support/electron-binary';

const skipReason = electronSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
test.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The app started as IT starts a mode, its standard output and error pipes read to their end. */
async function run(userDataDir: string, mode: string[]): Promise<Ran> {
  const binary = findElectronBinary();
  if (!binary.available) throw new Error(binary.reason);
  // Playwright starts Electron with --no-sandbox on Linux (the SUID helper is rarely set up on test machines); so do these.
  const args = [...(process.platform === 'linux' ? ['--no-sandbox'] : []), ...appArgs(userDataDir), ...mode];
  const child = spawn(binary.executablePath, args, { env: launchEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  try {
    // 'close': the process has ended and both pipes are read to their end.
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (exitCode) => resolve(exitCode));
    });
    return { code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

test('--print-config through a pipe: every line of it arrives, and it exits with 0', async () => {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'cpd-cli-'));
  try {
    const { code, stdout } = await run(userDataDir, ['--print-config']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^user file: /);
    expect(stdout).toMatch(/^environment\s+"training"\s+default$/m);
    // The secrets come last: the last one's line is the end of the output.
    const last = SECRET_NAMES[SECRET_NAMES.length - 1] ?? '';
    expect(lines.at(-1)).toMatch(new RegExp(`^\\s+${last}\\s*not stored$`));
    for (const name of SECRET_NAMES) expect(stdout).toContain(name);
  } finally {
    await rm(userDataDir, { recursive: true, force: true });
  }
});

test('--print-config=json through a pipe: one whole JSON document, exit 0', async () => {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'cpd-cli-'));
  try {
    const { code, stdout } = await run(userDataDir, ['--print-config=json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ settings: expect.any(Array) });
  } finally {
    await rm(userDataDir, { recursive: true, force: true });
  }
});

test('arguments not used right: the sentence arrives on standard error and it exits with 2', async () => {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'cpd-cli-'));
  try {
    const { code, stderr } = await run(userDataDir, ['--print-config=xml']);
    expect(code).toBe(2);
    expect(stderr).toContain('--print-config takes no value, or =json');
  } finally {
    await rm(userDataDir, { recursive: true, force: true });
  }
});

test('--move-in-center while the desk runs: exits with 1 with its sentence, and the desk window stays as it was', async ({
  desk,
}) => {
  // The desk, minimized, records what its second-instance event receives and whether its window is focused or restored.
  await desk.app.evaluate(({ app, BrowserWindow }) => {
    const [window] = BrowserWindow.getAllWindows();
    if (window === undefined) throw new Error('no window');
    window.minimize();
    const seen = { focused: 0, restored: 0 };
    window.on('focus', () => seen.focused++);
    window.on('restore', () => seen.restored++);
    const state = globalThis as { __cpdSeen?: typeof seen; __cpdSecondInstance?: Promise<unknown> };
    state.__cpdSeen = seen;
    state.__cpdSecondInstance = new Promise((resolve) => {
      // Read after every listener of this emit, the app's own included, has run.
      app.once('second-instance', (_event, _argv, _cwd, additionalData) => setImmediate(() => resolve(additionalData)));
    });
  });

  const { code, stderr } = await run(desk.userDataDir, ['--move-in-center']);
  expect(code).toBe(1);
  expect(stderr).toMatch(/^Nothing was moved: the desk is running on this folder: close it first/);

  const additionalData = await desk.app.evaluate(
    () => (globalThis as { __cpdSecondInstance?: Promise<unknown> }).__cpdSecondInstance,
  );
  expect(additionalData).toEqual({ commandLine: true });
  const after = await desk.app.evaluate(({ BrowserWindow }) => {
    const [window] = BrowserWindow.getAllWindows();
    return {
      windows: BrowserWindow.getAllWindows().length,
      minimized: window?.isMinimized(),
      seen: (globalThis as { __cpdSeen?: unknown }).__cpdSeen,
    };
  });
  expect(after).toEqual({ windows: 1, minimized: true, seen: { focused: 0, restored: 0 } });
});
