/**
 * Whether a real Electron can be launched here, decided without loading the `electron` package: its index.js
 * starts a download when the binary is missing, which would hang or fail a test run on an offline machine.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type ElectronBinary = { available: true; executablePath: string } | { available: false; reason: string };

/** The binary's path inside Electron's dist folder, as node_modules/electron/install.js names it. */
function platformPath(platform: NodeJS.Platform): string | undefined {
  switch (platform) {
    case 'darwin':
      return 'Electron.app/Contents/MacOS/Electron';
    case 'win32':
      return 'electron.exe';
    case 'linux':
    case 'freebsd':
    case 'openbsd':
      return 'electron';
    default:
      return undefined;
  }
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const HOW_TO_GET_ONE =
  'install electron normally (with its binary) or set ELECTRON_OVERRIDE_DIST_PATH to a folder holding it';

export interface Place {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The electron package's folder; found through Node's resolution unless given (tests give a fake one). */
  packageDir?: string;
}

function electronPackageDir(): string | undefined {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return undefined;
  }
}

/**
 * The same resolution as the electron package's index.js (which Playwright's _electron.launch uses when no
 * executablePath is given): ELECTRON_OVERRIDE_DIST_PATH first, else node_modules/electron/dist/<path.txt>;
 * only the download it would start is left out.
 */
export function findElectronBinary({
  env = process.env,
  platform = process.platform,
  packageDir = electronPackageDir(),
}: Place = {}): ElectronBinary {
  if (packageDir === undefined)
    return { available: false, reason: `the electron package is not installed; ${HOW_TO_GET_ONE}` };
  let recorded: string | undefined;
  try {
    recorded = readFileSync(path.join(packageDir, 'path.txt'), 'utf8');
  } catch {
    recorded = undefined;
  }

  const overrideDir = env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (overrideDir !== undefined && overrideDir !== '') {
    const candidate = path.join(overrideDir, recorded ?? 'electron');
    return isExecutableFile(candidate)
      ? { available: true, executablePath: candidate }
      : {
          available: false,
          reason: `ELECTRON_OVERRIDE_DIST_PATH is set, but ${candidate} is not an executable file; ${HOW_TO_GET_ONE}`,
        };
  }
  if (recorded === undefined) {
    const expected = platformPath(platform) ?? 'electron';
    return {
      available: false,
      reason: `no Electron binary (node_modules/electron/dist/${expected} was never downloaded); ${HOW_TO_GET_ONE}`,
    };
  }
  const candidate = path.join(packageDir, 'dist', recorded);
  return isExecutableFile(candidate)
    ? { available: true, executablePath: candidate }
    : { available: false, reason: `no Electron binary (${candidate} is missing or not executable); ${HOW_TO_GET_ONE}` };
}

/** Linux needs a display server for a window; headless machines run the tests under xvfb-run. */
export function missingDisplay({ env = process.env, platform = process.platform }: Place = {}): string | undefined {
  if (platform !== 'linux') return undefined;
  const display = env['DISPLAY'] ?? '';
  const wayland = env['WAYLAND_DISPLAY'] ?? '';
  return display === '' && wayland === ''
    ? 'no display (DISPLAY and WAYLAND_DISPLAY are unset; run the tests under xvfb-run)'
    : undefined;
}

/** Why the Electron tests cannot run here, or undefined when they can. */
export function electronSkipReason(place: Place = {}): string | undefined {
  const binary = findElectronBinary(place);
  if (!binary.available) return binary.reason;
  return missingDisplay(place);
}

let announced = false;

/**
 * Prints, once per process, why the Electron tests are skipped: Playwright's list reporter shows a skipped test's
 * title but not its reason, and a skip nobody notices is a silent skip.
 */
export function announceSkip(reason: string): void {
  if (announced) return;
  announced = true;
  console.log(`Electron tests skipped: ${reason}.`);
}
