// better-sqlite3 for Electron's Node ABI, without touching node_modules/better-sqlite3 (the tests need Node's build):
// the prebuilt binary WiseLibs publishes for each Electron (prebuild-install, --runtime electron), and a compile from
// source (@electron/rebuild) only when no prebuilt one can be had. Used by scripts/prepare-electron.mjs (npm start,
// npm run dev, the Electron tests) and scripts/package-dist.mjs (npm run dist, for each target platform and arch).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's own versions of Electron and better-sqlite3, read as files (the electron package may only be loaded by the app). */
export function versions(root) {
  const require = createRequire(path.join(root, 'package.json'));
  const electronDir = path.dirname(require.resolve('electron/package.json'));
  const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  const electron = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8'));
  const sqlite = JSON.parse(readFileSync(path.join(sqliteDir, 'package.json'), 'utf8'));
  return {
    electronDir,
    electronVersion: electron.version,
    electronPackage: electron,
    sqliteDir,
    sqliteVersion: sqlite.version,
  };
}

/** Whether this x64 process runs under Rosetta on an Apple-silicon Mac (install-electron asks sysctl the same way). */
function underRosettaNow() {
  try {
    return (
      execFileSync('sysctl', ['-in', 'sysctl.proc_translated'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() === '1'
    );
  } catch {
    return false;
  }
}

/**
 * The arch of the Electron binary that the electron package's installer (install.js) puts in place, by its own rule:
 * ELECTRON_INSTALL_ARCH, else npm_config_arch, else Node's; and on a Mac, an x64 Node under Rosetta gets the arm64
 * Electron (unless npm_config_arch says otherwise). better-sqlite3 must be built for that arch, not for Node's.
 */
export function electronArch({
  env = process.env,
  platform = process.platform,
  arch = process.arch,
  underRosetta = underRosettaNow,
} = {}) {
  const chosen = env['ELECTRON_INSTALL_ARCH'] || env['npm_config_arch'] || arch;
  if (platform === 'darwin' && chosen === 'x64' && env['npm_config_arch'] === undefined && underRosetta())
    return 'arm64';
  return chosen;
}

/** Where npm start's copy lives (main/index.ts looks for it there when the app is not packaged). */
export function developmentBinding(root, electronVersion, sqliteVersion) {
  return path.join(
    root,
    'node_modules/.cache/electron-native',
    electronVersion,
    `better-sqlite3-${sqliteVersion}.node`,
  );
}

export const exists = (file) =>
  stat(file).then(
    () => true,
    () => false,
  );

/**
 * Runs a program to its end; resolves with its exit code and what it wrote (nothing of it is shown). `notice` is
 * printed only if it is still running after `noticeAfterMs` (a download under way), so a quick failure stays one sentence.
 */
export function run(command, args, { notice, noticeAfterMs = 2000, ...options } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const timer = notice === undefined ? undefined : setTimeout(() => console.log(notice), noticeAfterMs);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output });
    });
  });
}

/** The gist of a failure, for a sentence: the network error, a tool's last warning or an error's message, never a stack. */
export function reason(output, fallback) {
  const text = String(output);
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('at ') && !/^\^+$/.test(line));
  const network =
    /getaddrinfo \w+ [\w.-]+|connect (?:ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH) [\w.:[\]-]+/.exec(text)?.[0];
  const headers = /related to network connectivity/.test(text)
    ? "Electron's headers could not be downloaded"
    : undefined;
  const warning = [...lines].reverse().find((line) => /^prebuild-install (?:warn|error) /.test(line));
  const error = lines.find((line) => /^(?:\w*Error)(?: \[\w+\])?: /.test(line));
  const picked =
    network ??
    headers ??
    warning?.replace(/^prebuild-install (?:warn|error) (?:install )?/, '') ??
    error?.replace(/^(?:\w*Error)(?: \[\w+\])?: /, '') ??
    lines.at(-1) ??
    fallback;
  const gist = picked.replace(/\.$/, '');
  return gist.length > 200 ? `${gist.slice(0, 197)}…` : gist;
}

/** A throw-away copy of better-sqlite3 without its build: the tools work in place, and the original must stay Node's. */
async function copyOfSqlite(sqliteDir) {
  const work = await mkdtemp(path.join(tmpdir(), 'electron-native-'));
  const copy = path.join(work, 'node_modules/better-sqlite3');
  await cp(sqliteDir, copy, {
    recursive: true,
    filter: (source) =>
      !source.startsWith(path.join(sqliteDir, 'build')) && !source.startsWith(path.join(sqliteDir, 'prebuilds')),
  });
  return { work, copy };
}

/** Downloads WiseLibs' prebuilt binary for this Electron, platform and arch into `copy`; answers undefined or why not. */
async function fetchPrebuilt({ sqliteDir, copy, electronVersion, platform, arch }) {
  let bin;
  try {
    // better-sqlite3's own installer: the one its package.json runs for Node.
    bin = createRequire(path.join(sqliteDir, 'package.json')).resolve('prebuild-install/bin.js');
  } catch {
    return 'prebuild-install is not installed';
  }
  const env = { ...process.env };
  // npm's notes about the project being run would make prebuild-install think better-sqlite3 came from git.
  delete env['npm_package_resolved'];
  delete env['npm_package_from'];
  const args = [
    bin,
    '--runtime=electron',
    `--target=${electronVersion}`,
    `--platform=${platform}`,
    `--arch=${arch}`,
    '--verbose',
  ];
  const notice = `electron-native: downloading better-sqlite3's prebuilt binary for Electron ${electronVersion} (${platform}-${arch})…`;
  const { code, output } = await run(process.execPath, args, { cwd: copy, env, notice });
  if (code === 0 && (await exists(path.join(copy, 'build/Release/better_sqlite3.node')))) return undefined;
  return reason(output, `prebuild-install exited with ${code}`);
}

/**
 * Compiles better-sqlite3 for Electron in `work` with @electron/rebuild's command (Electron's headers from the network,
 * or ELECTRON_REBUILD_DIST_URL; a C++ toolchain and Python). Run as a child so that its output is read, not shown.
 */
async function compile({ work, copy, sqliteVersion, electronVersion, arch }) {
  await writeFile(
    path.join(work, 'package.json'),
    JSON.stringify({ name: 'electron-native', version: '1.0.0', dependencies: { 'better-sqlite3': sqliteVersion } }),
  );
  let cli;
  try {
    cli = path.join(path.dirname(fileURLToPath(import.meta.resolve('@electron/rebuild'))), 'cli.js');
  } catch {
    return '@electron/rebuild is not installed';
  }
  const args = [
    cli,
    '--version',
    electronVersion,
    '--arch',
    arch,
    '--module-dir',
    work,
    '--only',
    'better-sqlite3',
    '--force',
    '--build-from-source',
  ];
  const notice = `electron-native: no prebuilt binary; compiling better-sqlite3 for Electron ${electronVersion} (${arch})…`;
  const { code, output } = await run(process.execPath, args, { cwd: work, notice });
  if (code === 0)
    return (await exists(path.join(copy, 'build/Release/better_sqlite3.node')))
      ? undefined
      : '@electron/rebuild wrote no better_sqlite3.node';
  return reason(output, `@electron/rebuild exited with ${code}`);
}

/**
 * Puts better-sqlite3 built for Electron at `target`: the prebuilt binary first, a compile (host platform only) if
 * none can be downloaded. Answers { how: 'ready' | 'prebuilt' | 'compiled' } or { failed: one sentence }.
 */
export async function electronSqlite({ root, target, platform = process.platform, arch = process.arch }) {
  const { electronVersion, sqliteDir, sqliteVersion } = versions(root);
  if (await exists(target)) return { how: 'ready' };
  const { work, copy } = await copyOfSqlite(sqliteDir);
  try {
    const built = path.join(copy, 'build/Release/better_sqlite3.node');
    const prebuiltProblem = await fetchPrebuilt({ sqliteDir, copy, electronVersion, platform, arch });
    let how = 'prebuilt';
    if (prebuiltProblem !== undefined) {
      const compileProblem =
        platform === process.platform
          ? await compile({ work, copy, sqliteVersion, electronVersion, arch })
          : `it can only be compiled on ${platform} itself`;
      if (compileProblem !== undefined) {
        return {
          failed:
            `better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${platform}-${arch}) could not be had: no prebuilt binary could be downloaded (${prebuiltProblem}) ` +
            `and compiling it failed (${compileProblem}); check this machine's access to github.com and electronjs.org, or install a C++ toolchain and Python, then try again.`,
        };
      }
      how = 'compiled';
    }
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(built, target);
    return { how };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
