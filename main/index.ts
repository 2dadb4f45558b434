// Main process: owns the window, the secrets and every call to the payment service; the renderer never sees them.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { app, BrowserWindow, dialog, safeStorage, session } from 'electron';

import { createMainStack, type MainStack } from './app';
import { connectIpc } from './ipc/electron';
import { publish } from './ipc';
import { createLogger, type AppLogger } from './logging';
import { EncryptedSecretStore, parseProvisionArgs, provisionSecret, provisionSecretFromInput, SECRET_NAMES, type ProvisionArgs } from './secrets';
import { languagePreference, loadSettings, managedSettingsPath, parsePrintConfigArgs, printConfig, toServiceSettings, type PrintConfigFormat } from './settings';
import { registerAppScheme, serveApp } from './shell/protocol';
import { createElectronUpdater } from './shell/updater';
import { createMainWindow, denyPermissions, hardenWebContents, setCardDataProtection } from './shell/window';
import { useSqliteNativeBinding } from './storage/sqlite';
import type { Updater } from './updates';
import { APP_ENTRY_URL, createSenderCheck } from './window';

const TITLE = 'Card Payments Desk';

let mainWindow: BrowserWindow | null = null;
let stack: MainStack | null = null;
let logs: AppLogger | null = null;
let updater: Updater | null = null;
let closing = false;

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

/** Development runs Electron on node_modules: better-sqlite3 must be the copy built for Electron's ABI (npm start builds it). */
function pointSqliteAtElectronBuild(): void {
  if (app.isPackaged) return;
  const { version: sqliteVersion } = createRequire(import.meta.url)('better-sqlite3/package.json') as { version: string };
  const folder = path.join(app.getAppPath(), 'node_modules/.cache/electron-native', process.versions.electron);
  const file = path.join(folder, `better-sqlite3-${sqliteVersion}.node`);
  if (!existsSync(file)) {
    throw new Error(`better-sqlite3 has not been built for Electron ${process.versions.electron}: run "npm start" (it runs scripts/electron-native.mjs).`);
  }
  useSqliteNativeBinding(file);
}

/** Writes the text and waits until it is out (pipes are asynchronous on Windows), so that app.exit() does not cut it short. */
function writeOut(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** IT's provisioning: the secret from standard input (recommended) or a file, stored encrypted for this user. */
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

async function start(): Promise<void> {
  await app.whenReady();
  logs = await createLogger({ dir: app.getPath('logs') });
  const logger = logs.logger;
  logger.info({ version: app.getVersion(), packaged: app.isPackaged }, 'starting');

  denyPermissions(session.defaultSession);
  pointSqliteAtElectronBuild();

  const loaded = await loadSettings({ userDir: app.getPath('userData'), managedPath: managedSettingsPath(process.platform, process.env) });
  const { settings } = loaded;
  logger.info({ environment: settings.environment, locked: [...loaded.locked] }, 'settings loaded');
  for (const issue of loaded.ignored) logger.warn({ setting: issue.field }, `settings.json: ${issue.field} ${issue.message}`);

  const url = appUrl();
  const secrets = secretStore();
  // Made before the stack, which serves its status to the window; it asks the stack about payments only later.
  updater = createElectronUpdater({ settings: settings.updates, paymentInProgress: () => stack?.paymentInProgress() ?? false, logger });
  stack = await createMainStack({
    dataDir: app.getPath('userData'),
    version: app.getVersion(),
    service: toServiceSettings(settings),
    secrets,
    reservations: settings.reservations,
    reservationsSecret: () => secrets.read('reservationsApiKey'),
    messaging: settings.messaging,
    messagingSecrets: secrets,
    ...(settings.refundLimits === undefined ? {} : { refundLimits: settings.refundLimits }),
    idleTimeoutMs: settings.idleTimeoutMinutes * 60_000,
    preferences: languagePreference(app.getPath('userData'), loaded),
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
  const created = createMainWindow({
    preload: path.join(import.meta.dirname, '../preload/index.cjs'),
    url,
    devTools: !app.isPackaged,
    title: TITLE,
  });
  mainWindow = created.window;
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  await created.loaded;
  updater.start();
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

const provisioning = parseProvisionArgs(process.argv);
const printing = parsePrintConfigArgs(process.argv);
if (provisioning.kind === 'invalid' || printing.kind === 'invalid') {
  console.error(provisioning.kind === 'invalid' ? provisioning.message : printing.kind === 'invalid' ? printing.message : '');
  app.exit(2);
} else if (provisioning.kind === 'provision') {
  void provision(provisioning);
} else if (printing.kind === 'print') {
  void printConfigAndExit(printing.format);
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
    await shutDown();
    app.exit(1);
  });
}
