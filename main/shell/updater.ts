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
  /** Main's bounded full shutdown (window, stack, database connections, logs): done before the OS installer is started. */
  prepareInstall: () => Promise<void>;
  logger: UpdateLogger & { error(fields: object, message?: string): void };
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * electron-updater's own log lines go to the app's log (they hold versions, file names and IT's URL; never a secret). They
 * never throw: BaseUpdater.quitAndInstall logs before it spawns the installer, when main's shutdown has closed the log file
 * (pino then throws "SonicBoom destroyed"), and a throw there would leave the desk shut down with nothing installed.
 */
function loadAutoUpdater(logger: ElectronUpdaterOptions['logger']): AutoUpdaterLike {
  // A CommonJS package whose `autoUpdater` is a getter Node's ES-module loader does not see: require it.
  const { autoUpdater } = createRequire(import.meta.url)('electron-updater') as typeof import('electron-updater');
  const write = (level: 'info' | 'warn' | 'error', message: unknown): void => {
    try {
      logger[level]({ updater: String(message).slice(0, 500) });
    } catch {
      // The log file is closed: the line is lost.
    }
  };
  autoUpdater.logger = {
    info: (message?: unknown) => write('info', message),
    warn: (message?: unknown) => write('warn', message),
    error: (message?: unknown) => write('error', message),
  };
  return autoUpdater;
}

/**
 * The app's updater; call `start()` once the window is up. An update is installed only by `restart()` (the agent's
 * "restart to update", refused during a payment), after `prepareInstall`; a plain quit never installs one.
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
    prepareInstall: options.prepareInstall,
    // The OS installer did not take the update after the shutdown: the app ends (the old version starts next time, and
    // downloads the update again). Main's will-quit lets it through once prepareInstall has run.
    installFailed: () => app.quit(),
    logger: options.logger,
    loadAutoUpdater: () => loadAutoUpdater(options.logger),
  });
  if (options.settings !== undefined && unsupported !== undefined)
    options.logger.info({ reason: unsupported }, 'updates are off on this desk');
  return updater;
}
