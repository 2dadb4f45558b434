// Where the Electron tests look for a binary: the electron package's own rules, without the download it would start.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { electronSkipReason, findElectronBinary, missingDisplay } from './electron-binary';

let root: string;
let packageDir: string;

/** A stand-in executable (the tests only look at the file, never run it). */
async function fakeBinary(file: string, mode = 0o755): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, mode);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'electron-binary-'));
  packageDir = path.join(root, 'node_modules/electron');
  await mkdir(packageDir, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findElectronBinary', () => {
  it('finds the downloaded binary that path.txt names', async () => {
    await writeFile(path.join(packageDir, 'path.txt'), 'electron');
    await fakeBinary(path.join(packageDir, 'dist/electron'));
    expect(findElectronBinary({ env: {}, platform: 'linux', packageDir })).toEqual({
      available: true,
      executablePath: path.join(packageDir, 'dist/electron'),
    });
  });

  it('reports a package installed with ELECTRON_SKIP_BINARY_DOWNLOAD (no path.txt) as having no binary', () => {
    const found = findElectronBinary({ env: {}, platform: 'linux', packageDir });
    expect(found).toMatchObject({ available: false });
    expect(found.available ? '' : found.reason).toMatch(
      /^no Electron binary \(node_modules\/electron\/dist\/electron was never downloaded\); install electron normally/,
    );
  });

  it('reports a path.txt whose binary is gone as having no binary', async () => {
    await writeFile(path.join(packageDir, 'path.txt'), 'electron');
    expect(findElectronBinary({ env: {}, platform: 'linux', packageDir })).toMatchObject({ available: false });
  });

  it.skipIf(process.platform === 'win32')('does not take a binary that cannot be executed', async () => {
    await writeFile(path.join(packageDir, 'path.txt'), 'electron');
    await fakeBinary(path.join(packageDir, 'dist/electron'), 0o644);
    expect(findElectronBinary({ env: {}, platform: 'linux', packageDir })).toMatchObject({ available: false });
  });

  it('uses ELECTRON_OVERRIDE_DIST_PATH first, with the name path.txt gives', async () => {
    await writeFile(path.join(packageDir, 'path.txt'), 'Electron.app/Contents/MacOS/Electron');
    await fakeBinary(path.join(packageDir, 'dist/Electron.app/Contents/MacOS/Electron'));
    const override = path.join(root, 'electron-dist');
    await fakeBinary(path.join(override, 'Electron.app/Contents/MacOS/Electron'));
    expect(
      findElectronBinary({ env: { ELECTRON_OVERRIDE_DIST_PATH: override }, platform: 'darwin', packageDir }),
    ).toEqual({
      available: true,
      executablePath: path.join(override, 'Electron.app/Contents/MacOS/Electron'),
    });
  });

  it('uses ELECTRON_OVERRIDE_DIST_PATH/electron when the package never wrote path.txt', async () => {
    const override = path.join(root, 'electron-dist');
    await fakeBinary(path.join(override, 'electron'));
    expect(
      findElectronBinary({ env: { ELECTRON_OVERRIDE_DIST_PATH: override }, platform: 'linux', packageDir }),
    ).toEqual({
      available: true,
      executablePath: path.join(override, 'electron'),
    });
  });

  it('names the folder when ELECTRON_OVERRIDE_DIST_PATH holds no binary, and does not fall back to another', async () => {
    await writeFile(path.join(packageDir, 'path.txt'), 'electron');
    await fakeBinary(path.join(packageDir, 'dist/electron'));
    const override = path.join(root, 'empty');
    const found = findElectronBinary({ env: { ELECTRON_OVERRIDE_DIST_PATH: override }, platform: 'linux', packageDir });
    expect(found).toMatchObject({ available: false });
    expect(found.available ? '' : found.reason).toContain(path.join(override, 'electron'));
  });
});

describe('electronSkipReason', () => {
  it('asks for a display on Linux only, X11 or Wayland', () => {
    expect(missingDisplay({ env: {}, platform: 'linux' })).toMatch(/xvfb-run/);
    expect(missingDisplay({ env: { DISPLAY: ':99' }, platform: 'linux' })).toBeUndefined();
    expect(missingDisplay({ env: { WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux' })).toBeUndefined();
    expect(missingDisplay({ env: {}, platform: 'darwin' })).toBeUndefined();
  });

  it('is undefined only when there is a binary and a display', async () => {
    await writeFile(path.join(packageDir, 'path.txt'), 'electron');
    expect(electronSkipReason({ env: { DISPLAY: ':0' }, platform: 'linux', packageDir })).toMatch(
      /^no Electron binary/,
    );
    await fakeBinary(path.join(packageDir, 'dist/electron'));
    expect(electronSkipReason({ env: {}, platform: 'linux', packageDir })).toMatch(/^no display/);
    expect(electronSkipReason({ env: { DISPLAY: ':0' }, platform: 'linux', packageDir })).toBeUndefined();
  });
});
