// Main process: owns the window, the secrets and every call to the payment service; the renderer never sees them.
// The composition root: it wires settings, secrets, logs, the stack, the IPC door, the window and the updater, and
// decides nothing itself. test/main/index.test.ts runs this file under Node with Electron's modules faked.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { app, BrowserWindow, dialog, powerMonitor, safeStorage, session, type MessageBoxOptions } from 'electron';

import type { Language } from '../shared/language';
import { createMainStack, type MainStack } from './app';
import { CHECK_CENTER_FLAG, MIGRATE_CENTER_FLAG, MOVE_IN_CENTER_FLAG, centerConnection, runCenterCheck, runCenterMigration, runMoveIn } from './center';
import { centerStorage } from './storage';
import { connectIpc } from './ipc/electron';
import { publish, type PreferencesPort } from './ipc';
import { createLogger, type AppLogger } from './logging';
import { EncryptedSecretStore, parseProvisionArgs, provisionSecret, provisionSecretFromInput, SECRET_NAMES, unreadableSecrets, type ProvisionArgs } from './secrets';
import { languagePreference, loadSettings, managedSettingsPath, parsePrintConfigArgs, printConfig, toServiceSettings, type PrintConfigFormat } from './settings';
import { installAppMenu } from './shell/menu';
import { netFetch } from './shell/net';
import { watchRenderer } from './shell/recovery';
import { registerAppScheme, serveApp } from './shell/protocol';
import { createElectronUpdater } from './shell/updater';
import { createMainWindow, denyPermissions, hardenWebContents, setCardDataProtection } from './shell/window';
import { useSqliteNativeBinding } from './storage/sqlite';
import type { Updater } from './updates';
import { APP_ENTRY_URL, createSenderCheck } from './window';

const TITLE = 'Card Payments Desk';

/** What the agent is asked on closing the app while a payment is in progress, in the desk's language. */
const QUIT_WHILE_PAYING: Record<Language, { message: string; detail: string; stay: string; quit: string }> = {
  'es-MX': {
    message: 'Hay un pago en curso.',
    detail:
      'Todavía no se conoce su resultado. Deje la aplicación abierta hasta que el pago tenga su resultado. ' +
      'Si sale ahora, el pago sigue en el servicio y la aplicación lo vuelve a consultar la próxima vez que se abra.',
    stay: 'Seguir trabajando',
    quit: 'Salir de todos modos',
  },
  'en-US': {
    message: 'A payment is in progress.',
    detail:
      'Its result is not known yet. Keep the app open until the payment has its result. ' +
      'If you quit now, the payment goes on at the service and the app checks it again the next time it starts.',
    stay: 'Keep working',
    quit: 'Quit anyway',
  },
};

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

/** Only the message: error objects can carry request options, headers or bodies. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}

/** The UI: the dev server under `electron-vite dev`, otherwise the built renderer through app://. */
function appUrl(): string {
  const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
  return !app.isPackaged && devServerUrl !== undefined && devServerUrl !== '' ? devServerUrl : APP_ENTRY_URL;
}

function secretStore(): EncryptedSecretStore {
  return new EncryptedSecretStore({ safeStorage, file: path.join(app.getPath('userData'), 'secrets.json'), platform: process.platform });
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
    const { version: sqliteVersion } = createRequire(import.meta.url)('better-sqlite3/package.json') as { version: string };
    file = path.join(app.getAppPath(), 'node_modules/.cache/electron-native', process.versions.electron ?? '', `better-sqlite3-${sqliteVersion}.node`);
    if (!existsSync(file)) {
      throw new Error(`better-sqlite3 has not been prepared for Electron ${process.versions.electron ?? ''}: run "npm start" (it runs scripts/prepare-electron.mjs).`);
    }
  }
  useSqliteNativeBinding(file);
}

/** Writes the text and waits until it is out (pipes are asynchronous on Windows), so that app.exit() does not cut it short. */
function writeOut(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** IT's provisioning: the secret from standard input (macOS, Linux) or a file, stored encrypted for this user. */
async function provision({ name, source }: Extract<ProvisionArgs, { kind: 'provision' }>): Promise<void> {
  await app.whenReady();
  try {
    const store = secretStore();
    const message = source.kind === 'stdin' ? await provisionSecretFromInput(store, name, process.stdin) : await provisionSecret(store, name, source.file);
    await writeOut(process.stdout, `${message}\n`);
    app.exit(0);
  } catch (error) {
    await writeOut(process.stderr, `${describe(error)}\n`);
    app.exit(1);
  }
}

/** `--print-config`: the effective settings and their sources, without starting the app (the secrets are never decrypted). */
async function printConfigAndExit(format: PrintConfigFormat): Promise<void> {
  try {
    const store = secretStore();
    const result = await printConfig({
      userDir: app.getPath('userData'),
      managedPath: managedSettingsPath(process.platform, process.env),
      format,
      secrets: { names: SECRET_NAMES, has: store.has.bind(store) },
    });
    await writeOut(result.exitCode === 0 ? process.stdout : process.stderr, result.output);
    app.exit(result.exitCode);
  } catch (error) {
    await writeOut(process.stderr, `${describe(error)}\n`);
    app.exit(1);
  }
}

/** `--check-center`: connects to the center as this desk would (its setting, its centerPassword secret) and reports for IT. */
async function checkCenterAndExit(): Promise<void> {
  await app.whenReady();
  try {
    const managedPath = managedSettingsPath(process.platform, process.env);
    const loaded = await loadSettings({ userDir: app.getPath('userData'), managedPath });
    const secrets = secretStore();
    const { output, exitCode } = await runCenterCheck({ center: loaded.settings.center, managedPath, password: () => secrets.read('centerPassword') });
    await writeOut(exitCode === 0 ? process.stdout : process.stderr, output);
    app.exit(exitCode);
  } catch (error) {
    await writeOut(process.stderr, `${describe(error)}\n`);
    app.exit(1);
  }
}

/** `--migrate-center`: IT, as the center's owner role (PGUSER, PGPASSWORD), brings the center up to this version of the app. */
async function migrateCenterAndExit(): Promise<void> {
  try {
    const managedPath = managedSettingsPath(process.platform, process.env);
    const loaded = await loadSettings({ userDir: app.getPath('userData'), managedPath });
    const { output, exitCode } = await runCenterMigration({ center: loaded.settings.center, managedPath, user: process.env['PGUSER'], password: process.env['PGPASSWORD'] });
    await writeOut(exitCode === 0 ? process.stdout : process.stderr, output);
    app.exit(exitCode);
  } catch (error) {
    await writeOut(process.stderr, `${describe(error)}\n`);
    app.exit(1);
  }
}

/**
 * `--move-in-center`: this desk's own records (its data folder) moved into the center, as `npm run center:move-in` does,
 * connected as this desk connects (its center setting, its centerPassword secret). The desk must not be running: the
 * move holds the app's single-instance lock.
 */
async function moveInAndExit(): Promise<void> {
  await app.whenReady();
  try {
    useElectronSqlite();
    const managedPath = managedSettingsPath(process.platform, process.env);
    const loaded = await loadSettings({ userDir: app.getPath('userData'), managedPath });
    const secrets = secretStore();
    const { output, exitCode } = await runMoveIn({ center: loaded.settings.center, managedPath, dataDir: app.getPath('userData'), password: () => secrets.read('centerPassword') });
    await writeOut(exitCode === 0 ? process.stdout : process.stderr, output);
    app.exit(exitCode);
  } catch (error) {
    await writeOut(process.stderr, `${describe(error)}\n`);
    app.exit(1);
  }
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
    detail: `${problems.map((problem) => problem.message).join('\n\n')}\n\nWhat needs it (payments, messages, the reservation system) will not work until then: tell IT.`,
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

  const loaded = await loadSettings({ userDir: app.getPath('userData'), managedPath: managedSettingsPath(process.platform, process.env) });
  const { settings } = loaded;
  logger.info({ environment: settings.environment, locked: [...loaded.locked] }, 'settings loaded');
  for (const issue of loaded.ignored) logger.warn({ setting: issue.field }, `settings.json: ${issue.field} ${issue.message}`);

  const url = appUrl();
  const secrets = secretStore();
  preferences = languagePreference(app.getPath('userData'), loaded);
  // Made before the stack, which serves its status to the window; it asks the stack about payments only later.
  updater = createElectronUpdater({ settings: settings.updates, paymentInProgress: () => stack?.paymentInProgress() ?? false, logger });
  stack = await createMainStack({
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
      : { storage: centerStorage(await centerConnection(settings.center, { password: () => secrets.read('centerPassword'), applicationName: `card-payments-desk ${app.getVersion()}` })) }),
    idleTimeoutMs: settings.idleTimeoutMinutes * 60_000,
    preferences,
    logger,
    isTrustedSender: createSenderCheck({ appUrl: url, isAppWindow: (id) => mainWindow !== null && mainWindow.webContents.id === id }),
    onUnexpectedError: (channel, error) => {
      logger.error({ channel, error: error instanceof Error ? error.name : typeof error }, 'unexpected error behind a channel');
    },
    protectCardData: setCardDataProtection,
    updates: updater,
    settingsInEffect: settings,
    settingsIgnored: loaded.ignored,
  });
  connectIpc(stack.dispatch);
  stack.onEvent((event, payload) => {
    if (mainWindow !== null) publish([mainWindow.webContents], event, payload);
  });
  const recovered = await stack.recover();
  logger.info({ recovered }, 'journal recovery done');

  serveApp(session.defaultSession, path.join(import.meta.dirname, '../renderer'));
  // Before the window: on Windows and Linux Electron gives the application menu to each window made after it (which removes it).
  installAppMenu({ platform: process.platform, packaged: app.isPackaged, language: preferences.language().language });
  const created = createMainWindow({
    preload: path.join(import.meta.dirname, '../preload/index.cjs'),
    url,
    devTools: !app.isPackaged,
    title: TITLE,
  });
  const window = created.window;
  mainWindow = window;
  // A page that crashes or hangs is reloaded (the call restored, card data gone), each time audited; a crash loop stops it.
  watchRenderer(window, { language: () => preferences?.language().language ?? 'es-MX', onRecovered: (recovery) => stack?.windowRecovered(recovery) });
  window.on('close', (event) => {
    if (!mayClose()) event.preventDefault();
  });
  // Windows is logging off or shutting down: nothing is asked then, the payment goes on at the service.
  window.on('query-session-end', () => {
    quitAnyway = true;
  });
  const windowId = window.webContents.id;
  window.on('closed', () => {
    mainWindow = null;
    // What it watched of the center goes with it (its LISTEN connection closes when nothing else watches).
    stack?.windowClosed(windowId);
  });
  await created.loaded;
  updater.start();
  // The desk is up: a failure of this check is logged, it does not take the app down.
  await reportUnreadableSecrets(secrets, window).catch((error: unknown) => logger.error({ error: describe(error) }, 'could not check the stored secrets'));
}

/** True when the app may close now: no payment in progress, or the agent chose to quit anyway (asked once at a time). */
function mayClose(): boolean {
  if (closing || quitAnyway || stack === null || !stack.paymentInProgress()) return true;
  asking ??= askToQuit().finally(() => {
    asking = null;
  });
  return false;
}

/** The agent decides: keep working (the default) or quit anyway; the payment goes on at the service either way. */
async function askToQuit(): Promise<void> {
  const text = QUIT_WHILE_PAYING[preferences?.language().language ?? 'es-MX'];
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
  const { response } = mainWindow === null ? await dialog.showMessageBox(options) : await dialog.showMessageBox(mainWindow, options);
  if (response !== 1) return;
  logs?.logger.warn({}, 'quitting during a payment, as the agent chose');
  quitAnyway = true;
  app.quit();
}

async function shutDown(): Promise<void> {
  updater?.stop();
  const running = stack;
  stack = null;
  if (running !== null) await running.close().catch((error: unknown) => logs?.logger.error({ error: describe(error) }, 'did not close cleanly'));
  await logs?.close();
  logs = null;
}

registerAppScheme();
// IT and the Electron tests can keep the app's data elsewhere; must be set before the single-instance lock.
const userDataDir = app.commandLine.getSwitchValue('user-data-dir');
if (userDataDir !== '') app.setPath('userData', path.resolve(userDataDir));

const provisioning = parseProvisionArgs(process.argv, process.platform);
const printing = parsePrintConfigArgs(process.argv);
if (provisioning.kind === 'invalid' || printing.kind === 'invalid') {
  console.error(provisioning.kind === 'invalid' ? provisioning.message : printing.kind === 'invalid' ? printing.message : '');
  app.exit(2);
} else if (provisioning.kind === 'provision') {
  void provision(provisioning);
} else if (printing.kind === 'print') {
  void printConfigAndExit(printing.format);
} else if (process.argv.includes(CHECK_CENTER_FLAG)) {
  void checkCenterAndExit();
} else if (process.argv.includes(MIGRATE_CENTER_FLAG)) {
  void migrateCenterAndExit();
} else if (process.argv.includes(MOVE_IN_CENTER_FLAG)) {
  if (app.requestSingleInstanceLock()) {
    void moveInAndExit();
  } else {
    console.error('The desk is running on this computer: close it first, then move its records in (docs/IT.md, section 8).');
    app.exit(2);
  }
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  hardenWebContents();

  app.on('second-instance', () => {
    if (mainWindow === null) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => {
    app.quit();
  });

  // The OS is shutting down (macOS, Linux; Windows tells the window): nothing is asked then, the payment goes on at the service.
  void app.whenReady().then(() => {
    powerMonitor.on('shutdown', () => {
      quitAnyway = true;
    });
  });

  app.on('before-quit', (event) => {
    if (closing) return;
    if (!mayClose()) {
      event.preventDefault();
      return;
    }
    // The quit is accepted: the updater decides now, while the stack can still tell whether a payment is in progress.
    updater?.beforeQuit();
  });

  app.on('will-quit', (event) => {
    if (closing) return;
    // Hold the quit until the journal, the databases and the simulator are closed, then quit for real.
    event.preventDefault();
    closing = true;
    void shutDown().finally(() => {
      app.quit();
    });
  });

  start().catch(async (error: unknown) => {
    const message = describe(error);
    logs?.logger.fatal({ error: message }, 'could not start');
    dialog.showErrorBox(`${TITLE} cannot start`, `${message}\n\nIf this keeps happening, tell IT.`);
    closing = true;
    await shutDown();
    app.exit(1);
  });
}
