// `npm run dist -- --win | --mac | --linux [--allow-unsigned] [--dry-run]`: builds the installers of one platform
// into dist/, signed from the environment (scripts/package-signing.cjs, docs/IT.md). An unsigned Windows or macOS build
// is refused unless --allow-unsigned is given, and then carries "-UNSIGNED" in its file names.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { build, Platform } from 'electron-builder';
import yaml from 'js-yaml';

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
  console.error('dist: refusing to build an unsigned installer; set the signing variables (docs/IT.md) or pass --allow-unsigned for a test build.');
  process.exit(2);
}
if (args.has('--dry-run')) {
  console.log(JSON.stringify({ platform, label: plan.label, config: plan.config, env: Object.keys(plan.env) }, null, 2));
  process.exit(0);
}

const vite = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
if (vite.status !== 0) process.exit(vite.status ?? 1);

Object.assign(process.env, plan.env);
const targets = { win: Platform.WINDOWS, mac: Platform.MAC, linux: Platform.LINUX }[platform].createTarget();
const artifacts = await build({ projectDir: root, targets, publish: 'never', config: plan.config });
for (const file of artifacts) console.log(`dist: ${path.relative(root, file)}`);
console.log(`dist ${plan.signed ? 'signed' : 'UNSIGNED'}${plan.label === '-UNNOTARIZED' ? ' (not notarized)' : ''}: ${artifacts.length} file(s) in dist/`);
