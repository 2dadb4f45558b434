// `npm run dist -- --win | --mac | --linux [--allow-unsigned] [--dry-run]`: builds the installers of one platform
// into dist/, signed from the environment (scripts/package-signing.cjs, docs/IT.md). An unsigned Windows or macOS build
// is refused unless --allow-unsigned is given, and then carries "-UNSIGNED" in its file names.
// better-sqlite3 is packaged as its Electron build for each target arch, put in build/electron-native/<os>-<arch>/ first
// (WiseLibs' prebuilt binary; a compile only as a fallback, on the target OS): the development node_modules are never
// rebuilt (electron-builder.yml: npmRebuild false), so npm test keeps working after npm run dist.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { build, Platform } from 'electron-builder';
import yaml from 'js-yaml';

import { electronSqlite } from './lib/electron-native.mjs';

const require = createRequire(import.meta.url);
const { signingPlan } = require('./package-signing.cjs');
const root = path.resolve(import.meta.dirname, '..');

const args = new Set(process.argv.slice(2));
const hostPlatform = { win32: 'win', darwin: 'mac' }[process.platform] ?? 'linux';
const platform = ['win', 'mac', 'linux'].find((name) => args.has(`--${name}`)) ?? hostPlatform;
const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8'));

let plan;
try {
  plan = signingPlan(platform, process.env, config);
} catch (error) {
  console.error(`dist: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
console.log(`dist: ${plan.how}`);
if (!plan.signed && platform !== 'linux' && !args.has('--allow-unsigned')) {
  console.error(
    'dist: refusing to build an unsigned installer; set the signing variables (docs/IT.md) or pass --allow-unsigned for a test build.',
  );
  process.exit(2);
}
if (args.has('--dry-run')) {
  console.log(
    JSON.stringify({ platform, label: plan.label, config: plan.config, env: Object.keys(plan.env) }, null, 2),
  );
  process.exit(0);
}

// What Electron 45's tooling declares (@electron/get, @electron/rebuild); the tests also run on Node 20.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `dist: npm run dist needs Node.js 22.12 or later (Electron 45's tooling requires it); this is Node.js ${process.versions.node}.`,
  );
  process.exit(1);
}

const vite = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
  { cwd: root, stdio: 'inherit' },
);
if (vite.status !== 0) process.exit(vite.status ?? 1);

// better-sqlite3 for Electron, for each arch this platform is built for (the mac targets name theirs; else this machine's).
const targetEntries = (platformConfig) =>
  (Array.isArray(platformConfig?.target) ? platformConfig.target : [platformConfig?.target]).filter(Boolean);
const named = targetEntries(config[platform]).flatMap((target) =>
  typeof target === 'object' && Array.isArray(target.arch) ? target.arch : [],
);
const arches = named.length > 0 ? [...new Set(named)] : [process.arch];
const nodePlatform = { win: 'win32', mac: 'darwin', linux: 'linux' }[platform];
for (const arch of arches) {
  const target = path.join(root, 'build/electron-native', `${platform}-${arch}`, 'better_sqlite3.node');
  // Always fresh: it must be the build for this Electron and this better-sqlite3.
  rmSync(target, { force: true });
  const result = await electronSqlite({ root, target, platform: nodePlatform, arch });
  if ('failed' in result) {
    console.error(`dist: ${result.failed}`);
    process.exit(1);
  }
  console.log(`dist: better-sqlite3 for Electron, ${platform}-${arch}: ${result.how}`);
}

Object.assign(process.env, plan.env);
const targets = { win: Platform.WINDOWS, mac: Platform.MAC, linux: Platform.LINUX }[platform].createTarget();
const artifacts = await build({ projectDir: root, targets, publish: 'never', config: plan.config });
for (const file of artifacts) console.log(`dist: ${path.relative(root, file)}`);
console.log(
  `dist ${plan.signed ? 'signed' : 'UNSIGNED'}${plan.label === '-UNNOTARIZED' ? ' (not notarized)' : ''}: ${artifacts.length} file(s) in dist/`,
);
