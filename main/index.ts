// Main process: owns the window, the secrets and every call to the payment service; the renderer never sees them.
// The composition root: it wires settings, secrets, logs, the stack, the IPC door, the window and the updater, and
// decides nothing itself. test/main/index.test.ts runs this file under Node with Electron's modules faked.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { app, BrowserWindow, dialog, powerMonitor, safeStorage, session, type MessageBoxOptions } from 'electron';

import type { Language } from '../shared/language';
import { createMainStack, createStartup, type MainStack } from './app';
import { centerConnection } from './center';
import { centerStorage } from './storage';
import { connectIpc } from './ipc/electron';
import { publish, type PreferencesPort } from './ipc';
import { createLogger, type AppLogger } from './logging';
import { EncryptedSecretStore, unreadableSecrets } from './secrets';
import { languagePreference, loadSettings, managedSettingsPath, toServiceSettings } from './settings';
import { isCommandLineLaunch, runCommandLine } from './cli/desk';
import { installAppMenu } from './shell/menu';
import { netFetch } from './shell/net';
import { watchRenderer } from './shell/recovery';
import { registerAppScheme, serveApp } from './shell/protocol';
import { createElectronUpdater } from './shell/updater';
import { languageOfLocale, SHELL_WORDS, SHUTDOWN_DEADLINE_MS, withDeadline } from './shell/lifecycle';
import { createMainWindow, denyPermissions, hardenWebContents, setCardDataProtection } from './shell/window';
import { useSqliteNativeBinding } from './storage/sqlite';
import type { Updater } from './updates';
import { APP_ENTRY_URL, createSenderCheck } from './window';
import { describeProblem } from './cli/messages';

const TITLE = 'Card Payments Desk';

let mainWindow: BrowserWindow | null = null;
let stack: MainStack | null = null;
let logs: AppLogger | null = null;
let updater: Updater | null = null;
let preferences: PreferencesPort | null = null;
/** The quit is under way (the stack is closing): nothing more is asked. */
let closing = false;
/** The agent chose to quit during a payment, or the OS is shutting down. */
let quitAnyway = false;
let asking: Promise<void> | null = null;
/** A quit was accepted (before-quit went through): the windows are closing. */
let quitting = false;
/** The stack serves the door (the start is over). */
let serving = false;
/** A restart to update is under way: the OS installer starts the new version itself once this one has ended. */
let installing = false;

/** Only the message (error objects can carry request options, headers or bodies), a refusal worded by the catalogue. */
const describe = describeProblem;

/** The UI: the dev server under `electron-vite dev`, otherwise the built renderer through app://. */
function appUrl(): string {
  const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
  return !app.isPackaged && devServerUrl !== undefined && devServerUrl !== '' ? devServerUrl : APP_ENTRY_URL;
}

function secretStore(): EncryptedSecretStore {
  return new EncryptedSecretStore({
    safeStorage,
    file: path.join(app.getPath('userData'), 'secrets.json'),
    platform: process.platform,
  });
}

/**
 * Electron runs its own Node ABI, so better-sqlite3 is loaded from a build for Electron, never from node_modules (Node's,
 * for the tests): packaged, resources/native/ (npm run dist puts it there); in development, the copy npm start prepares.
 */
function useElectronSqlite(): void {
  let file: string;
  if (app.isPackaged) {
    file = path.join(process.resourcesPath, 'native', 'better_sqlite3.node');
    if (!existsSync(file)) throw new Error(`This installation is damaged: ${file} is missing. Install the app again.`);
  } else {
    const { version: sqliteVersion } = createRequire(import.meta.url)('better-sqlite3/package.json') as {
      version: string;
    };
    file = path.join(
      app.getAppPath(),
      'node_modules/.cache/electron-native',
      process.versions.electron ?? '',
      `better-sqlite3-${sqliteVersion}.node`,
    );
    if (!existsSync(file)) {
      throw new Error(
        `better-sqlite3 has not been prepared for Electron ${process.versions.electron ?? ''}: run "npm start" (it runs scripts/prepare-electron.mjs).`,
      );
    }
  }
  useSqliteNativeBinding(file);
}

/** A stored secret the OS can no longer open (a new profile, a reset keyring) is said at start, in words for IT. */
async function reportUnreadableSecrets(secrets: EncryptedSecretStore, window: BrowserWindow): Promise<void> {
  const problems = await unreadableSecrets(secrets);
  if (problems.length === 0) return;
  logs?.logger.warn({ secrets: problems.map((problem) => problem.code) }, 'stored secrets cannot be read');
  await dialog.showMessageBox(window, {
    type: 'warning',
    title: TITLE,
    message: 'A secret stored on this computer cannot be used.',
    detail: `${problems.map(describeProblem).join('\n\n')}\n\nWhat needs it (payments, messages, the reservation system) will not work until then: tell IT.`,
    buttons: ['OK'],
    noLink: true,
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  logs = await createLogger({ dir: app.getPath('logs') });
  const logger = logs.logger;
  logger.info({ version: app.getVersion(), packaged: app.isPackaged }, 'starting');

  denyPermissions(session.defaultSession);
  useElectronSqlite();

  const loaded = await loadSettings({
    userDir: app.getPath('userData'),
    managedPath: managedSettingsPath(process.platform, process.env),
  });
  const { settings } = loaded;
  logger.info({ environment: settings.environment, locked: [...loaded.locked] }, 'settings loaded');
  for (const issue of loaded.ignored)
    logger.warn({ setting: issue.field }, `settings.json: ${issue.field} ${issue.message}`);

  const url = appUrl();
  const secrets = secretStore();
  const saved = languagePreference(app.getPath('userData'), loaded);
  // The application menu is worded in the desk's language: set again when the agent changes it.
  const language: PreferencesPort = {
    language: () => saved.language(),
    setLanguage: async (wanted) => {
      const now = await saved.setLanguage(wanted);
      installAppMenu({ platform: process.platform, packaged: app.isPackaged, language: now });
      return now;
    },
  };
  preferences = language;
  const isTrustedSender = createSenderCheck({
    appUrl: url,
    isAppWindow: (id) => mainWindow !== null && mainWindow.webContents.id === id,
  });

  // The window at once, before the center's connection and the recovery: it says what is happening. The door answers
  // app:startup and refuses the rest as `starting` until the stack serves; once the app closes, as `closed`.
  const startup = createStartup({ language: () => language.language().language, isTrustedSender });
  connectIpc((channel, sender, input) => {
    if (closing) return Promise.resolve({ ok: false, error: { code: 'closed', message: 'The app is closing.' } });
    if (serving && stack !== null) return stack.dispatch(channel, sender, input);
    return startup.door(channel, sender, input);
  });
  startup.onChange((status) => {
    if (mainWindow !== null) publish([mainWindow.webContents], 'app:startup', status);
  });
  serveApp(session.defaultSession, path.join(import.meta.dirname, '../renderer'));
  // Before the window: on Windows and Linux Electron gives the application menu to each window made after it (which removes it).
  installAppMenu({ platform: process.platform, packaged: app.isPackaged, language: language.language().language });
  const created = createMainWindow({
    preload: path.join(import.meta.dirname, '../preload/index.cjs'),
    url,
    devTools: !app.isPackaged,
    title: TITLE,
  });
  const window = created.window;
  mainWindow = window;
  // A page that crashes or hangs is reloaded (the call restored, card data gone), each time audited; a crash loop stops it.
  watchRenderer(window, {
    language: () => preferences?.language().language ?? 'es-MX',
    onRecovered: (recovery) => stack?.windowRecovered(recovery),
  });
  window.on('close', (event) => {
    if (!mayClose()) event.preventDefault();
  });
  // Windows is logging off, restarting or shutting down: it sends no before-quit or will-quit then. The user's choice is
  // not vetoed (a prevented query cancels the logoff); the shutdown starts at the query and Electron ends the process
  // right after 'session-end'. What the journal holds was written before each request: the end cuts at most a
  // connection or a log line.
  window.on('query-session-end', () => {
    sessionEnds();
  });
  window.on('session-end', () => {
    sessionEnds();
  });
  const windowId = window.webContents.id;
  window.on('closed', () => {
    mainWindow = null;
    // What it watched of the center goes with it (its LISTEN connection closes when nothing else watches).
    stack?.windowClosed(windowId);
  });

  // Made before the stack, which serves its status to the window; it asks the stack about payments only later.
  updater = createElectronUpdater({
    settings: settings.updates,
    paymentInProgress: () => stack?.paymentInProgress() ?? false,
    prepareInstall,
    logger,
  });
  const updates = updater;
  if (settings.center !== undefined) startup.set('connecting_center');
  // A quit during the start waits for the connection and the stack being made, and closes them.
  const made = (async () =>
    createMainStack({
      dataDir: app.getPath('userData'),
      version: app.getVersion(),
      // Chromium's network stack: the OS proxy settings, PAC files and certificate store (as electron-updater uses).
      fetch: netFetch,
      service: toServiceSettings(settings),
      secrets,
      reservations: settings.reservations,
      reservationsSecret: () => secrets.read('reservationsApiKey'),
      messaging: settings.messaging,
      messagingSecrets: secrets,
      ...(settings.refundLimits === undefined ? {} : { refundLimits: settings.refundLimits }),
      center: settings.center,
      // The center setting moves every store onto the center's PostgreSQL, as the app role with the centerPassword secret.
      ...(settings.center === undefined
        ? {}
        : {
            storage: centerStorage(
              await centerConnection(settings.center, {
                password: () => secrets.read('centerPassword'),
                applicationName: `card-payments-desk ${app.getVersion()}`,
              }),
            ),
          }),
      idleTimeoutMs: settings.idleTimeoutMinutes * 60_000,
      preferences: language,
      logger,
      isTrustedSender,
      onUnexpectedError: (channel, error) => {
        logger.error(
          { channel, error: error instanceof Error ? error.name : typeof error },
          'unexpected error behind a channel',
        );
      },
      protectCardData: setCardDataProtection,
      updates,
      settingsInEffect: settings,
      settingsIgnored: loaded.ignored,
    }))();
  making = made;
  const desk = await made;
  stack = desk;
  if (closing) return;
  desk.onEvent((event, payload) => {
    if (mainWindow !== null) publish([mainWindow.webContents], event, payload);
  });
  // Busy while it completes what had no answer: a quit meanwhile is asked, as during a payment.
  const recovered = await desk.recover({ onProgress: (done, total) => startup.progress(done, total) });
  logger.info({ recovered }, 'journal recovery done');
  if (closing) return;
  // The door switches first, then the window is told: its next call is served.
  serving = true;
  startup.set('ready');

  await created.loaded;
  updater.start();
  // The desk is up: a failure of this check is logged, it does not take the app down.
  await reportUnreadableSecrets(secrets, window).catch((error: unknown) =>
    logger.error({ error: describe(error) }, 'could not check the stored secrets'),
  );
}

/** True when the app may close now: no payment in progress, or the agent chose to quit anyway (asked once at a time). */
function mayClose(): boolean {
  if (closing || quitAnyway || stack === null || !stack.paymentInProgress()) return true;
  asking ??= askToQuit().finally(() => {
    asking = null;
  });
  return false;
}

/** The desk's language for what main says itself: the setting once read, else the system's. */
function deskLanguage(): Language {
  return preferences?.language().language ?? (app.isReady() ? languageOfLocale(app.getLocale()) : 'es-MX');
}

/** The agent decides: keep working (the default) or quit anyway; the payment goes on at the service either way. */
async function askToQuit(): Promise<void> {
  const text = SHELL_WORDS[deskLanguage()].quitWhilePaying;
  const options: MessageBoxOptions = {
    type: 'warning',
    title: TITLE,
    message: text.message,
    detail: text.detail,
    buttons: [text.stay, text.quit],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
  const { response } =
    mainWindow === null ? await dialog.showMessageBox(options) : await dialog.showMessageBox(mainWindow, options);
  if (response !== 1) return;
  logs?.logger.warn({}, 'quitting during a payment, as the agent chose');
  quitAnyway = true;
  app.quit();
}

let shuttingDown: Promise<void> | undefined;
/** The stack being made at start: a shutdown meanwhile waits for it and closes it. */
let making: Promise<unknown> | undefined;
/** The shutdown has finished (or its deadline passed): a quit may now end the process. */
let ended = false;

/**
 * Closes the stack (the journal, the center's pool, the simulator) and then the logs, all within SHUTDOWN_DEADLINE_MS:
 * once, whoever asks (a quit, the end of the OS session, an update, a failure); never rejects.
 */
function shutDown(): Promise<void> {
  shuttingDown ??= withDeadline(
    (async () => {
      updater?.stop();
      if (making !== undefined) await making.catch(() => undefined);
      const running = stack;
      stack = null;
      if (running !== null)
        await running
          .close()
          .catch((error: unknown) => logs?.logger.error({ error: describe(error) }, 'did not close cleanly'));
      const closingLogs = logs;
      logs = null;
      await closingLogs?.close();
    })(),
    SHUTDOWN_DEADLINE_MS,
    { onLate: () => logs?.logger.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'did not close in time') },
  ).finally(() => {
    ended = true;
  });
  return shuttingDown;
}

/**
 * A restart to update, asked by the agent on an idle desk: the full shutdown first, then the updater hands the update to
 * the OS installer, which quits the app. Closing from this moment (the door refuses every call); the window is hidden,
 * not closed (closing the last window would quit before the installer is started).
 */
function prepareInstall(): Promise<void> {
  installing = true;
  closing = true;
  quitAnyway = true;
  mainWindow?.hide();
  return shutDown();
}

/**
 * Ends the process after the bounded shutdown, without the quit events: the end of the OS session (Windows sends no
 * before-quit or will-quit then), a failure. app.exit() closes the windows without asking.
 */
function endNow(code: number): Promise<void> {
  closing = true;
  return shutDown().finally(() => {
    app.exit(code);
  });
}

let failing = false;

/**
 * Main met an error it cannot go on from (the start failed, or an exception nothing caught): it is logged (the message
 * only), said in a dialog in the desk's language (never a stack), and the process ends with 1 after the bounded shutdown.
 */
function fail(stage: 'start' | 'running', error: unknown): void {
  const message = describe(error);
  // Already ending (a quit, the OS session's end, an update, an earlier failure): its own bounded shutdown ends the
  // process. No box then: dialog.showErrorBox blocks main until dismissed, holding the quit past its deadline.
  if (failing || closing) {
    logs?.logger.error({ error: message, stage }, 'a further error while ending');
    return;
  }
  failing = true;
  logs?.logger.fatal({ error: message, stage }, stage === 'start' ? 'could not start' : 'unexpected error, ending');
  const words = SHELL_WORDS[deskLanguage()];
  if (stage === 'start') dialog.showErrorBox(words.cannotStart, `${message}\n\n${words.tellIt}`);
  else dialog.showErrorBox(words.failed, words.failedDetail);
  void endNow(1);
}

/** The OS session ends (Windows logoff, shutdown, restart; macOS and Linux shutdown): the bounded shutdown, nothing asked. */
function sessionEnds(): void {
  if (closing) return;
  logs?.logger.warn({}, 'the operating system session is ending');
  quitAnyway = true;
  void endNow(0);
}

registerAppScheme();
// IT and the Electron tests can keep the app's data elsewhere; must be set before the single-instance lock.
const userDataDir = app.commandLine.getSwitchValue('user-data-dir');
if (userDataDir !== '') app.setPath('userData', path.resolve(userDataDir));

if (runCommandLine({ argv: process.argv, platform: process.platform, secretStore, useElectronSqlite })) {
  // A command-line mode for IT (main/cli/desk.ts): it ends the process itself.
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  hardenWebContents();

  // Before the desk is up (its door serves the stack), nothing may end the process unseen; after, an exception nothing
  // caught ends it in words. Up from the moment it serves: the rest of the start (a warning box the agent may leave open)
  // is the desk at work.
  process.on('uncaughtException', (error) => {
    fail(serving ? 'running' : 'start', error);
  });
  // A rejection nobody awaited: before the desk is up, a start that cannot finish; after, logged (the desk goes on).
  process.on('unhandledRejection', (reason) => {
    if (!serving) fail('start', reason);
    else logs?.logger.error({ error: describe(reason) }, 'a promise was rejected and nobody handled it');
  });

  // Another launch (the icon clicked again): the desk comes to the front; while it is closing, it starts again after.
  app.on('second-instance', (_event, _argv, _cwd, additionalData) => {
    // A command-line mode checking whether the desk runs (--move-in-center): the desk stays where it is.
    if (isCommandLineLaunch(additionalData)) return;
    // Restarting to update: the installer starts the new version (isForceRunAfter); neither the shut-down desk shown again
    // nor the old version relaunched beside it.
    if (installing) return;
    if (mainWindow !== null && !mainWindow.isDestroyed()) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.show();
      mainWindow.focus();
      return;
    }
    if (closing || quitting) app.relaunch();
  });

  app.on('window-all-closed', () => {
    app.quit();
  });

  // The OS is shutting down (macOS, Linux; Windows tells the window): nothing is asked, and the app ends within the
  // deadline. Electron delays the shutdown while the event is prevented, and the app must then quit at once.
  void app.whenReady().then(() => {
    // Electron's typings give the listener no argument; its docs and power monitor emit an event to prevent.
    powerMonitor.on('shutdown', (...args: unknown[]) => {
      (args[0] as { preventDefault?: () => void } | undefined)?.preventDefault?.();
      quitAnyway = true;
      app.quit();
    });
  });

  // Only macOS quits with the window open at the agent's hand (Cmd+Q, the Dock): that is asked. Elsewhere a quit not
  // through the window's close (already asked) is this app's own, or the OS ending it (SIGTERM at logout or shutdown,
  // which Electron turns into a quit): nothing is asked then.
  app.on('before-quit', (event) => {
    if (closing) return;
    if (process.platform === 'darwin' && !mayClose()) {
      event.preventDefault();
      return;
    }
    quitting = true;
    // Accepted: the windows Electron now closes are not asked again.
    quitAnyway = true;
  });

  // Hold every quit until the journal, the databases and the logs are closed (or the deadline), then quit for real: a
  // second quit meanwhile (a signal, the installer's) is held too, so the shutdown is never cut short.
  app.on('will-quit', (event) => {
    if (ended) return;
    event.preventDefault();
    if (closing && shuttingDown !== undefined) return;
    closing = true;
    void shutDown().finally(() => {
      app.quit();
    });
  });

  start().catch((error: unknown) => {
    // What a quit during the start cut short (the stack closed under it) is no failure to show.
    if (closing) logs?.logger.warn({ error: describe(error) }, 'start cut short by a quit');
    else fail('start', error);
  });
}
