/** Reads the settings: defaults < the user's settings.json < IT's managed file, which can also lock settings. */
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { SettingsError, type SettingsErrorCode, type SettingsIssue } from './errors';
import { userSettingsPath } from './paths';
import {
  isPolicyKey,
  POLICY_KEYS,
  SETTING_KEYS,
  SettingKey,
  SettingsFile,
  SettingsSchema,
  toIssues,
  type Settings,
} from './schema';

/** A settings file is a few KB; anything over 1 MB is refused before it is read (not a settings file, or an attack on the start-up). */
export const MAX_SETTINGS_FILE_BYTES = 1_048_576;

export type SettingSource = 'default' | 'user' | 'managed';

export interface LoadedSettings {
  /** The effective settings, defaults filled in, every rule checked. */
  settings: Settings;
  /** Where each effective value comes from ('default' also for a setting left unset). */
  sources: Record<SettingKey, SettingSource>;
  /** Settings IT has locked: the user cannot change them (see saveUserSettings). */
  locked: ReadonlySet<SettingKey>;
  /** The two files read, for messages and for the settings screen. */
  files: { user: string; managed: string };
  /** Policy settings found in the user's file and not applied (only IT sets them), each with the sentence saying so. */
  ignored: readonly SettingsIssue[];
}

export interface LoadSettingsOptions {
  /** The folder holding the user's settings.json (Electron's userData). */
  userDir: string;
  /** IT's managed file: managedSettingsPath(process.platform, process.env) in the app, a temp path in tests. */
  managedPath: string;
}

/**
 * IT's file: `{ "settings": { … }, "locked": ["environment", …] }`; both members optional. `$schema` may
 * point at managed-settings.schema.json, so that IT's editor checks the file as it is written.
 */
export const ManagedSettingsFile = z.strictObject({
  $schema: z.string().optional(),
  settings: SettingsFile.default({}),
  locked: z.array(SettingKey).default([]),
});

export interface ManagedSettings {
  settings: SettingsFile;
  locked: ReadonlySet<SettingKey>;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** The file's text, `too_large` over MAX_SETTINGS_FILE_BYTES (not read), or undefined when it does not exist. */
async function readOptional(file: string): Promise<string | { tooLarge: number } | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_SETTINGS_FILE_BYTES) return { tooLarge: size };
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** JSON.parse, tolerating the byte-order mark Windows editors put at the start of UTF-8 files. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'not valid JSON' };
  }
}

/** The codes of one settings file's refusals: IT's managed file, or the user's. */
const FILE_CODES = {
  managed: { unreadable: 'managed_file_unreadable', invalid: 'managed_file_invalid' },
  user: { unreadable: 'user_file_unreadable', invalid: 'user_file_invalid' },
} as const satisfies Record<string, { unreadable: SettingsErrorCode; invalid: SettingsErrorCode }>;

/** A settings file's JSON document, or undefined when there is none; unreadable, over 1 MB or not JSON is refused. */
async function readDocument(file: string, which: keyof typeof FILE_CODES): Promise<{ value: unknown } | undefined> {
  const codes = FILE_CODES[which];
  let text: string | { tooLarge: number } | undefined;
  try {
    text = await readOptional(file);
  } catch (error) {
    throw new SettingsError(codes.unreadable, [], file, {
      problem: 'unreadable',
      errno: errorCode(error) ?? 'read error',
    });
  }
  if (text === undefined) return undefined;
  if (typeof text !== 'string') {
    throw new SettingsError(codes.invalid, [{ field: '(document)', message: 'is larger than 1 MB' }], file, {
      problem: 'too_large',
      bytes: text.tooLarge,
    });
  }
  const json = parseJson(text);
  if (!json.ok)
    throw new SettingsError(codes.invalid, [{ field: '(document)', message: json.reason }], file, {
      problem: 'not_json',
    });
  return { value: json.value };
}

/** IT's managed file, or null when there is none. Anything else wrong with it is an error, never ignored. */
export async function readManagedSettings(file: string): Promise<ManagedSettings | null> {
  const json = await readDocument(file, 'managed');
  if (json === undefined) return null;
  const parsed = ManagedSettingsFile.safeParse(json.value);
  if (!parsed.success) throw new SettingsError('managed_file_invalid', toIssues(parsed.error), file);
  return { settings: parsed.data.settings, locked: new Set(parsed.data.locked) };
}

/** The user's settings.json (an empty document when there is none). */
export async function readUserSettings(file: string): Promise<SettingsFile> {
  const json = await readDocument(file, 'user');
  if (json === undefined) return {};
  // A policy setting in the user's file is never applied (resolveSettings reports it as ignored): its value is not
  // checked either, so that a stray or outdated one cannot stop the desk from starting.
  const document = json.value;
  const policy =
    typeof document === 'object' && document !== null && !Array.isArray(document)
      ? POLICY_KEYS.filter((key) => Object.hasOwn(document, key))
      : [];
  const checked =
    policy.length === 0
      ? document
      : Object.fromEntries(
          Object.entries(document as Record<string, unknown>).filter(([key]) => !(policy as string[]).includes(key)),
        );
  const parsed = SettingsFile.safeParse(checked);
  if (parsed.success && policy.length > 0) {
    // Kept only so that they can be named as ignored; never merged into the settings in effect.
    return {
      ...parsed.data,
      ...Object.fromEntries(policy.map((key) => [key, (document as Record<string, unknown>)[key]])),
    };
  }
  if (!parsed.success) throw new SettingsError('user_file_invalid', toIssues(parsed.error), file);
  return parsed.data;
}

/** Builds a record with one entry per setting; listing the keys makes adding a setting a compile error here. */
export function perSetting<T>(value: (key: SettingKey) => T): Record<SettingKey, T> {
  return {
    environment: value('environment'),
    authUrl: value('authUrl'),
    cdeUrl: value('cdeUrl'),
    baseUrl: value('baseUrl'),
    clientId: value('clientId'),
    publishableKey: value('publishableKey'),
    returnUrl: value('returnUrl'),
    idleTimeoutMinutes: value('idleTimeoutMinutes'),
    refundLimits: value('refundLimits'),
    language: value('language'),
    reservations: value('reservations'),
    messaging: value('messaging'),
    updates: value('updates'),
    center: value('center'),
  };
}

function isSettingKey(field: string): field is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(field);
}

/** Why a policy setting in the user's file is not applied, and where it belongs. */
export function policyIgnored(key: SettingKey, files: { user: string; managed: string }): SettingsIssue {
  return {
    field: key,
    message: `is set only by IT, in the managed file (${files.managed}); the value in ${files.user} is ignored`,
  };
}

/**
 * Merges defaults < user < managed. A locked setting ignores the user's value even when IT gives none (it stays at
 * IT's value or the default); so does a policy setting (POLICY_KEYS), always. The result must pass every rule, or
 * this throws naming each field and its source.
 */
export function resolveSettings(
  user: SettingsFile,
  managed: ManagedSettings | null,
  files: { user: string; managed: string },
): LoadedSettings {
  const locked = managed?.locked ?? new Set<SettingKey>();
  const sources = perSetting<SettingSource>((key) => {
    if (managed?.settings[key] !== undefined) return 'managed';
    if (!locked.has(key) && !isPolicyKey(key) && user[key] !== undefined) return 'user';
    return 'default';
  });
  const ignored = POLICY_KEYS.filter((key) => user[key] !== undefined).map((key) => policyIgnored(key, files));
  const merged = perSetting<unknown>((key) => {
    switch (sources[key]) {
      case 'managed':
        return managed?.settings[key];
      case 'user':
        return user[key];
      case 'default':
        return undefined;
    }
  });
  const parsed = SettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const where: Record<SettingSource, string> = {
      default: 'not set',
      user: `from ${files.user}`,
      managed: `set by IT in ${files.managed}`,
    };
    const whereFrom = (field: SettingKey): string =>
      sources[field] === 'default' && isPolicyKey(field) && user[field] !== undefined
        ? `not set; ${files.user} cannot set it: it is set only by IT, in ${files.managed}`
        : where[sources[field]];
    const issues: SettingsIssue[] = toIssues(parsed.error).map((issue) =>
      isSettingKey(issue.field) ? { ...issue, message: `${issue.message} (${whereFrom(issue.field)})` } : issue,
    );
    throw new SettingsError('invalid_settings', issues);
  }
  return { settings: parsed.data, sources, locked, files, ignored };
}

/** Loads the effective settings. A missing file is fine; an unreadable or invalid one is a SettingsError. */
export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const files = { user: userSettingsPath(options.userDir), managed: options.managedPath };
  const managed = await readManagedSettings(files.managed);
  const user = await readUserSettings(files.user);
  return resolveSettings(user, managed, files);
}
