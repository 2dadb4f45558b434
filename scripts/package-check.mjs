// `npm run package:check`: checks the packaging offline, where no Electron binary can be downloaded.
//  1. builds the app (electron-vite build; --no-build to reuse out/),
//     and checks the preload's size (at most PRELOAD_BUDGET_BYTES: it bundles the channel names, never the schemas),
//  2. validates electron-builder.yml against node_modules/app-builder-lib/scheme.json, and the app's own packaging rules,
//  3. packages a Linux `dir` build with electron-builder, using a stand-in Electron (scripts/package-stand-in.cjs) and,
//     when npm run dist has not put better-sqlite3's Electron build in build/electron-native/, a stand-in for that too,
//  4. inspects the result: the fuses flipped by the afterPack hook, and app.asar: the built code present; every production
//     dependency, transitively, resolving to the version node_modules has (scripts/lib/dependency-closure.mjs); no tests,
//     no .env, no source maps, no credentials; the simulator present only inside the main bundle, for training;
//     better-sqlite3's Electron build in resources/native/ and no other native module anywhere (Node's would crash).
// Prints one summary line last and exits 1 on any failure. --keep leaves the packaged folder for a look.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import asar from '@electron/asar';
import { getCurrentFuseWire, FuseV1Options } from '@electron/fuses';
import Ajv from 'ajv';
import { Arch, build, Platform } from 'electron-builder';
import yaml from 'js-yaml';

import { dependencyClosureProblems } from './lib/dependency-closure.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const { FUSES, FUSE_ON, FUSE_OFF } = require('./after-pack.cjs');
const { writeStandInElectronDist } = require('./package-stand-in.cjs');

const args = new Set(process.argv.slice(2));
const problems = [];
const facts = [];

/** Records a failed check; the run goes on so that every problem is listed at once. */
function expect(ok, problem) {
  if (!ok) problems.push(problem);
  return ok;
}

function step(title) {
  console.log(`\npackage-check: ${title}`);
}

// --- 1. Build ---------------------------------------------------------------------------------------------------
function buildApp() {
  if (args.has('--no-build')) {
    step('reusing out/ (--no-build)');
    return expect(
      existsSync(path.join(root, 'out/main/index.js')),
      'out/ is missing: run electron-vite build, or drop --no-build',
    );
  }
  step('electron-vite build');
  const bin = path.join(root, 'node_modules/electron-vite/bin/electron-vite.js');
  const result = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: 'inherit' });
  return expect(result.status === 0, `electron-vite build failed (exit code ${result.status})`);
}

/** The sandboxed preload bundles everything it imports: the channel and event names are a few kB; zod and the schemas are 600. */
const PRELOAD_BUDGET_BYTES = 30_000;

function checkPreload() {
  step(`measuring out/preload (budget ${PRELOAD_BUDGET_BYTES / 1000} kB)`);
  const dir = path.join(root, 'out/preload');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const bytes = files.reduce(
    (sum, entry) => sum + statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size,
    0,
  );
  const kb = (bytes / 1000).toFixed(1);
  if (
    expect(
      bytes <= PRELOAD_BUDGET_BYTES,
      `out/preload is ${kb} kB, over its ${PRELOAD_BUDGET_BYTES / 1000} kB budget: the preload must import only shared/ipc/channels.ts as values, never the contract's schemas`,
    )
  ) {
    facts.push(`preload ${kb} kB`);
  }
}

// --- 2. The configuration ---------------------------------------------------------------------------------------
/** Keys that would hold signing secrets or their files: they come from the environment, never from the file. */
const SECRET_KEYS = new Set([
  'cscLink',
  'cscKeyPassword',
  'certificateFile',
  'certificatePassword',
  'appleIdPassword',
  'password',
]);

function secretKeysIn(value, at = '') {
  if (Array.isArray(value)) return value.flatMap((item, index) => secretKeysIn(item, `${at}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(SECRET_KEYS.has(key) ? [`${at}${at ? '.' : ''}${key}`] : []),
    ...secretKeysIn(inner, `${at}${at ? '.' : ''}${key}`),
  ]);
}

const targetNames = (targets) =>
  (Array.isArray(targets) ? targets : [targets]).map((target) =>
    typeof target === 'string' ? target : target?.target,
  );

function checkConfig() {
  step('validating electron-builder.yml against node_modules/app-builder-lib/scheme.json');
  const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8'));
  const scheme = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
  // scheme.json uses draft-07 with a few annotations ajv's strict mode does not know (e.g. "tsType").
  const validate = new Ajv({ allErrors: true, strict: false }).compile(scheme);
  const valid = validate(config);
  if (!valid) {
    for (const error of validate.errors ?? [])
      problems.push(
        `electron-builder.yml${error.instancePath || ''}: ${error.message}${error.params?.additionalProperty ? ` (${error.params.additionalProperty})` : ''}`,
      );
  }

  const buildResources = path.join(root, config.directories?.buildResources ?? 'build');
  expect(config.asar === true, 'asar must be on (OnlyLoadAppFromAsar and the asar integrity check need app.asar)');
  expect(
    config.afterPack === './scripts/after-pack.cjs',
    'afterPack must be ./scripts/after-pack.cjs (it flips the fuses)',
  );
  expect(
    config.electronFuses === undefined,
    'electronFuses must not be set: the afterPack hook flips the fuses (one place only)',
  );
  expect(
    config.disableAsarIntegrity !== true,
    'disableAsarIntegrity must stay off (EnableEmbeddedAsarIntegrityValidation needs the embedded hash)',
  );
  expect(
    config.npmRebuild === false,
    'npmRebuild must be false: packaging never rebuilds the development node_modules (npm test needs them built for Node)',
  );
  expect(
    JSON.stringify(config.extraResources) ===
      JSON.stringify([{ from: NATIVE_FROM, to: 'native', filter: ['better_sqlite3.node'] }]),
    `extraResources must put ${NATIVE_FROM}/better_sqlite3.node in resources/native/ (main/index.ts loads it there)`,
  );
  expect(
    config.publish?.[0]?.provider === 'generic',
    "publish must be the generic provider (electron-updater reads IT's server)",
  );
  expect(
    JSON.stringify(targetNames(config.win?.target)) === JSON.stringify(['nsis', 'msi']),
    'Windows targets must be nsis and msi',
  );
  expect(config.win?.verifyUpdateCodeSignature !== false, 'win.verifyUpdateCodeSignature must stay on');
  expect(
    typeof config.msi?.upgradeCode === 'string',
    'msi.upgradeCode must be fixed, or Windows cannot upgrade the MSI',
  );
  expect(
    JSON.stringify(targetNames(config.mac?.target)) === JSON.stringify(['dmg', 'zip']),
    'macOS targets must be dmg and zip',
  );
  expect(config.mac?.hardenedRuntime === true, 'mac.hardenedRuntime must be on');
  expect(
    config.mac?.notarize === true,
    'mac.notarize must be on (it runs when the Apple credentials are in the environment)',
  );
  // An AppImage cannot start on Ubuntu 23.10 and later without --no-sandbox (electron-builder.yml says why): the deb only.
  expect(
    JSON.stringify(targetNames(config.linux?.target)) === JSON.stringify(['deb']),
    'The Linux target must be the deb alone (an AppImage cannot keep the sandbox on current Ubuntu)',
  );
  for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
    expect(typeof file === 'string' && existsSync(path.join(root, file)), `the entitlements file ${file} is missing`);
  }
  for (const icon of [config.win?.icon, config.mac?.icon, config.linux?.icon]) {
    expect(
      typeof icon === 'string' && existsSync(path.join(buildResources, icon)),
      `the icon ${icon} is missing from ${path.relative(root, buildResources)}`,
    );
  }
  const secrets = secretKeysIn(config);
  expect(
    secrets.length === 0,
    `electron-builder.yml holds signing secrets (${secrets.join(', ')}): they belong in the environment`,
  );
  if (valid) facts.push('config valid');
  return { config, valid };
}

// --- 3. Package -------------------------------------------------------------------------------------------------
/** Where npm run dist puts better-sqlite3's Electron build for each target; electron-builder expands the macros. */
const NATIVE_FROM = 'build/electron-native/${os}-${arch}';

/**
 * better-sqlite3's Electron build for this Linux arch: npm run dist's when there is one, otherwise a stand-in (Node's
 * build: the check is where it lands, not what it runs). Answers a function that removes only what it put there.
 */
function nativeForPackaging(arch) {
  const folder = path.join(root, 'build/electron-native', `linux-${arch}`);
  const file = path.join(folder, 'better_sqlite3.node');
  if (existsSync(file)) return () => undefined;
  const made = !existsSync(folder);
  mkdirSync(folder, { recursive: true });
  copyFileSync(
    path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node'),
    file,
  );
  return () => rmSync(made ? folder : file, { recursive: true, force: true });
}

async function packageDir(work) {
  step('packaging a Linux dir build with a stand-in Electron (npmRebuild off)');
  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const electronDist = writeStandInElectronDist(path.join(work, 'electron-dist'), electronVersion);
  const output = path.join(work, 'out');
  const arch = Arch[process.arch] ?? Arch.x64;
  const removeStandIn = nativeForPackaging(Arch[arch]);
  try {
    await buildDir({ electronVersion, electronDist, output, arch });
  } finally {
    removeStandIn();
  }
  const unpacked = readdirSync(output).find((name) => name.startsWith('linux') && name.endsWith('unpacked'));
  if (!expect(unpacked !== undefined, `electron-builder wrote no linux-*unpacked folder in ${output}`))
    return undefined;
  return path.join(output, unpacked);
}

async function buildDir({ electronVersion, electronDist, output, arch }) {
  await build({
    projectDir: root,
    targets: Platform.LINUX.createTarget('dir', arch),
    publish: 'never',
    // electron-builder reads electron-builder.yml itself and merges these overrides into it.
    config: {
      electronVersion,
      electronDist,
      npmRebuild: false,
      nodeGypRebuild: false,
      directories: { output },
    },
  });
}

// --- 4. Inspect -------------------------------------------------------------------------------------------------
/** Patterns of credentials that must never ship (long enough not to match the app's own prefix checks and messages). */
const CREDENTIALS = [
  [/-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----/, 'a private key'],
  [/\b(?:sk|cs|rk)_live_[A-Za-z0-9]{16,}/, 'a live secret key'],
  [/\bpk_live_[A-Za-z0-9]{16,}/, 'a live publishable key'],
  [/\bAKIA[0-9A-Z]{16}\b/, 'an AWS access key'],
  [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/, 'a GitHub token'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bSK[0-9a-f]{32}\b/, 'a Twilio API key'],
];
const CREDENTIAL_FILES =
  /(?:^|\/)(?:\.npmrc|\.netrc|id_rsa|id_ed25519|secrets\.json|credentials\.json|managed-settings\.json|settings\.json)$|\.(?:pem|p12|pfx|key|keystore|jks|mobileprovision|provisionprofile)$/i;
/** Dev-only packages that must not be in the shipped node_modules (react is bundled into out/renderer). */
const DEV_ONLY = [
  'electron',
  'electron-builder',
  'electron-vite',
  'vite',
  'vitest',
  'typescript',
  'tsx',
  'eslint',
  '@playwright/test',
  'react',
  'react-dom',
  '@electron/fuses',
  '@electron/asar',
  'ajv',
];

async function inspect(appDir, config) {
  step(`inspecting ${path.relative(root, appDir) || appDir}`);
  const executable = path.join(appDir, config.linux?.executableName ?? 'card-payments-desk');
  if (expect(existsSync(executable), `the executable ${executable} is missing`)) {
    const wire = await getCurrentFuseWire(executable);
    for (const [name, on] of Object.entries(FUSES)) {
      expect(
        wire[FuseV1Options[name]] === (on ? FUSE_ON : FUSE_OFF),
        `fuse ${name} is not ${on ? 'on' : 'off'} in the packaged executable`,
      );
    }
    facts.push('fuses flipped');
  }

  const archive = path.join(appDir, 'resources', 'app.asar');
  if (!expect(existsSync(archive), 'resources/app.asar is missing')) return;
  const files = asar.listPackage(archive, { isPack: false }).map((file) => file.split(path.sep).join('/'));
  const isFile = (file) => {
    try {
      return !('files' in asar.statFile(archive, file.slice(1), false));
    } catch {
      return false;
    }
  };
  const regular = files.filter(isFile);
  const app = regular.filter((file) => !file.startsWith('/node_modules/'));

  // The app's built code, and nothing of its sources.
  for (const required of [
    '/package.json',
    '/out/main/index.js',
    '/out/preload/index.cjs',
    '/out/renderer/index.html',
  ]) {
    expect(regular.includes(required), `app.asar lacks ${required}`);
  }
  expect(
    app.some((file) => /^\/out\/renderer\/assets\/.+\.js$/.test(file)),
    'app.asar has no renderer script in out/renderer/assets/',
  );
  const packaged = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8'));
  expect(
    regular.includes(`/${path.posix.normalize(packaged.main ?? '')}`),
    `package.json's main (${packaged.main}) is not in app.asar`,
  );
  const outside = app.filter((file) => !file.startsWith('/out/') && file !== '/package.json');
  expect(outside.length === 0, `app.asar holds files besides out/ and package.json: ${outside.slice(0, 5).join(', ')}`);

  const tests = regular.filter(
    (file) =>
      /(?:^|\/)(?:test|tests|__tests__|e2e)\/|\.(?:test|spec|bench)\.[cm]?[jt]sx?$/.test(file) &&
      !file.startsWith('/node_modules/'),
  );
  expect(tests.length === 0, `app.asar holds tests: ${tests.slice(0, 5).join(', ')}`);
  const dependencyTests = regular.filter(
    (file) => file.startsWith('/node_modules/') && /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(file),
  );
  expect(dependencyTests.length === 0, `app.asar holds dependencies' tests: ${dependencyTests.slice(0, 5).join(', ')}`);
  const envFiles = files.filter((file) => /(?:^|\/)\.env(?:\..*)?$/.test(file));
  expect(envFiles.length === 0, `app.asar holds .env files: ${envFiles.join(', ')}`);
  const maps = files.filter((file) => file.endsWith('.map'));
  expect(
    maps.length === 0,
    `app.asar holds source maps: ${maps.slice(0, 5).join(', ')}${maps.length > 5 ? ` and ${maps.length - 5} more` : ''}`,
  );
  const credentialFiles = files.filter((file) => CREDENTIAL_FILES.test(file));
  expect(
    credentialFiles.length === 0,
    `app.asar holds files that look like credentials: ${credentialFiles.join(', ')}`,
  );
  const devOnly = DEV_ONLY.filter((name) => regular.includes(`/node_modules/${name}/package.json`));
  expect(devOnly.length === 0, `app.asar holds development packages: ${devOnly.join(', ')}`);

  // Every production dependency, transitively, where Node's resolution finds it in app.asar and at the version the
  // project's node_modules resolves to (electron-builder lays node_modules out anew; a missing one fails only at run time).
  const manifests = new Set(
    regular.filter((file) => file.startsWith('/node_modules/') && file.endsWith('/package.json')),
  );
  const versions = new Map();
  const packagedVersion = (dir) => {
    if (!manifests.has(`/${dir}/package.json`)) return undefined;
    if (!versions.has(dir))
      versions.set(dir, JSON.parse(asar.extractFile(archive, `${dir}/package.json`).toString('utf8')).version);
    return versions.get(dir);
  };
  const closure = dependencyClosureProblems({ root, packagedVersion });
  problems.push(...closure);
  if (closure.length === 0)
    facts.push(`every production dependency in app.asar (${versions.size} packages, each at its version)`);

  let scanned = 0;
  for (const file of regular) {
    const size = asar.statFile(archive, file.slice(1), false).size ?? 0;
    if (size > 8 * 1024 * 1024) continue;
    const text = asar.extractFile(archive, file.slice(1)).toString('latin1');
    scanned++;
    for (const [pattern, what] of CREDENTIALS) {
      const match = pattern.exec(text);
      if (match) problems.push(`${file} holds what looks like ${what} (${match[0].slice(0, 12)}…)`);
    }
  }
  // better-sqlite3's Electron build in resources/native/ (where main loads it); no native module in or beside app.asar:
  // the one in node_modules is Node's build, which Electron cannot load.
  expect(
    existsSync(path.join(appDir, 'resources', 'native', 'better_sqlite3.node')),
    "resources/native/better_sqlite3.node (better-sqlite3's Electron build) is missing",
  );
  const nativeInAsar = regular.filter((file) => file.endsWith('.node'));
  expect(
    nativeInAsar.length === 0,
    `app.asar holds native modules (built for Node, not Electron): ${nativeInAsar.join(', ')}`,
  );
  const unpacked = path.join(appDir, 'resources', 'app.asar.unpacked');
  expect(!existsSync(unpacked), `app.asar.unpacked exists: nothing is unpacked beside app.asar (${unpacked})`);
  expect(
    regular.includes('/node_modules/better-sqlite3/lib/index.js'),
    "app.asar lacks better-sqlite3's JavaScript (node_modules/better-sqlite3/lib)",
  );

  // The simulator: inside the main bundle (training mode starts it on 127.0.0.1), never as its own program.
  const main = asar.extractFile(archive, 'out/main/index.js').toString('utf8');
  expect(
    main.includes('/_sandbox') && main.includes('127.0.0.1'),
    'the simulator (training mode) is missing from out/main/index.js',
  );
  expect(
    !main.includes('processing-delay-ms'),
    "the simulator's command line (main/cli/sandbox.ts) is in the main bundle",
  );
  const otherMain = app.filter((file) => file.startsWith('/out/main/') && file !== '/out/main/index.js');
  expect(otherMain.length === 0, `out/main holds more than the main bundle: ${otherMain.join(', ')}`);
  const simulatorElsewhere = app.filter((file) => file !== '/out/main/index.js' && /sandbox|simulator/i.test(file));
  expect(simulatorElsewhere.length === 0, `simulator files outside the main bundle: ${simulatorElsewhere.join(', ')}`);

  const megabytes = (statSync(archive).size / 1024 / 1024).toFixed(1);
  facts.push(
    `app.asar ${regular.length} files ${megabytes} MB (${scanned} scanned)`,
    'no tests/.env/maps/credentials',
    'simulator only in the main bundle',
    'better-sqlite3 from resources/native',
  );
}

// --- Run --------------------------------------------------------------------------------------------------------
const work = mkdtempSync(path.join(tmpdir(), 'package-check-'));
try {
  if (buildApp()) {
    checkPreload();
    const { config, valid } = checkConfig();
    // electron-builder would refuse an invalid file too, with a long message: the schema's own errors say it better.
    const appDir = valid ? await packageDir(work) : undefined;
    if (appDir !== undefined) await inspect(appDir, config);
  }
} catch (error) {
  problems.push(`the check itself failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  if (args.has('--keep')) console.log(`\npackage-check: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error('');
  for (const problem of problems) console.error(`  ✗ ${problem}`);
  console.error(`package-check FAILED: ${problems.length} problem(s); first: ${problems[0]}`);
  process.exit(1);
}
console.log(`package-check ok: ${facts.join(', ')}`);
