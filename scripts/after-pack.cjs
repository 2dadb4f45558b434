// electron-builder's afterPack hook: flips Electron's fuses in the packaged executable, before it is signed.
// electron-builder runs afterPack after copying the app and before code signing, so the signature covers the flipped fuses.
'use strict';

const path = require('node:path');
const { flipFuses, getCurrentFuseWire, FuseVersion, FuseV1Options } = require('@electron/fuses');

// The byte values @electron/fuses writes into the fuse wire ('0' off, '1' on).
const FUSE_OFF = 0x30;
const FUSE_ON = 0x31;

/**
 * The app's fuses, each set explicitly (docs/IT.md, "Hardening", says why):
 * - RunAsNode off: ELECTRON_RUN_AS_NODE cannot turn the app into a plain Node.js that runs any script.
 * - EnableCookieEncryption on: cookies on disk are encrypted with the OS key store.
 * - EnableNodeOptionsEnvironmentVariable off: NODE_OPTIONS cannot inject code or flags.
 * - EnableNodeCliInspectArguments off: --inspect and friends cannot attach a debugger to the main process.
 * - EnableEmbeddedAsarIntegrityValidation on: app.asar must match the hash electron-builder embedded (macOS, Windows).
 * - OnlyLoadAppFromAsar on: the app is loaded from app.asar only, never from an app/ folder placed beside it.
 * - LoadBrowserProcessSpecificV8Snapshot off: not used by the app.
 * - GrantFileProtocolExtraPrivileges off: file:// gets no extra powers (the app is served from app://).
 */
const FUSES = Object.freeze({
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  LoadBrowserProcessSpecificV8Snapshot: false,
  GrantFileProtocolExtraPrivileges: false,
});

/** The configuration for @electron/fuses' flipFuses(). */
function fuseConfig({ resetAdHocDarwinSignature = false } = {}) {
  const config = { version: FuseVersion.V1, resetAdHocDarwinSignature };
  for (const [name, on] of Object.entries(FUSES)) {
    const index = FuseV1Options[name];
    if (typeof index !== 'number') throw new Error(`@electron/fuses does not know the fuse ${name}.`);
    config[index] = on;
  }
  return config;
}

/** The file holding the fuse wire inside a packaged app: the executable (Windows, Linux) or the .app bundle (macOS). */
function fusedBinaryPath({ appOutDir, electronPlatformName, packager }) {
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(appOutDir, `${packager.appInfo.productFilename}.app`);
    case 'win32':
      return path.join(appOutDir, `${packager.appInfo.productFilename}.exe`);
    default:
      return path.join(appOutDir, packager.executableName);
  }
}

/**
 * Reads the wire back and lists every fuse that is not as FUSES says (an empty list: all set).
 * A longer wire (fuses newer than @electron/fuses knows) is reported in `unknown`, left at Electron's default.
 */
async function checkFuses(binary) {
  const wire = await getCurrentFuseWire(binary);
  const wrong = [];
  for (const [name, on] of Object.entries(FUSES)) {
    const actual = wire[FuseV1Options[name]];
    if (actual !== (on ? FUSE_ON : FUSE_OFF)) wrong.push(`${name} should be ${on ? 'on' : 'off'}`);
  }
  const known = Object.keys(FUSES).length;
  const unknown = Object.keys(wire).filter((key) => key !== 'version' && Number(key) >= known).length;
  return { wrong, unknown };
}

/** The hook electron-builder calls (afterPack in electron-builder.yml). */
async function afterPack(context) {
  const binary = fusedBinaryPath(context);
  // An arm64 macOS binary whose bytes changed needs a fresh ad-hoc signature to start when the build is not signed afterwards.
  const arm64Mac = context.electronPlatformName === 'darwin' && context.arch === require('electron-builder').Arch.arm64;
  await flipFuses(binary, fuseConfig({ resetAdHocDarwinSignature: arm64Mac }));
  const { wrong, unknown } = await checkFuses(binary);
  if (wrong.length > 0) throw new Error(`The fuses of ${binary} were not flipped: ${wrong.join(', ')}.`);
  console.log(
    `  • fuses flipped  file=${path.relative(process.cwd(), binary)}` +
      (unknown > 0
        ? `  note=${unknown} newer fuse(s) left at Electron's default; update @electron/fuses and FUSES`
        : ''),
  );
}

module.exports = { afterPack, fuseConfig, fusedBinaryPath, checkFuses, FUSES, FUSE_ON, FUSE_OFF };
