// Electron's fuses as the packaging hook sets them: the settings, and @electron/fuses flipping them in a stand-in binary.
// The stand-in is a small file carrying Electron's fuse sentinel and wire (no Electron binary can be downloaded here):
// @electron/fuses finds and rewrites the wire by its sentinel, so it works on the stand-in exactly as on the real binary.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCurrentFuseWire, FuseV1Options, FuseVersion } from '@electron/fuses';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

interface PackContext {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: { executableName: string; appInfo: { productFilename: string } };
}
interface AfterPackHook {
  afterPack(context: PackContext): Promise<void>;
  fuseConfig(options?: { resetAdHocDarwinSignature?: boolean }): Record<string, unknown>;
  fusedBinaryPath(context: Omit<PackContext, 'arch'>): string;
  FUSES: Record<string, boolean>;
}
interface StandIn {
  standInExecutable: (options?: { extraFuses?: number }) => Buffer;
}

const require = createRequire(import.meta.url);
const hook = require('../../scripts/after-pack.cjs') as AfterPackHook;
const { standInExecutable } = require('../../scripts/package-stand-in.cjs') as StandIn;

const ON = 0x31;
const OFF = 0x30;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fuses-'));
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const context = (): PackContext => ({
  appOutDir: dir,
  electronPlatformName: 'linux',
  arch: 1,
  packager: { executableName: 'card-payments-desk', appInfo: { productFilename: 'Card Payments Desk' } },
});

describe('the fuse settings', () => {
  it('are the ones the app’s hardening needs, every fuse @electron/fuses knows set explicitly', () => {
    expect(hook.FUSES).toEqual({
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      LoadBrowserProcessSpecificV8Snapshot: false,
      GrantFileProtocolExtraPrivileges: false,
    });
    // A fuse added to @electron/fuses must be decided here, not left to Electron's default.
    const known = Object.keys(FuseV1Options).filter((key) => Number.isNaN(Number(key)));
    expect(Object.keys(hook.FUSES).sort()).toEqual(known.sort());
  });

  it('become a V1 fuse configuration keyed by wire position', () => {
    expect(hook.fuseConfig()).toEqual({
      version: FuseVersion.V1,
      resetAdHocDarwinSignature: false,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
    expect(hook.fuseConfig({ resetAdHocDarwinSignature: true })['resetAdHocDarwinSignature']).toBe(true);
  });

  it('are flipped in the executable of each platform', () => {
    const base = {
      appOutDir: '/out',
      packager: { executableName: 'card-payments-desk', appInfo: { productFilename: 'Card Payments Desk' } },
    };
    expect(hook.fusedBinaryPath({ ...base, electronPlatformName: 'linux' })).toBe('/out/card-payments-desk');
    expect(hook.fusedBinaryPath({ ...base, electronPlatformName: 'win32' })).toBe('/out/Card Payments Desk.exe');
    expect(hook.fusedBinaryPath({ ...base, electronPlatformName: 'darwin' })).toBe('/out/Card Payments Desk.app');
  });
});

describe('afterPack on a stand-in binary', () => {
  it("rewrites Electron's defaults to the app's settings, and nothing else in the file", async () => {
    const file = join(dir, 'card-payments-desk');
    const before = standInExecutable();
    writeFileSync(file, before);
    const defaults = await getCurrentFuseWire(file);
    expect(defaults[FuseV1Options.RunAsNode]).toBe(ON);
    expect(defaults[FuseV1Options.OnlyLoadAppFromAsar]).toBe(OFF);

    await hook.afterPack(context());

    const wire = await getCurrentFuseWire(file);
    expect(wire).toEqual({
      version: '1',
      [FuseV1Options.RunAsNode]: OFF,
      [FuseV1Options.EnableCookieEncryption]: ON,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: OFF,
      [FuseV1Options.EnableNodeCliInspectArguments]: OFF,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: ON,
      [FuseV1Options.OnlyLoadAppFromAsar]: ON,
      [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: OFF,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: OFF,
    });
    const after = readFileSync(file);
    expect(after.length).toBe(before.length);
    const changed = [...after].flatMap((byte, index) => (byte === before[index] ? [] : [index]));
    const wireStart = before.indexOf('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX') + 32 + 2;
    expect(changed.every((index) => index >= wireStart && index < wireStart + 8)).toBe(true);
    // Every fuse but LoadBrowserProcessSpecificV8Snapshot (off in both) changes.
    expect(changed).toHaveLength(7);
  });

  it('a binary with fuses newer than @electron/fuses knows: ours are set, the newer ones left, and the log says so', async () => {
    const file = join(dir, 'card-payments-desk');
    writeFileSync(file, standInExecutable({ extraFuses: 2 }));
    await hook.afterPack(context());
    const wire: Record<number, unknown> = await getCurrentFuseWire(file);
    expect(wire[FuseV1Options.RunAsNode]).toBe(OFF);
    expect(wire[8]).toBe(OFF);
    expect(wire[9]).toBe(OFF);
    expect(vi.mocked(console.log).mock.calls.join('\n')).toMatch(/2 newer fuse\(s\) left at Electron's default/);
  });

  it('fails the build when the file is not an Electron binary (no fuse wire)', async () => {
    writeFileSync(join(dir, 'card-payments-desk'), '#!/bin/sh\nexit 0\n');
    await expect(hook.afterPack(context())).rejects.toThrow(/Could not find sentinel/);
  });
});
