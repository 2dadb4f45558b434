// Before the Electron tests: better-sqlite3 built for Electron's ABI, which the unpackaged app loads (npm start builds it too).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { expect, projectRoot, test as setup } from './support/desk';
import { announceSkip, electronSkipReason } from './support/electron-binary';

const skipReason = electronSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
setup.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

setup('better-sqlite3 is built for the installed Electron', async () => {
  // Idempotent: returns at once when the build for this Electron and better-sqlite3 is already there.
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(projectRoot, 'scripts/electron-native.mjs')], {
    cwd: projectRoot,
    timeout: 10 * 60_000,
  });
  expect(stdout).toMatch(/electron-native: (better-sqlite3 .* is ready|wrote )/);
});
