/**
 * The auto-update, without Electron: electron-updater's autoUpdater is passed in (a fake in tests).
 * It looks for updates on IT's server and downloads them in the background. One is handed to the OS installer only when
 * the agent chooses to restart to update and the desk is idle, after main's full shutdown; never on a plain quit.
 */
import type { UpdateStatus } from '../../shared/ipc';
import type { LevelLogger } from '../logging';
import type { UpdatesSettings } from '../settings';
import { UpdateError } from './errors';

/** The generic-provider feed electron-updater reads `latest.yml` (`latest-mac.yml`, `latest-linux.yml`) from. */
export interface GenericFeed {
  provider: 'generic';
  url: string;
  channel: 'latest';
}

/** What electron-updater hands to listeners (its UpdateInfo, reduced to what is used). */
export interface UpdateInfoLike {
  version: string;
}

/** The part of electron-updater's AppUpdater this module uses; the Electron side passes the real `autoUpdater`. */
export interface AutoUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  allowPrerelease: boolean;
  setFeedURL(options: GenericFeed): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(
    event: 'update-available' | 'update-not-available' | 'update-downloaded',
    listener: (info: UpdateInfoLike) => void,
  ): unknown;
  on(event: 'error', listener: (error: Error, message?: string) => void): unknown;
}

export type UpdateLogger = LevelLogger<'info' | 'warn'>;

export interface UpdaterOptions {
  /** The `updates` setting; undefined: IT set no update server, so the app never looks for updates. */
  settings: UpdatesSettings | undefined;
  /** Why this desk cannot update itself (see updateSupport), or undefined when it can. */
  unsupported?: string | undefined;
  /** electron-updater's autoUpdater, asked for only when updates are enabled (creating it on Linux would probe the package type). */
  loadAutoUpdater: () => AutoUpdaterLike;
  /** True while any payment of this desk is not yet settled or an operation is pending (MainStack.paymentInProgress). */
  paymentInProgress: () => boolean;
  /**
   * Main's bounded full shutdown before an install (the window, the stack, the database connections, the logs): called in the
   * same tick as restart()'s checks, and the installer is started only once it has settled.
   */
  prepareInstall: () => Promise<void>;
  /** The install could not be handed to the OS installer after the shutdown (the app must end anyway: nothing is left running). */
  installFailed?: () => void;
  logger?: UpdateLogger;
  /** How long after start the first look happens (default 1 minute: the desk is busy starting). */
  firstCheckDelayMs?: number;
  /** How often to look again (default 4 hours). */
  checkIntervalMs?: number;
}

export interface Updater {
  /** Where the update stands; `blockedBy` is worked out at each call, from the payments of this moment. */
  status(): UpdateStatus;
  /**
   * Installs the ready update: main's shutdown, then the OS installer (the app quits and starts again). Returns at once;
   * refused (UpdateError) with nothing ready or while a payment is in progress; a second call while one is under way does nothing.
   */
  restart(): void;
  /** Called with the new status at each change; returns the unsubscribe function. */
  onChange(listener: (status: UpdateStatus) => void): () => void;
  /** Starts the periodic looks (nothing happens when updates are disabled). */
  start(): void;
  /** One look now; resolves when electron-updater has answered (errors become the 'error' state). */
  checkNow(): Promise<void>;
  /** Stops the periodic looks. */
  stop(): void;
}

const MINUTE = 60_000;

/**
 * How long the OS installer may take, once handed the update, to end the app (NSIS kills it about a second after it
 * starts; Squirrel.Mac quits it once it holds the update). Past it the app ends anyway: the desk is shut down already.
 */
export const INSTALL_DEADLINE_MS = 2 * MINUTE;

/** IT's folder for a channel: `<url>/stable` or `<url>/pilot` (one set of electron-builder's update files in each). */
export function channelFeedUrl(settings: UpdatesSettings): string {
  return `${settings.url.replace(/\/+$/, '')}/${settings.channel}`;
}

/** A logger that never throws: after main's shutdown the app's logs are closed, and nothing may stop the install then. */
function quiet(logger: UpdateLogger | undefined): UpdateLogger {
  const call = (level: 'info' | 'warn', fields: object, message?: string): void => {
    try {
      logger?.[level](fields, message);
    } catch {
      // The log file is closed (or failing): the line is lost, the update goes on.
    }
  };
  return {
    info: (fields, message) => call('info', fields, message),
    warn: (fields, message) => call('warn', fields, message),
  };
}

export function createUpdater(options: UpdaterOptions): Updater {
  const { settings, paymentInProgress } = options;
  const logger = quiet(options.logger);
  const listeners = new Set<(status: UpdateStatus) => void>();
  const disabledReason =
    settings === undefined ? 'IT has set no update server (the "updates" setting).' : options.unsupported;
  let state: Omit<UpdateStatus, 'blockedBy'> =
    disabledReason === undefined
      ? { state: 'idle', channel: settings?.channel ?? 'stable' }
      : { state: 'disabled', message: disabledReason };
  let firstTimer: NodeJS.Timeout | undefined;
  let interval: NodeJS.Timeout | undefined;
  /** A restart to update is under way (shutdown, then the installer): there is only ever one. */
  let installing = false;
  /** The install was said to have failed (the app is ending): once. */
  let installEnded = false;
  const failInstall = (): void => {
    if (installEnded) return;
    installEnded = true;
    options.installFailed?.();
  };

  const status = (): UpdateStatus =>
    state.state === 'ready' && paymentInProgress() ? { ...state, blockedBy: 'payment_in_progress' } : { ...state };
  const set = (next: Omit<UpdateStatus, 'blockedBy' | 'channel'>): void => {
    state = settings === undefined ? next : { ...next, channel: settings.channel };
    const current = status();
    for (const listener of listeners) listener(current);
  };

  let loaded: AutoUpdaterLike | undefined;
  if (settings !== undefined && disabledReason === undefined) {
    const autoUpdater = options.loadAutoUpdater();
    // Off before anything else, and never on: with it, electron-updater installs without asking the desk. MacUpdater.updateDownloaded
    // hands a download to Squirrel.Mac at once, which applies it when the app ends, in the middle of a payment or not;
    // BaseUpdater.addQuitHandler (Windows) runs the installer on any quit. Only restart() installs, through quitAndInstall.
    autoUpdater.autoInstallOnAppQuit = false;
    loaded = autoUpdater;
    const feed: GenericFeed = { provider: 'generic', url: channelFeedUrl(settings), channel: 'latest' };
    autoUpdater.setFeedURL(feed);
    autoUpdater.autoDownload = true;
    // A desk moved from pilot back to stable keeps its newer pilot build until stable catches up: the data files only migrate forward.
    autoUpdater.allowDowngrade = false;
    autoUpdater.allowPrerelease = false;

    autoUpdater.on('checking-for-update', () => {
      if (state.state !== 'ready' && state.state !== 'downloading') set({ state: 'checking' });
    });
    autoUpdater.on('update-available', (info) => {
      logger.info({ version: info.version, channel: settings.channel }, 'update found, downloading');
      set({ state: 'downloading', version: info.version });
    });
    autoUpdater.on('update-not-available', () => {
      if (state.state !== 'ready') set({ state: 'idle' });
    });
    autoUpdater.on('update-downloaded', (info) => {
      logger.info(
        { version: info.version, channel: settings.channel },
        'update downloaded and verified, waiting for a restart',
      );
      set({ state: 'ready', version: info.version });
    });
    autoUpdater.on('error', (error) => {
      // Only the message: no stack, no response body. The URL is IT's and not a secret.
      logger.warn({ error: error.message.slice(0, 500) }, 'update failed');
      // The desk is shut down already: the OS installer did not take the update (Squirrel.Mac refused it), the app ends.
      if (installing) {
        failInstall();
        return;
      }
      if (state.state !== 'ready')
        set({ state: 'error', message: 'The update could not be checked or downloaded; the app tries again later.' });
    });
  }

  async function checkNow(): Promise<void> {
    // Once an update is ready nothing more is fetched: the one to install stays the one that was verified.
    if (loaded === undefined || state.state === 'ready') return;
    try {
      await loaded.checkForUpdates();
    } catch (error) {
      // electron-updater has already reported it through its 'error' event; make sure the state says so.
      if (state.state !== 'error') {
        logger.warn({ error: error instanceof Error ? error.message.slice(0, 500) : 'unknown' }, 'update check failed');
        set({ state: 'error', message: 'The update could not be checked or downloaded; the app tries again later.' });
      }
    }
  }

  return {
    status,
    restart() {
      // Already under way: the app is shutting down to install; never a second shutdown nor a second installer.
      if (installing) return;
      if (loaded === undefined || state.state !== 'ready') throw new UpdateError('not_ready');
      if (paymentInProgress()) throw new UpdateError('payment_in_progress');
      const autoUpdater = loaded;
      installing = true;
      logger.info({ version: state.version }, 'restarting to install the update: shutting down first');
      // In this same tick, nothing awaited before it: main marks itself closing, so no other call slips in between.
      let shutdown: Promise<void>;
      try {
        shutdown = options.prepareInstall();
      } catch (error) {
        shutdown = Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      void shutdown
        .catch((error: unknown) => {
          // The shutdown has its own deadline: what it could not close is said, and the install goes on.
          logger.warn(
            { error: error instanceof Error ? error.message.slice(0, 500) : 'unknown' },
            'the shutdown before the update did not end cleanly',
          );
        })
        .then(() => {
          // Silent (no installer windows on Windows), and the app starts again afterwards. macOS: MacUpdater.quitAndInstall
          // hands the download to Squirrel.Mac now (autoInstallOnAppQuit is off, so it was not handed before), then quits;
          // Windows: BaseUpdater.quitAndInstall spawns the NSIS installer, then app.quit().
          autoUpdater.quitAndInstall(true, true);
          // The installer ends the app; one that neither does nor reports an error must not leave the shut-down desk running
          // (hidden, holding the single-instance lock a second launch then cannot get past).
          const deadline = setTimeout(() => {
            logger.warn({ deadlineMs: INSTALL_DEADLINE_MS }, 'the OS installer did not end the app in time: ending it');
            failInstall();
          }, INSTALL_DEADLINE_MS);
          deadline.unref?.();
        })
        .catch(() => {
          // quitAndInstall threw: nothing was installed, and the desk is shut down already.
          failInstall();
        });
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      if (state.state === 'disabled' || firstTimer !== undefined || interval !== undefined) return;
      firstTimer = setTimeout(() => {
        firstTimer = undefined;
        void checkNow();
        interval = setInterval(() => void checkNow(), options.checkIntervalMs ?? 240 * MINUTE);
        interval.unref();
      }, options.firstCheckDelayMs ?? MINUTE);
      firstTimer.unref();
    },
    checkNow,
    stop() {
      clearTimeout(firstTimer);
      clearInterval(interval);
      firstTimer = undefined;
      interval = undefined;
    },
  };
}
