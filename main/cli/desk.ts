/**
 * IT's command-line modes (docs/IT.md, section 9): --provision-secret, --print-config, --check-center, --migrate-center and
 * --move-in-center. Each runs without a window, says what it did or why not, and ends the process with the exit code
 * IT.md documents: 0 done, 1 a problem to settle, 2 not used right (or run where it cannot work). Every message is out
 * before the process ends.
 */
import { existsSync, writeSync } from 'node:fs';
import path from 'node:path';

import { app } from 'electron';

import {
  CHECK_CENTER_FLAG,
  MIGRATE_CENTER_FLAG,
  MOVE_IN_CENTER_FLAG,
  runCenterCheck,
  runCenterMigration,
  runMoveIn,
} from '../center';
import {
  parseProvisionArgs,
  PROVISION_FLAG,
  provisionSecret,
  provisionSecretFromInput,
  SECRET_NAMES,
  type EncryptedSecretStore,
  type ProvisionArgs,
  type SecretInput,
  type SecretName,
} from '../secrets';
import {
  loadSettings,
  managedSettingsPath,
  parsePrintConfigArgs,
  printConfig,
  PRINT_CONFIG_FLAG,
  type LoadedSettings,
  type PrintConfigFormat,
} from '../settings';
import { describeProblem } from './messages';

const DESK_RUNNING =
  "Nothing was moved: the desk is running on this folder: close it first (it holds the app's single-instance lock), then run the move again (docs/IT.md, section 8).";

/** The exit codes of every mode (docs/IT.md, section 9). */
export const EXIT = { done: 0, problem: 1, misused: 2 } as const;

/**
 * What a command-line mode sends with app.requestSingleInstanceLock(additionalData): Electron hands it to the running
 * desk's 'second-instance' event ("additionalData unknown - A JSON object of additional data passed from the second
 * instance", Electron 45's app docs), which tells it apart from a second launch of the desk by the agent.
 */
export const COMMAND_LINE_LAUNCH: Readonly<Record<string, unknown>> = Object.freeze({ commandLine: true });

/** True for the additionalData of a command-line mode's lock check: the running desk must then stay as it is (no focus, no restore). */
export function isCommandLineLaunch(additionalData: unknown): boolean {
  return (
    typeof additionalData === 'object' &&
    additionalData !== null &&
    (additionalData as Record<string, unknown>)['commandLine'] === true
  );
}

export interface CommandLineOptions {
  argv: readonly string[];
  platform: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** This user's encrypted secret store (main/index.ts makes it, after ready). */
  secretStore: () => EncryptedSecretStore;
  /** Loads better-sqlite3's Electron build: --move-in-center reads the desk's own files. */
  useElectronSqlite: () => void;
  stdout?: NodeJS.WritableStream & { fd?: number };
  stderr?: NodeJS.WritableStream & { fd?: number };
  stdin?: SecretInput;
}

type Mode =
  | { kind: 'invalid'; message: string }
  | { kind: 'provision'; args: Extract<ProvisionArgs, { kind: 'provision' }> }
  | { kind: 'print'; format: PrintConfigFormat }
  | { kind: 'check' }
  | { kind: 'migrate' }
  | { kind: 'move-in' };

/** The mode the arguments ask for, the first in this order; undefined: the desk itself. */
export function commandLineMode(argv: readonly string[], platform: NodeJS.Platform): Mode | undefined {
  const provisioning = parseProvisionArgs(argv, platform);
  const printing = parsePrintConfigArgs(argv);
  if (provisioning.kind === 'invalid') return { kind: 'invalid', message: provisioning.message };
  if (printing.kind === 'invalid') return { kind: 'invalid', message: printing.message };
  if (provisioning.kind === 'provision') return { kind: 'provision', args: provisioning };
  if (printing.kind === 'print') return { kind: 'print', format: printing.format };
  if (argv.includes(CHECK_CENTER_FLAG)) return { kind: 'check' };
  if (argv.includes(MIGRATE_CENTER_FLAG)) return { kind: 'migrate' };
  if (argv.includes(MOVE_IN_CENTER_FLAG)) return { kind: 'move-in' };
  return undefined;
}

const FLAGS: Record<Exclude<Mode['kind'], 'invalid'>, string> = {
  provision: PROVISION_FLAG,
  print: PRINT_CONFIG_FLAG,
  check: CHECK_CENTER_FLAG,
  migrate: MIGRATE_CENTER_FLAG,
  'move-in': MOVE_IN_CENTER_FLAG,
};

/** The modes that open this user's secrets through the OS key store (on Linux, the keyring over the session's D-Bus). */
const OPENS_SECRETS = new Set<Mode['kind']>(['provision', 'check', 'move-in']);

/**
 * Linux: what the mode needs of the desktop session that is missing here, in a sentence for IT; undefined when nothing is.
 *
 * A display: "Being based on Chromium, Electron requires a display driver to function. If Chromium can't find a display
 * driver, Electron will fail to launch" (Electron's docs/tutorial/testing-on-headless-ci.md), whatever the mode.
 *
 * The session D-Bus, for the modes that open the secrets: Electron's asynchronous safeStorage asks the keyring through
 * os_crypt_async's FreedesktopSecretKeyProvider on the shared session bus (shell/browser/browser_process_impl.cc,
 * CreateOSCryptAsync); libdbus finds that bus in DBUS_SESSION_BUS_ADDRESS, else at $XDG_RUNTIME_DIR/bus (systemd's user
 * bus). Without one no keyring answers and Chromium falls back to its built-in key, which the secret store refuses.
 */
export function missingSession(
  kind: Mode['kind'],
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): { needs: 'display' | 'session-bus'; message: string } | undefined {
  if (platform === 'win32' || platform === 'darwin' || kind === 'invalid') return undefined;
  const flag = FLAGS[kind];
  if (!present(env['DISPLAY']) && !present(env['WAYLAND_DISPLAY'])) {
    return {
      needs: 'display',
      message:
        `${flag} needs a display on Linux (Electron cannot start without one), and this shell has none (DISPLAY and WAYLAND_DISPLAY are not set). ` +
        `Run it in the user's desktop session, or under a virtual display: xvfb-run -a card-payments-desk ${flag} (docs/IT.md, section 9).`,
    };
  }
  if (!OPENS_SECRETS.has(kind)) return undefined;
  const runtimeDir = env['XDG_RUNTIME_DIR'];
  if (present(env['DBUS_SESSION_BUS_ADDRESS']) || (present(runtimeDir) && existsSync(path.join(runtimeDir, 'bus'))))
    return undefined;
  return {
    needs: 'session-bus',
    message:
      `${flag} opens this user's keyring through the desktop session's D-Bus, and this shell has none (DBUS_SESSION_BUS_ADDRESS is not set). ` +
      "Run it in the user's desktop session (a terminal there), or start a session bus and unlock the keyring in it: " +
      `dbus-run-session -- sh -c '… gnome-keyring-daemon --unlock …; card-payments-desk ${flag}' (docs/IT.md, section 9). Nothing was done.`,
  };
}

function present(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/** Only the message (error objects can carry request options, headers or bodies), a refusal worded by the catalogue. */
const describe = describeProblem;

/**
 * Writes the text and resolves once it is out. app.exit() ends the process at once ("All windows will be closed
 * immediately without asking the user, and the before-quit and will-quit events will not be emitted", Electron's app
 * docs), and a write may still be under way then: "Pipes (and sockets): synchronous on Windows, asynchronous on POSIX",
 * "TTYs (Terminals): asynchronous on Windows" (Node's docs, process, "A note on process I/O"). Its callback says it is done.
 */
export function writeOut(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Says it and ends the process with `code`, once the text is out. */
async function finish(stream: NodeJS.WritableStream, text: string, code: number): Promise<void> {
  await writeOut(stream, text.endsWith('\n') ? text : `${text}\n`);
  app.exit(code);
}

/** What a mode says, and the exit code it ends the process with. */
interface ModeReport {
  output: string;
  exitCode: number;
}

/** A mode's report ends the process: 0 on standard output, anything else on standard error; a throw is a problem. */
async function report(
  work: () => Promise<ModeReport>,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<void> {
  try {
    const { output, exitCode } = await work();
    await finish(exitCode === 0 ? stdout : stderr, output, exitCode);
  } catch (error) {
    await finish(stderr, describe(error), EXIT.problem);
  }
}

/**
 * Runs the command-line mode the arguments ask for and answers true (the mode ends the process itself), or answers false
 * when there is none: the desk starts as usual. Called before ready, after the user data folder is set.
 */
export function runCommandLine(options: CommandLineOptions): boolean {
  const mode = commandLineMode(options.argv, options.platform);
  if (mode === undefined) return false;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const missing = missingSession(mode.kind, options.platform, options.env ?? process.env);
  if (missing?.needs === 'display') {
    // Without a display Chromium ends the process as it sets up its toolkit, which comes once this code has loaded and
    // before any callback of a write: the sentence is written synchronously, and app.exit() before the message loop
    // exits at once with the code (shell/browser/browser.cc, Browser::ExitWithCode: "Message loop is not ready, quit directly").
    writeSync(stderr.fd ?? 2, `${missing.message}\n`);
    app.exit(EXIT.misused);
    return true;
  }
  // The move takes the app's single-instance lock, and says who it is (COMMAND_LINE_LAUNCH) so that a running desk
  // stays as it is: a running desk is said first, whatever else is missing.
  if (mode.kind === 'move-in' && !app.requestSingleInstanceLock(COMMAND_LINE_LAUNCH)) {
    void finish(stderr, DESK_RUNNING, EXIT.problem);
    return true;
  }
  if (missing !== undefined) {
    void finish(stderr, missing.message, EXIT.misused);
    return true;
  }
  const done = ((): Promise<void> => {
    switch (mode.kind) {
      case 'invalid':
        return finish(stderr, mode.message, EXIT.misused);
      case 'provision':
        return provision(mode.args, options, stdout, stderr);
      case 'print':
        return report(() => printConfigOf(mode.format, options), stdout, stderr);
      case 'check':
        return report(() => checkCenter(options), stdout, stderr);
      case 'migrate':
        return report(() => migrateCenter(options), stdout, stderr);
      case 'move-in':
        return report(() => moveIn(options), stdout, stderr);
    }
  })();
  // Each mode says its own failures; one that escapes is said too, never a stack.
  void done.catch((error: unknown) => finish(stderr, describe(error), EXIT.problem));
  return true;
}

/** IT's provisioning: the secret from standard input (macOS, Linux) or a file, stored encrypted for this user. */
async function provision(
  { name, source }: Extract<ProvisionArgs, { kind: 'provision' }>,
  options: CommandLineOptions,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<void> {
  await app.whenReady();
  try {
    const store = options.secretStore();
    const message =
      source.kind === 'stdin'
        ? await provisionSecretFromInput(store, name, options.stdin ?? process.stdin)
        : await provisionSecret(store, name, source.file);
    await finish(stdout, message, EXIT.done);
  } catch (error) {
    await finish(stderr, describe(error), EXIT.problem);
  }
}

/** `--print-config`: the effective settings and their sources, without starting the app (the secrets are never decrypted). */
async function printConfigOf(format: PrintConfigFormat, options: CommandLineOptions): Promise<ModeReport> {
  const store = options.secretStore();
  return printConfig({
    userDir: app.getPath('userData'),
    managedPath: managedSettingsPath(options.platform, options.env ?? process.env),
    format,
    describe: describeProblem,
    // A store that cannot say is reported in the catalogue's words.
    secrets: {
      names: SECRET_NAMES,
      has: (name) =>
        store.has(name as SecretName).catch((error: unknown) => {
          throw new Error(describeProblem(error));
        }),
    },
  });
}

/** The center setting as this desk reads it (its own settings file under IT's managed one), and that managed file's path. */
async function centerSetting(
  options: CommandLineOptions,
): Promise<{ center: LoadedSettings['settings']['center']; managedPath: string }> {
  const managedPath = managedSettingsPath(options.platform, options.env ?? process.env);
  const loaded = await loadSettings({ userDir: app.getPath('userData'), managedPath });
  return { center: loaded.settings.center, managedPath };
}

/** How this desk connects to the center: its center setting, and its centerPassword secret (read when connecting). */
async function deskConnection(options: CommandLineOptions) {
  const setting = await centerSetting(options);
  const secrets = options.secretStore();
  return { ...setting, password: () => secrets.read('centerPassword') };
}

/** `--check-center`: connects to the center as this desk would (its setting, its centerPassword secret) and reports for IT. */
async function checkCenter(options: CommandLineOptions): Promise<ModeReport> {
  await app.whenReady();
  return runCenterCheck(await deskConnection(options));
}

/** `--migrate-center`: IT, as the center's owner role (PGUSER, PGPASSWORD), brings the center up to this version of the app. */
async function migrateCenter(options: CommandLineOptions): Promise<ModeReport> {
  const env = options.env ?? process.env;
  return runCenterMigration({ ...(await centerSetting(options)), user: env['PGUSER'], password: env['PGPASSWORD'] });
}

/**
 * `--move-in-center`: this desk's own records (its data folder) moved into the center, as `npm run center:move-in` does,
 * connected as this desk connects (its center setting, its centerPassword secret). The desk must not be running: the move
 * holds the app's single-instance lock (runCommandLine takes it).
 */
async function moveIn(options: CommandLineOptions): Promise<ModeReport> {
  await app.whenReady();
  options.useElectronSqlite();
  return runMoveIn({ ...(await deskConnection(options)), dataDir: app.getPath('userData') });
}
