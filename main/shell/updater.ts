/** The updater's Electron side: electron-updater's autoUpdater and what kind of install this is (main/index.ts owns the quit). */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { app } from 'electron';

import type { UpdatesSettings } from '../settings';
import { createUpdater, updateSupport, type AutoUpdaterLike, type Updater, type UpdateLogger } from '../updates';

export interface ElectronUpdaterOptions {
  /** The `updates` setting (undefined: no update server, updates off). */
  settings: UpdatesSettings | undefined;
  /** MainStack.paymentInProgress, possibly late-bound: it is asked only when an update is to be installed. */
  paymentInProgress: () => boolean;
  logger: UpdateLogger & { error(fields: object, message?: string): void };
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** electron-updater's own log lines go to the app's log (they hold versions, file names and IT's URL; never a secret). */
function loadAutoUpdater(logger: ElectronUpdaterOptions['logger']): AutoUpdaterLike {
  // A CommonJS package whose `autoUpdater` is a getter Node's ES-module loader does not see: require it.
  const { autoUpdater } = createRequire(import.meta.url)('electron-updater') as typeof import('electron-updater');
  const line = (message: unknown): { updater: string } => ({ updater: String(message).slice(0, 500) });
  autoUpdater.logger = {
    info: (message?: unknown) => logger.info(line(message)),
    warn: (message?: unknown) => logger.warn(line(message)),
    error: (message?: unknown) => logger.error(line(message)),
  };
  return autoUpdater;
}

/**
 * The app's updater; call `start()` once the window is up, and `beforeQuit()` when a quit is accepted (main/index.ts
 * does, while the stack can still say whether a payment is in progress: no update is installed then).
 */
export function createElectronUpdater(options: ElectronUpdaterOptions): Updater {
  const installDir = path.dirname(process.execPath);
  const unsupported = updateSupport({
    platform: process.platform,
    packaged: app.isPackaged,
    appUpdateConfig: app.isPackaged ? readOptional(path.join(process.resourcesPath, 'app-update.yml')) : undefined,
    // electron-builder's per-user NSIS installer leaves its uninstaller next to the executable; IT's MSI does not.
    nsisInstall: process.platform === 'win32' && existsSync(path.join(installDir, `Uninstall ${app.getName()}.exe`)),
  });
  const updater = createUpdater({
    settings: options.settings,
    unsupported,
    paymentInProgress: options.paymentInProgress,
    logger: options.logger,
    loadAutoUpdater: () => loadAutoUpdater(options.logger),
  });
  if (options.settings !== undefined && unsupported !== undefined) options.logger.info({ reason: unsupported }, 'updates are off on this desk');
  return updater;
}
