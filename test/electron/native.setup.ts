// Before the Electron tests: what `npm start` prepares first (scripts/prepare-electron.mjs): Electron's binary, by its own
// installer (at once when it is there), and better-sqlite3 for Electron's ABI, which the unpackaged app loads.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { expect, projectRoot, test as setup } from './support/desk';
import { announceSkip, electronSkipReason } from './support/electron-binary';

const skipReason = electronSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
setup.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

setup('Electron and better-sqlite3 for it are ready, as npm start prepares them', async () => {
  // Idempotent: returns at once when both are already there.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(projectRoot, 'scripts/prepare-electron.mjs')],
    {
      cwd: projectRoot,
      timeout: 10 * 60_000,
    },
  );
  expect(stdout).toMatch(
    /^prepare-electron: Electron \S+ is (installed|brought along); better-sqlite3 \S+ for it (is ready|was downloaded \(prebuilt\)|was compiled)\.$/m,
  );
});
