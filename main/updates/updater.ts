/**
 * The auto-update, without Electron: electron-updater's autoUpdater is passed in (a fake in tests).
 * It looks for updates on IT's server, downloads them in the background, and installs one only when
 * no payment is in progress: when the agent restarts at the end of a call, or when the app quits.
 */
import type { UpdateStatus } from '../../shared/ipc';
import type { UpdatesSettings } from '../settings/schema';
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
  on(event: 'update-available' | 'update-not-available' | 'update-downloaded', listener: (info: UpdateInfoLike) => void): unknown;
  on(event: 'error', listener: (error: Error, message?: string) => void): unknown;
}

export interface UpdateLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
}

export interface UpdaterOptions {
  /** The `updates` setting; undefined: IT set no update server, so the app never looks for updates. */
  settings: UpdatesSettings | undefined;
  /** Why this desk cannot update itself (see updateSupport), or undefined when it can. */
  unsupported?: string | undefined;
  /** electron-updater's autoUpdater, asked for only when updates are enabled (creating it on Linux would probe the package type). */
  loadAutoUpdater: () => AutoUpdaterLike;
  /** True while any payment of this desk is not yet settled or an operation is pending (MainStack.paymentInProgress). */
  paymentInProgress: () => boolean;
  logger?: UpdateLogger;
  /** How long after start the first look happens (default 1 minute: the desk is busy starting). */
  firstCheckDelayMs?: number;
  /** How often to look again (default 4 hours). */
  checkIntervalMs?: number;
}

export interface Updater {
  /** Where the update stands; `blockedBy` is worked out at each call, from the payments of this moment. */
  status(): UpdateStatus;
  /** Installs the ready update now (the app quits and starts again). Refused (UpdateError) while a payment is in progress. */
  restart(): void;
  /** Called with the new status at each change; returns the unsubscribe function. */
  onChange(listener: (status: UpdateStatus) => void): () => void;
  /** Starts the periodic looks (nothing happens when updates are disabled). */
  start(): void;
  /** One look now; resolves when electron-updater has answered (errors become the 'error' state). */
  checkNow(): Promise<void>;
  /**
   * The app is quitting: a downloaded update is installed on the way out only if no payment is in progress
   * (Windows; on macOS the system applies a downloaded update when the app next starts).
   */
  beforeQuit(): void;
  /** Stops the periodic looks. */
  stop(): void;
}

const MINUTE = 60_000;

/** IT's folder for a channel: `<url>/stable` or `<url>/pilot` (one set of electron-builder's update files in each). */
export function channelFeedUrl(settings: UpdatesSettings): string {
  return `${settings.url.replace(/\/+$/, '')}/${settings.channel}`;
}

export function createUpdater(options: UpdaterOptions): Updater {
  const { settings, paymentInProgress, logger } = options;
  const listeners = new Set<(status: UpdateStatus) => void>();
  const disabledReason = settings === undefined ? 'IT has set no update server (the "updates" setting).' : options.unsupported;
  let state: Omit<UpdateStatus, 'blockedBy'> =
    disabledReason === undefined ? { state: 'idle', channel: settings?.channel ?? 'stable' } : { state: 'disabled', message: disabledReason };
  let firstTimer: NodeJS.Timeout | undefined;
  let interval: NodeJS.Timeout | undefined;

  const status = (): UpdateStatus => (state.state === 'ready' && paymentInProgress() ? { ...state, blockedBy: 'payment_in_progress' } : { ...state });
  const set = (next: Omit<UpdateStatus, 'blockedBy' | 'channel'>): void => {
    state = settings === undefined ? next : { ...next, channel: settings.channel };
    const current = status();
    for (const listener of listeners) listener(current);
  };

  let loaded: AutoUpdaterLike | undefined;
  if (settings !== undefined && disabledReason === undefined) {
    const autoUpdater = options.loadAutoUpdater();
    loaded = autoUpdater;
    const feed: GenericFeed = { provider: 'generic', url: channelFeedUrl(settings), channel: 'latest' };
    autoUpdater.setFeedURL(feed);
    autoUpdater.autoDownload = true;
    // A downloaded update is installed on a clean quit (electron-updater sets up its quit handler only when this
    // is true as the download ends); beforeQuit() turns it off when a payment is in progress at that moment.
    autoUpdater.autoInstallOnAppQuit = true;
    // A desk moved from pilot back to stable keeps its newer pilot build until stable catches up: the data files only migrate forward.
    autoUpdater.allowDowngrade = false;
    autoUpdater.allowPrerelease = false;

    autoUpdater.on('checking-for-update', () => {
      if (state.state !== 'ready' && state.state !== 'downloading') set({ state: 'checking' });
    });
    autoUpdater.on('update-available', (info) => {
      logger?.info({ version: info.version, channel: settings.channel }, 'update found, downloading');
      set({ state: 'downloading', version: info.version });
    });
    autoUpdater.on('update-not-available', () => {
      if (state.state !== 'ready') set({ state: 'idle' });
    });
    autoUpdater.on('update-downloaded', (info) => {
      logger?.info({ version: info.version, channel: settings.channel }, 'update downloaded and verified, waiting for a restart');
      set({ state: 'ready', version: info.version });
    });
    autoUpdater.on('error', (error) => {
      // Only the message: no stack, no response body. The URL is IT's and not a secret.
      logger?.warn({ error: error.message.slice(0, 500) }, 'update failed');
      if (state.state !== 'ready') set({ state: 'error', message: 'The update could not be checked or downloaded; the app tries again later.' });
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
        logger?.warn({ error: error instanceof Error ? error.message.slice(0, 500) : 'unknown' }, 'update check failed');
        set({ state: 'error', message: 'The update could not be checked or downloaded; the app tries again later.' });
      }
    }
  }

  return {
    status,
    restart() {
      if (loaded === undefined || state.state !== 'ready') throw new UpdateError('not_ready', 'No update is ready to install yet.');
      if (paymentInProgress()) {
        throw new UpdateError(
          'payment_in_progress',
          'A payment is still in progress. Restart to install the update once it has its result, at the end of the call.',
        );
      }
      logger?.info({ version: state.version }, 'restarting to install the update');
      // Silent (no installer windows on Windows), and the app starts again afterwards.
      loaded.quitAndInstall(true, true);
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
    beforeQuit() {
      if (loaded === undefined) return;
      let install: boolean;
      try {
        install = !paymentInProgress();
      } catch (error) {
        // The stack could not tell (closing already?): on the safe side, nothing is installed now.
        logger?.warn({ error: error instanceof Error ? error.message : 'unknown' }, 'could not tell whether a payment is in progress');
        install = false;
      }
      loaded.autoInstallOnAppQuit = install;
      if (state.state === 'ready') logger?.info({ version: state.version, install }, install ? 'installing the update on quit' : 'update left for later: a payment is in progress');
    },
    stop() {
      clearTimeout(firstTimer);
      clearInterval(interval);
      firstTimer = undefined;
      interval = undefined;
    },
  };
}
