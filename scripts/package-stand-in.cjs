// A stand-in for Electron's Linux distribution, for packaging checks on machines that cannot download Electron:
// a folder electron-builder takes as `electronDist`, whose `electron` file carries a real fuse wire but cannot run.
'use strict';

const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

/** The marker @electron/fuses looks for in an Electron binary; the fuse wire follows it. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * Electron's own fuse settings, in wire order ('1' on, '0' off): RunAsNode on, EnableCookieEncryption off,
 * EnableNodeOptionsEnvironmentVariable on, EnableNodeCliInspectArguments on,
 * EnableEmbeddedAsarIntegrityValidation off, OnlyLoadAppFromAsar off, LoadBrowserProcessSpecificV8Snapshot off,
 * GrantFileProtocolExtraPrivileges on.
 */
const ELECTRON_DEFAULT_WIRE = '10110001';

/**
 * The stand-in executable: a shell script that says what it is and fails, followed by the fuse sentinel,
 * the wire version (1), the wire length and the wire, as in a real Electron binary.
 * `extraFuses` appends fuses newer than @electron/fuses knows (left '0').
 */
function standInExecutable({ extraFuses = 0 } = {}) {
  const wire = ELECTRON_DEFAULT_WIRE + '0'.repeat(extraFuses);
  return Buffer.concat([
    Buffer.from(
      '#!/bin/sh\necho "This is a stand-in for the Electron binary, used to check packaging; it cannot run." >&2\nexit 1\n# ',
    ),
    Buffer.from(FUSE_SENTINEL, 'ascii'),
    Buffer.from([1, wire.length]),
    Buffer.from(wire, 'ascii'),
    Buffer.from('\n'),
  ]);
}

/** Writes the stand-in distribution (what electron-builder's Linux `dir` target needs of one) into `dir`. */
function writeStandInElectronDist(dir, version) {
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  mkdirSync(path.join(dir, 'locales'), { recursive: true });
  writeFileSync(path.join(dir, 'electron'), standInExecutable(), { mode: 0o755 });
  writeFileSync(path.join(dir, 'version'), version);
  writeFileSync(
    path.join(dir, 'LICENSE'),
    'Stand-in for the Electron distribution (MIT-licensed Electron is not downloaded here).\n',
  );
  writeFileSync(path.join(dir, 'locales', 'en-US.pak'), '');
  writeFileSync(path.join(dir, 'locales', 'es-419.pak'), '');
  return dir;
}

module.exports = { FUSE_SENTINEL, ELECTRON_DEFAULT_WIRE, standInExecutable, writeStandInElectronDist };
