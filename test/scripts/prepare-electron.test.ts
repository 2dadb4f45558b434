// scripts/prepare-electron.mjs (npm start's and npm run dev's first step), run as npm runs it, in a throw-away project:
// the real script and library, the real prebuild-install and @electron/rebuild. What cannot be had here is played by
// stand-ins: Electron's installer (it downloads 100 MB from GitHub) by a script that fails or succeeds the way it does,
// and WiseLibs' release downloads by a local mirror (prebuild-install's own `npm_config_<package>_binary_host`).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const ELECTRON = '45.4.1';
const SQLITE = '12.11.1';
/** Electron 45's Node ABI (node_modules/electron/abi_version), as prebuild-install names the release file. */
const ABI = readFileSync(path.join(projectRoot, 'node_modules/electron/abi_version'), 'utf8').trim();

/** What Electron's own install.js does when @electron/get cannot download: it prints the stack and exits with 1. */
const FAILING_INSTALLER = `
const error = new Error('getaddrinfo ENOTFOUND github.com');
console.error(error.stack);
process.exit(1);
`;
/** An installer whose binary is already there (install.js exits 0 at once when dist/ and path.txt are right). */
const INSTALLED = `require('node:fs').appendFileSync(require('node:path').join(__dirname, 'runs'), 'x'); process.exit(0);`;

let root: string;
let work: string;
let mirror: Server | undefined;
const asked: string[] = [];

function linkPackage(name: string): void {
  const target = path.join(root, 'node_modules', name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(projectRoot, 'node_modules', name), target, 'junction');
}

/** A project with the real scripts, a stand-in electron package and better-sqlite3's package.json and build recipe. */
function makeProject(installer: string): void {
  mkdirSync(path.join(root, 'scripts/lib'), { recursive: true });
  for (const file of ['scripts/prepare-electron.mjs', 'scripts/lib/electron-native.mjs'])
    cpSync(path.join(projectRoot, file), path.join(root, file));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'throw-away', private: true, type: 'module' }));
  const electron = path.join(root, 'node_modules/electron');
  mkdirSync(electron, { recursive: true });
  writeFileSync(
    path.join(electron, 'package.json'),
    JSON.stringify({
      name: 'electron',
      version: ELECTRON,
      bin: { electron: 'cli.js', 'install-electron': 'install.js' },
    }),
  );
  writeFileSync(path.join(electron, 'install.js'), installer);
  const sqlite = path.join(root, 'node_modules/better-sqlite3');
  mkdirSync(sqlite, { recursive: true });
  writeFileSync(
    path.join(sqlite, 'package.json'),
    JSON.stringify({
      name: 'better-sqlite3',
      version: SQLITE,
      repository: 'github:WiseLibs/better-sqlite3',
      dependencies: { 'prebuild-install': '^7.1.1' },
    }),
  );
  writeFileSync(
    path.join(sqlite, 'binding.gyp'),
    JSON.stringify({ targets: [{ target_name: 'better_sqlite3', sources: ['src/better_sqlite3.cpp'] }] }),
  );
  linkPackage('prebuild-install');
  linkPackage('@electron/rebuild');
}

/** A mirror of the release downloads: the prebuilt archive for this Electron, or 404. */
async function startMirror(archive: Buffer | undefined): Promise<string> {
  mirror = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (archive === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/gzip' }).end(archive);
  });
  await new Promise<void>((resolve) => mirror?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(mirror.address() as AddressInfo).port}`;
}

/** A .tar.gz as WiseLibs publishes them: build/Release/better_sqlite3.node. */
function prebuiltArchive(content: string): Buffer {
  const dir = path.join(work, 'archive');
  mkdirSync(path.join(dir, 'build/Release'), { recursive: true });
  writeFileSync(path.join(dir, 'build/Release/better_sqlite3.node'), content);
  const file = path.join(work, 'prebuilt.tar.gz');
  const tar = spawnSync('tar', ['-czf', file, '-C', dir, 'build']);
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
  return readFileSync(file);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the script as `npm start` would (node scripts/prepare-electron.mjs), with only the given settings. */
function prepare(env: Record<string, string> = {}): Promise<Run> {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'SystemRoot', 'TEMP', 'TMP', 'TMPDIR']) {
    const value = process.env[key];
    if (value !== undefined) base[key] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/prepare-electron.mjs')], {
      cwd: root,
      // prebuild-install keeps its downloads in the npm cache: a throw-away one.
      env: { ...base, npm_config_cache: path.join(work, 'npm-cache'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const binding = (): string =>
  path.join(root, 'node_modules/.cache/electron-native', ELECTRON, `better-sqlite3-${SQLITE}.node`);

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'prepare-electron-'));
  work = mkdtempSync(path.join(tmpdir(), 'prepare-electron-work-'));
  asked.length = 0;
});

afterEach(async () => {
  if (mirror !== undefined) await new Promise((resolve) => mirror?.close(resolve));
  mirror = undefined;
  rmSync(root, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('scripts/prepare-electron.mjs', () => {
  it("when Electron's installer cannot download: one sentence (no stack), exit code 1, nothing else tried", async () => {
    makeProject(FAILING_INSTALLER);
    const url = await startMirror(undefined);
    const run = await prepare({ npm_config_better_sqlite3_binary_host: url });

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `Electron ${ELECTRON} could not be downloaded by its installer (install-electron: getaddrinfo ENOTFOUND github.com); ` +
        'npm start needs it once: allow this machine to reach github.com (or set ELECTRON_MIRROR, see README), then run npm start again.',
    ]);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(asked).toEqual([]);
  });

  it("when Electron's installer cannot write its files (a node_modules installed with sudo): one sentence saying so, not a network advice", async () => {
    makeProject(
      `const error = new Error("EACCES: permission denied, mkdir '" + require('node:path').join(__dirname, 'dist') + "'"); console.error(error.stack); process.exit(1);`,
    );
    const run = await prepare();

    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Electron 45\.4\.1 could not be installed by its installer \(install-electron: EACCES: permission denied, mkdir '.+dist'\): /,
    );
    expect(lines[0]).toMatch(/this user cannot write to .*node_modules/);
    expect(lines[0]).not.toMatch(/github\.com/);
  });

  it('when better-sqlite3 cannot be put in place (node_modules/.cache not writable): one sentence, exit code 1, no stack', async () => {
    makeProject(INSTALLED);
    const url = await startMirror(prebuiltArchive('prebuilt for electron'));
    // A file where the cache folder would go: the binary is downloaded, then cannot be put in place.
    writeFileSync(path.join(root, 'node_modules/.cache'), '');
    const run = await prepare({ npm_config_better_sqlite3_binary_host: url });

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^better-sqlite3 ${SQLITE} for Electron ${ELECTRON} could not be put in place \\((?:ENOTDIR|EEXIST)[^)]*\\): `,
      ),
    );
    expect(lines[0]).toMatch(/this user cannot write to .*node_modules/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it("runs Electron's installer, then downloads better-sqlite3's prebuilt binary for this Electron; the next run finds both ready", async () => {
    makeProject(INSTALLED);
    const url = await startMirror(prebuiltArchive('prebuilt for electron'));
    const first = await prepare({ npm_config_better_sqlite3_binary_host: url });

    expect(first.stderr).toBe('');
    expect(first.stdout.trim()).toBe(
      `prepare-electron: Electron ${ELECTRON} is installed; better-sqlite3 ${SQLITE} for it was downloaded (prebuilt).`,
    );
    expect(first.code).toBe(0);
    expect(asked).toEqual([
      `/v${SQLITE}/better-sqlite3-v${SQLITE}-electron-v${ABI}-${process.platform}-${process.arch}.tar.gz`,
    ]);
    expect(readFileSync(binding(), 'utf8')).toBe('prebuilt for electron');
    // better-sqlite3 itself is untouched: its build stays the one for Node.
    expect(() =>
      readFileSync(path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')),
    ).toThrow();

    const second = await prepare({ npm_config_better_sqlite3_binary_host: url });
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe(
      `prepare-electron: Electron ${ELECTRON} is installed; better-sqlite3 ${SQLITE} for it is ready.`,
    );
    expect(asked).toHaveLength(1);
    expect(readFileSync(path.join(root, 'node_modules/electron/runs'), 'utf8')).toBe('xx');
  });

  it("npm start with only ELECTRON_OVERRIDE_DIST_PATH (which electron-vite does not read): Electron's installer still runs", async () => {
    makeProject(INSTALLED);
    const url = await startMirror(prebuiltArchive('prebuilt for electron'));
    const override = {
      ELECTRON_OVERRIDE_DIST_PATH: path.join(work, 'electron-dist'),
      npm_config_better_sqlite3_binary_host: url,
    };
    const started = await prepare({ ...override, npm_lifecycle_event: 'prestart' });

    expect(started.stderr).toBe('');
    expect(started.stdout.trim()).toBe(
      `prepare-electron: Electron ${ELECTRON} is installed; better-sqlite3 ${SQLITE} for it was downloaded (prebuilt).`,
    );
    expect(readFileSync(path.join(root, 'node_modules/electron/runs'), 'utf8')).toBe('x');
    // The Electron tests (Playwright's _electron reads it): the binary is brought along, nothing is installed.
    const tests = await prepare({ ...override, npm_lifecycle_event: 'test:e2e' });
    expect(tests.stdout.trim()).toBe(
      `prepare-electron: Electron ${ELECTRON} is brought along; better-sqlite3 ${SQLITE} for it is ready.`,
    );
    expect(readFileSync(path.join(root, 'node_modules/electron/runs'), 'utf8')).toBe('x');
  });

  it('ELECTRON_EXEC_PATH naming no file: one sentence saying so, exit code 1 (electron-vite would crash spawning it)', async () => {
    makeProject(INSTALLED);
    const missing = path.join(work, 'no-such-electron');
    const run = await prepare({ ELECTRON_EXEC_PATH: missing, npm_lifecycle_event: 'prestart' });

    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `ELECTRON_EXEC_PATH is ${missing}, which is not a file; set it to the Electron executable you have, or unset it to let npm start install Electron.`,
    ]);
  });

  it("better-sqlite3 for the arch of the Electron its installer puts in place (ELECTRON_INSTALL_ARCH, npm's --arch), not Node's", async () => {
    makeProject(INSTALLED);
    const url = await startMirror(prebuiltArchive('prebuilt for the other arch'));
    const other = process.arch === 'arm64' ? 'x64' : 'arm64';
    const run = await prepare({ npm_config_better_sqlite3_binary_host: url, ELECTRON_INSTALL_ARCH: other });

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(asked).toEqual([
      `/v${SQLITE}/better-sqlite3-v${SQLITE}-electron-v${ABI}-${process.platform}-${other}.tar.gz`,
    ]);
  });

  it("electronArch follows install-electron's rule: ELECTRON_INSTALL_ARCH, then npm_config_arch, then Node's; arm64 for an x64 Node under Rosetta", async () => {
    const { electronArch } = (await import(
      pathToFileURL(path.join(projectRoot, 'scripts/lib/electron-native.mjs')).href
    )) as {
      electronArch: (place: {
        env?: Record<string, string | undefined>;
        platform?: string;
        arch?: string;
        underRosetta?: () => boolean;
      }) => string;
    };
    const never = (): boolean => false;
    expect(electronArch({ env: {}, platform: 'linux', arch: 'x64', underRosetta: never })).toBe('x64');
    expect(
      electronArch({
        env: { ELECTRON_INSTALL_ARCH: 'arm64', npm_config_arch: 'ia32' },
        platform: 'win32',
        arch: 'x64',
        underRosetta: never,
      }),
    ).toBe('arm64');
    expect(
      electronArch({ env: { npm_config_arch: 'ia32' }, platform: 'win32', arch: 'x64', underRosetta: never }),
    ).toBe('ia32');
    // An Apple-silicon Mac running an x64 Node (Rosetta): install-electron downloads the arm64 Electron.
    expect(electronArch({ env: {}, platform: 'darwin', arch: 'x64', underRosetta: () => true })).toBe('arm64');
    expect(electronArch({ env: {}, platform: 'darwin', arch: 'x64', underRosetta: never })).toBe('x64');
    // Unless npm was told the arch: then install-electron takes it as it is.
    expect(
      electronArch({ env: { npm_config_arch: 'x64' }, platform: 'darwin', arch: 'x64', underRosetta: () => true }),
    ).toBe('x64');
  });

  it('compiles only when no prebuilt binary can be had; when that fails too: one sentence naming both, exit code 1', async () => {
    makeProject(INSTALLED);
    const url = await startMirror(undefined);
    // Electron's headers from a port where nothing listens (@electron/rebuild's ELECTRON_REBUILD_DIST_URL): the compile
    // is tried and fails at once, here and on a machine with internet alike.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const run = await prepare({
      npm_config_better_sqlite3_binary_host: url,
      ELECTRON_REBUILD_DIST_URL: `http://127.0.0.1:${port}`,
    });

    expect(run.code).toBe(1);
    expect(asked).toHaveLength(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^better-sqlite3 ${SQLITE} for Electron ${ELECTRON} \\(${process.platform}-${process.arch}\\) could not be had: ` +
          `no prebuilt binary could be downloaded \\(No prebuilt binaries found \\(target=${ELECTRON} runtime=electron .*\\)\\) ` +
          `and compiling it failed \\(.+\\); check this machine's access to github.com and electronjs.org, or install a C\\+\\+ toolchain and Python, then try again\\.$`,
      ),
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(() => readFileSync(binding())).toThrow();
  }, 60_000);
});
