// Builds better-sqlite3 for Electron's Node ABI into node_modules/.cache/electron-native/<electron version>/,
// leaving node_modules/better-sqlite3 built for Node (the tests need that one). Run by `npm start` / `npm run dev`.
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, stat, writeFile, copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// Read as a file: the electron package itself may only be loaded by the app's shell.
const electronVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')).version;
const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = require('better-sqlite3/package.json').version;
const target = path.join(root, 'node_modules/.cache/electron-native', electronVersion, `better-sqlite3-${sqliteVersion}.node`);

const exists = (file) => stat(file).then(() => true, () => false);

if (await exists(target)) {
  console.log(`electron-native: better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} is ready`);
  process.exit(0);
}

// A throw-away app folder with a copy of the package: @electron/rebuild rebuilds in place, and the original must stay Node's.
const work = await mkdtemp(path.join(tmpdir(), 'electron-native-'));
try {
  await writeFile(path.join(work, 'package.json'), JSON.stringify({ name: 'electron-native', version: '1.0.0', dependencies: { 'better-sqlite3': sqliteVersion } }));
  const copy = path.join(work, 'node_modules/better-sqlite3');
  await cp(sqliteDir, copy, { recursive: true, filter: (source) => !source.startsWith(path.join(sqliteDir, 'build')) });
  // better-sqlite3 needs `bindings` and `file-uri-to-path` only at run time, not to compile.
  const { rebuild } = await import('@electron/rebuild');
  console.log(`electron-native: building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (needs Electron's headers)…`);
  await rebuild({ buildPath: work, electronVersion, onlyModules: ['better-sqlite3'], force: true, buildFromSource: true });
  await mkdir(path.dirname(target), { recursive: true });
  await copyFile(path.join(copy, 'build/Release/better_sqlite3.node'), target);
  console.log(`electron-native: wrote ${path.relative(root, target)}`);
} catch (error) {
  console.error(`electron-native: could not build better-sqlite3 for Electron ${electronVersion}: ${error instanceof Error ? error.message : String(error)}`);
  console.error('electron-native: the app cannot open its journal without it. Check the network access to Electron\'s headers, or a C++ toolchain.');
  process.exitCode = 1;
} finally {
  await rm(work, { recursive: true, force: true });
}
