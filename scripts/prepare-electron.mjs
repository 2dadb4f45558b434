// `npm start` / `npm run dev` run this first (prestart, predev), and so do the Electron tests (test/electron/native.setup.ts):
//  1. Electron's binary, by Electron's own installer command: the electron package's `install-electron` bin (since
//     Electron 42 the package no longer downloads it at install time, and electron-vite reads its path.txt);
//  2. better-sqlite3 for Electron's ABI in node_modules/.cache/electron-native/ (scripts/lib/electron-native.mjs: the
//     prebuilt binary, a compile only as a fallback); node_modules/better-sqlite3 stays Node's, for the tests.
// Each step returns at once when its result is already there. When one cannot be done, it prints ONE sentence and exits 1.
import { statSync } from 'node:fs';
import path from 'node:path';

import { developmentBinding, electronArch, electronSqlite, reason, run, versions } from './lib/electron-native.mjs';

const root = path.resolve(import.meta.dirname, '..');

function fail(sentence) {
  console.error(sentence);
  process.exit(1);
}

/** A file-system refusal rather than the network (a node_modules installed with sudo, a read-only folder). */
const cannotWrite = (why) => /\b(?:EACCES|EPERM|EROFS|ENOTDIR|EEXIST|ENOSPC)\b/.test(why);
const WRITE_ADVICE =
  `this user cannot write to ${path.join(root, 'node_modules')} or the temporary folder (was npm install run with sudo?); ` +
  'give this user back its node_modules (or remove it and run npm install again as this user), then run npm start again.';

let found;
try {
  found = versions(root);
} catch {
  fail('The electron and better-sqlite3 packages are not installed: run npm install first, then npm start.');
}
const { electronDir, electronVersion, electronPackage, sqliteVersion } = found;

// --- 1. Electron's binary ----------------------------------------------------------------------------------------
// A binary brought along needs no download: ELECTRON_EXEC_PATH (electron-vite's: npm start runs it) or, for the Electron
// tests only, ELECTRON_OVERRIDE_DIST_PATH (the electron package's, which Playwright's _electron reads). electron-vite
// never reads the latter (it needs path.txt, which only the installer writes), so npm start and npm run dev install.
const startedByNpm = ['prestart', 'predev'].includes(process.env['npm_lifecycle_event'] ?? '');
const broughtAlong = (
  startedByNpm ? ['ELECTRON_EXEC_PATH'] : ['ELECTRON_EXEC_PATH', 'ELECTRON_OVERRIDE_DIST_PATH']
).some((name) => (process.env[name] ?? '') !== '');
const execPath = process.env['ELECTRON_EXEC_PATH'] ?? '';
if (execPath !== '' && !statSync(execPath, { throwIfNoEntry: false })?.isFile()) {
  fail(
    `ELECTRON_EXEC_PATH is ${execPath}, which is not a file; set it to the Electron executable you have, or unset it to let npm start install Electron.`,
  );
}
if (!broughtAlong) {
  const installer = electronPackage.bin?.['install-electron'];
  if (typeof installer !== 'string') {
    fail(
      `The electron package ${electronVersion} has no install-electron command; reinstall it with npm install, then run npm start again.`,
    );
  }
  const { code, output } = await run(process.execPath, [path.join(electronDir, installer)], {
    cwd: electronDir,
    notice: `prepare-electron: downloading Electron ${electronVersion} with its installer (install-electron), once…`,
  });
  if (code !== 0) {
    const why = reason(output, `exit code ${code}`);
    fail(
      cannotWrite(why)
        ? `Electron ${electronVersion} could not be installed by its installer (install-electron: ${why}): ${WRITE_ADVICE}`
        : `Electron ${electronVersion} could not be downloaded by its installer (install-electron: ${why}); ` +
            'npm start needs it once: allow this machine to reach github.com (or set ELECTRON_MIRROR, see README), then run npm start again.',
    );
  }
}

// --- 2. better-sqlite3 for Electron --------------------------------------------------------------------------------
const target = developmentBinding(root, electronVersion, sqliteVersion);
// For the arch of the Electron its installer put in place (arm64 under Rosetta, ELECTRON_INSTALL_ARCH…); a binary
// brought along is taken to be this machine's.
let result;
try {
  result = await electronSqlite({ root, target, arch: broughtAlong ? process.arch : electronArch() });
} catch (error) {
  // A file that cannot be written (node_modules/.cache, the temporary folder): said in one sentence too, never as a stack.
  const why = error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
  fail(
    `better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} could not be put in place (${why}): ${WRITE_ADVICE}`,
  );
}
if ('failed' in result) fail(result.failed);
const how = { ready: 'is ready', prebuilt: 'was downloaded (prebuilt)', compiled: 'was compiled' }[result.how];
console.log(
  `prepare-electron: Electron ${electronVersion} is ${broughtAlong ? 'brought along' : 'installed'}; better-sqlite3 ${sqliteVersion} for it ${how}.`,
);
