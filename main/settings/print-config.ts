/** `--print-config`: each effective setting, its value, where it comes from (default, user file, managed file) and whether IT locked it. */
import { access } from 'node:fs/promises';
import { describeIssues, SettingsError } from './errors';
import { loadSettings, type LoadedSettings, type LoadSettingsOptions, type SettingSource } from './load';
import { SETTING_KEYS, type SettingKey } from './schema';

export const PRINT_CONFIG_FLAG = '--print-config';

export type PrintConfigFormat = 'text' | 'json';

export type PrintConfigArgs =
  | { kind: 'none' }
  | { kind: 'print'; format: PrintConfigFormat }
  | { kind: 'invalid'; message: string };

/** `--print-config` prints text; `--print-config=json` prints one JSON document for scripts. */
export function parsePrintConfigArgs(argv: readonly string[]): PrintConfigArgs {
  for (const arg of argv) {
    if (arg === PRINT_CONFIG_FLAG || arg === `${PRINT_CONFIG_FLAG}=text`) return { kind: 'print', format: 'text' };
    if (arg === `${PRINT_CONFIG_FLAG}=json`) return { kind: 'print', format: 'json' };
    if (arg.startsWith(`${PRINT_CONFIG_FLAG}=`)) {
      return { kind: 'invalid', message: `${PRINT_CONFIG_FLAG} takes no value, or =json: ${PRINT_CONFIG_FLAG}=json` };
    }
  }
  return { kind: 'none' };
}

export interface ConfigEntry {
  setting: SettingKey;
  /** The effective value; undefined when the setting is not set (the feature it governs is off or built in). */
  value: unknown;
  source: SettingSource;
  locked: boolean;
}

export interface ConfigReport {
  files: { user: { path: string; found: boolean }; managed: { path: string; found: boolean } };
  settings: ConfigEntry[];
  /** Policy settings found in the user's file and not applied (only IT sets them); absent when there are none. */
  ignored?: { setting: string; message: string }[];
  /** Whether each secret is stored for this user (read without decrypting); absent when not asked. */
  secrets?: Record<string, SecretState>;
}

/** 'stored', 'not stored', or why the store cannot tell (a damaged or unreadable store file). */
export type SecretState = 'stored' | 'not stored' | `unknown: ${string}`;

/** What the secret store can tell without decrypting (EncryptedSecretStore.has). */
export interface SecretPresence {
  names: readonly string[];
  has(name: string): Promise<boolean>;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** The report of loaded settings, one entry per setting in the schema's order. */
export async function configReport(loaded: LoadedSettings, secrets?: SecretPresence): Promise<ConfigReport> {
  const report: ConfigReport = {
    files: {
      user: { path: loaded.files.user, found: await exists(loaded.files.user) },
      managed: { path: loaded.files.managed, found: await exists(loaded.files.managed) },
    },
    settings: SETTING_KEYS.map((setting) => ({
      setting,
      value: loaded.settings[setting],
      source: loaded.sources[setting],
      locked: loaded.locked.has(setting),
    })),
  };
  if (loaded.ignored.length > 0)
    report.ignored = loaded.ignored.map((issue) => ({ setting: issue.field, message: issue.message }));
  if (secrets !== undefined) {
    const states: Record<string, SecretState> = {};
    for (const name of secrets.names) {
      try {
        states[name] = (await secrets.has(name)) ? 'stored' : 'not stored';
      } catch (error) {
        states[name] = `unknown: ${error instanceof Error ? error.message : 'the secret store cannot be read'}`;
      }
    }
    report.secrets = states;
  }
  return report;
}

const SOURCE_LABEL: Record<SettingSource, string> = { default: 'default', user: 'user file', managed: 'managed file' };

/** The report as aligned lines: setting, value (JSON), source and "locked by IT". */
export function formatConfigReport(report: ConfigReport): string {
  const found = (file: { path: string; found: boolean }): string =>
    `${file.path} (${file.found ? 'found' : 'not found'})`;
  const rows = report.settings.map((entry) => [
    entry.setting,
    entry.value === undefined ? '(not set)' : JSON.stringify(entry.value),
    `${SOURCE_LABEL[entry.source]}${entry.locked ? ', locked by IT' : ''}`,
  ]);
  const width = (column: number): number => Math.max(...rows.map((row) => (row[column] ?? '').length));
  const settingWidth = width(0);
  const valueWidth = Math.min(width(1), 60);
  const lines = [
    `user file:    ${found(report.files.user)}`,
    `managed file: ${found(report.files.managed)}`,
    '',
    `${'setting'.padEnd(settingWidth)}  ${'value'.padEnd(valueWidth)}  source`,
    ...rows.map(
      ([setting = '', value = '', source = '']) =>
        `${setting.padEnd(settingWidth)}  ${value.padEnd(valueWidth)}  ${source}`,
    ),
  ];
  if (report.ignored !== undefined) {
    lines.push('', 'ignored in the user file (set only by IT):');
    for (const { setting, message } of report.ignored) lines.push(`  ${setting.padEnd(settingWidth)}${message}`);
  }
  if (report.secrets !== undefined) {
    lines.push('', 'secrets (encrypted for this user; values never shown):');
    for (const [name, state] of Object.entries(report.secrets)) lines.push(`  ${name.padEnd(settingWidth)}${state}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface PrintConfigResult {
  /** 0 when the settings load, 1 when they do not (the output then says why, naming the field and the file). */
  exitCode: 0 | 1;
  /** What goes to standard output (the report) or, on failure, to standard error. */
  output: string;
}

/** Loads the settings the way the app does and describes them; a settings error becomes the output, with exit code 1. */
export async function printConfig(
  options: LoadSettingsOptions & {
    format: PrintConfigFormat;
    secrets?: SecretPresence;
    /** What IT reads of a refusal (the command line's catalogue); its code line and issues when not given. */
    describe?: (error: SettingsError) => string;
  },
): Promise<PrintConfigResult> {
  let loaded: LoadedSettings;
  try {
    loaded = await loadSettings(options);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    const message = (options.describe ?? ((refusal) => describeIssues(refusal.message, refusal.issues)))(error);
    const output =
      options.format === 'json'
        ? `${JSON.stringify({ error: { code: error.code, message, issues: error.issues, file: error.file } }, null, 2)}\n`
        : `${message}\n`;
    return { exitCode: 1, output };
  }
  const report = await configReport(loaded, options.secrets);
  return {
    exitCode: 0,
    output: options.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatConfigReport(report),
  };
}
