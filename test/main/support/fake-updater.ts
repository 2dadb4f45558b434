/**
 * electron-updater's autoUpdater (electron-updater 6.8.10: node_modules/electron-updater/out/) as the desk meets it, one
 * updater per platform, with what the OS installer then does. electron-updater cannot load without Electron: this stands
 * in for it, in main's launches (test/main/support/launch-main.ts) and in main/updates' unit tests.
 *
 * - 'darwin', MacUpdater (MacUpdater.js): at the end of a download, updateDownloaded() emits 'update-downloaded' and, when
 *   autoInstallOnAppQuit is true at that moment, calls Electron's native autoUpdater.checkForUpdates(): Squirrel.Mac fetches
 *   the update from electron-updater's local proxy and stages it (`squirrelStaged`). A staged update is applied when the app
 *   ends, whatever the desk was doing: "a successfully downloaded update will always be applied the next time the
 *   application starts" (Electron, docs/api/auto-updater.md, quitAndInstall and 'update-downloaded'); nextStart() plays
 *   that start. quitAndInstall() hands the update to Squirrel now when it is not staged yet (MacUpdater.quitAndInstall:
 *   nativeUpdater.checkForUpdates() when autoInstallOnAppQuit is false), then, once Squirrel has it,
 *   handleUpdateDownloaded(): the native quitAndInstall, which closes the windows and calls app.quit().
 * - 'win32', NsisUpdater (BaseUpdater.js, NsisUpdater.js): at the end of a download, executeDownload's done() emits
 *   'update-downloaded' and addQuitHandler() installs on the app's 'quit' (exit code 0) when autoInstallOnAppQuit is true
 *   then and still at the quit. quitAndInstall() logs, install() spawns the installer at once (NsisUpdater.doInstall:
 *   spawnLog, detached, `--updated /S --force-run`), and only then, on setImmediate, app.quit(). The installer started with
 *   `--updated` does not wait for the app: CHECK_APP_RUNNING (app-builder-lib 26.17.0,
 *   templates/nsis/include/allowOnlyOneInstallerInstance.nsh, _CHECK_APP_RUNNING) sleeps 300 ms, finds the app running,
 *   sleeps 1000 ms and kills it (KILL_PROCESS), about 1.3 s after its start. Here the kill comes `installerKillsAfterMs`
 *   after the start (50 ms by default: the same order of events, scaled down).
 */
import { EventEmitter } from 'node:events';

import type { FakeElectron } from './fake-electron';

export type FakeUpdaterPlatform = 'darwin' | 'win32';

/** What the OS installer did: the version it put in place, and how. */
export interface FakeInstall {
  version: string;
  by: 'squirrel-at-next-start' | 'nsis-installer';
}

export interface FakeAutoUpdaterOptions {
  /** Which of electron-updater's updaters plays (default 'darwin'). */
  platform?: FakeUpdaterPlatform;
  /** The Electron fake whose app quits and is killed (asked when needed: the fake is made before each launch's). */
  electron?: () => FakeElectron | undefined;
  /** 'win32': how long after its start the silent installer kills the app (real: about 1.3 s; default 50 ms, scaled). */
  installerKillsAfterMs?: number;
  /**
   * Called when the OS takes the update: Squirrel.Mac stages it ('staged'), the NSIS installer starts ('started') and kills
   * the app ('killed'); for a test to look at the disk at those moments.
   */
  onInstaller?: (moment: 'staged' | 'started' | 'killed') => void;
  /** 'darwin': Squirrel.Mac refuses the update when asked to fetch it (a signature of another team, a full disk). */
  squirrelFails?: string;
  /** 'darwin': Squirrel.Mac, asked to fetch the update, never answers (neither its 'update-downloaded' nor an 'error'). */
  squirrelSilent?: boolean;
}

export class FakeAutoUpdater extends EventEmitter {
  readonly platform: FakeUpdaterPlatform;
  // AppUpdater's constructor: autoDownload and autoInstallOnAppQuit are true until the app says otherwise.
  autoDownload = true;
  autoInstallOnAppQuit = true;
  // The opposite of what main wants, so that a test sees main set them (AppUpdater's own defaults are false).
  allowDowngrade = true;
  allowPrerelease = true;
  autoRunAppAfterInstall = true;
  /** electron-updater logs through it (main sets it); its calls are made where electron-updater makes them. */
  logger: { info(message?: unknown): void; warn(message?: unknown): void; error(message?: unknown): void } | undefined;
  readonly feeds: unknown[] = [];
  /** Each quitAndInstall() call, with its arguments. */
  readonly installs: { isSilent: boolean; isForceRunAfter: boolean }[] = [];
  checks = 0;
  /** What the server answers the next checkForUpdates(): a version (downloaded when autoDownload), nothing, or a failure. */
  answer: { kind: 'update'; version: string } | { kind: 'none' } | { kind: 'fail'; message: string } = { kind: 'none' };
  /** The downloaded, verified update (DownloadedUpdateHelper's file). */
  downloaded: string | undefined;
  /** 'darwin': the version Squirrel.Mac holds, to apply when the app ends (MacUpdater's squirrelDownloadedUpdate). */
  squirrelStaged: string | undefined;
  /** What the OS installers put in place. */
  readonly applied: FakeInstall[] = [];
  /** 'win32': the installer has killed the app. */
  killed = false;
  private readonly options: FakeAutoUpdaterOptions;
  private quitAndInstallCalled = false;
  private quitHandlerAdded = false;

  constructor(options: FakeAutoUpdaterOptions = {}) {
    super();
    this.options = options;
    this.platform = options.platform ?? 'darwin';
  }

  setFeedURL(feed: unknown): void {
    this.feeds.push(feed);
  }

  checkForUpdates(): Promise<unknown> {
    this.checks++;
    this.emit('checking-for-update');
    const answer = this.answer;
    if (answer.kind === 'fail') {
      const error = new Error(answer.message);
      this.emit('error', error);
      return Promise.reject(error);
    }
    if (answer.kind === 'none') {
      this.emit('update-not-available', { version: '1.2.3' });
      return Promise.resolve({ isUpdateAvailable: false });
    }
    this.emit('update-available', { version: answer.version });
    if (this.autoDownload) this.downloadEnds(answer.version);
    return Promise.resolve({ isUpdateAvailable: true });
  }

  /** The end of a download, as each updater handles it (see above). */
  downloadEnds(version: string): void {
    this.downloaded = version;
    this.emit('update-downloaded', { version });
    if (this.platform === 'darwin') {
      // MacUpdater.updateDownloaded: handed to Squirrel.Mac at once when autoInstallOnAppQuit is true.
      if (this.autoInstallOnAppQuit) this.squirrelFetches();
      return;
    }
    // BaseUpdater.addQuitHandler: only when autoInstallOnAppQuit is true as the download ends.
    if (this.quitHandlerAdded || !this.autoInstallOnAppQuit) return;
    this.quitHandlerAdded = true;
    this.electron().app.once('quit', () => {
      if (this.quitAndInstallCalled || !this.autoInstallOnAppQuit || this.electron().app.exitCode !== undefined) return;
      this.install(true, false);
    });
  }

  quitAndInstall(isSilent = false, isForceRunAfter = false): void {
    this.installs.push({ isSilent, isForceRunAfter });
    if (this.platform === 'darwin') {
      // MacUpdater.quitAndInstall ignores both arguments (autoRunAppAfterInstall decides).
      if (this.squirrelStaged !== undefined) {
        this.squirrelQuitsAndInstalls();
        return;
      }
      // Squirrel.Mac fetches from the local proxy (asynchronously), then handleUpdateDownloaded().
      setImmediate(() => {
        if (this.options.squirrelSilent === true) return;
        if (this.options.squirrelFails !== undefined) {
          this.emit('error', new Error(this.options.squirrelFails));
          return;
        }
        this.squirrelFetches();
        this.squirrelQuitsAndInstalls();
      });
      return;
    }
    // BaseUpdater.quitAndInstall: its first line logs (a logger that throws stops it there).
    this.logger?.info('Install on explicit quitAndInstall');
    if (this.install(isSilent, isSilent ? isForceRunAfter : this.autoRunAppAfterInstall)) {
      setImmediate(() => this.electron().app.quit());
    } else {
      this.quitAndInstallCalled = false;
    }
  }

  /** The next start of the app (macOS): Squirrel.Mac has applied what it staged; the version now running, if new. */
  nextStart(): string | undefined {
    const staged = this.squirrelStaged;
    if (staged === undefined) return undefined;
    this.squirrelStaged = undefined;
    this.applied.push({ version: staged, by: 'squirrel-at-next-start' });
    return staged;
  }

  private electron(): FakeElectron {
    const electron = this.options.electron?.();
    if (electron === undefined) throw new Error('this fake autoUpdater was given no Electron fake');
    return electron;
  }

  /** Squirrel.Mac has the update (the native 'update-downloaded'). */
  private squirrelFetches(): void {
    this.squirrelStaged = this.downloaded;
    this.options.electron?.()?.record(`squirrel staged ${this.downloaded ?? ''}`);
    this.options.onInstaller?.('staged');
  }

  /** MacUpdater.handleUpdateDownloaded with autoRunAppAfterInstall: the native quitAndInstall closes the windows and quits. */
  private squirrelQuitsAndInstalls(): void {
    this.electron().record('squirrel quitAndInstall');
    this.electron().app.quit();
  }

  /** BaseUpdater.install then NsisUpdater.doInstall: the installer spawned, detached; false when it is not. */
  private install(isSilent: boolean, isForceRunAfter: boolean): boolean {
    if (this.quitAndInstallCalled) {
      this.logger?.warn('install call ignored: quitAndInstallCalled is set to true');
      return false;
    }
    const version = this.downloaded;
    if (version === undefined) {
      this.emit('error', new Error("No update filepath provided, can't quit and install"));
      return false;
    }
    this.quitAndInstallCalled = true;
    this.logger?.info(`Install: isSilent: ${isSilent}, isForceRunAfter: ${isForceRunAfter}`);
    this.logger?.info(
      `Executing: installer.exe with args: --updated${isSilent ? ',/S' : ''}${isForceRunAfter ? ',--force-run' : ''}`,
    );
    const electron = this.electron();
    electron.record('installer started');
    this.applied.push({ version, by: 'nsis-installer' });
    this.options.onInstaller?.('started');
    // _CHECK_APP_RUNNING with --updated: the app is killed whether or not it has finished quitting.
    const kill = setTimeout(() => {
      electron.record('installer killed the app');
      this.killed = true;
      this.options.onInstaller?.('killed');
    }, this.options.installerKillsAfterMs ?? 50);
    kill.unref();
    return true;
  }
}
