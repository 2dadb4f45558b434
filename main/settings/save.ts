/** Saves the user's own changes to settings.json: never a setting IT manages, never an inconsistent result, never half-written. */
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from '../storage/atomic-write';
import { SettingsError, type SettingsIssue } from './errors';
import { perSetting, readUserSettings, resolveSettings, type LoadedSettings, type ManagedSettings } from './load';
import { userSettingsPath } from './paths';
import {
  isPolicyKey,
  SETTING_FIELDS,
  SETTING_KEYS,
  SettingsFile,
  toIssues,
  type SettingKey,
  type Settings,
} from './schema';

/** A value sets the setting; null removes the user's value (back to the default); undefined leaves it alone. */
export type SettingsChanges = { [K in SettingKey]?: Settings[K] | null };

function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

/** Checks each change on its own (the changes may come from the renderer: checked again here, at run time). */
function parseChanges(changes: unknown): Map<SettingKey, unknown> {
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes)) {
    throw new SettingsError('invalid_settings', [], undefined, { problem: 'not_an_object' });
  }
  const parsed = new Map<SettingKey, unknown>();
  const issues: SettingsIssue[] = [];
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (!isSettingKey(key)) {
      unknown.push(key);
    } else if (value === null) {
      parsed.set(key, null);
    } else if (value !== undefined) {
      const result = SETTING_FIELDS[key].safeParse(value);
      if (result.success) parsed.set(key, result.data);
      else issues.push(...result.error.issues.map((issue) => ({ field: key, message: issue.message })));
    }
  }
  if (unknown.length > 0) {
    // The same wording as a settings file with that key, e.g. for a client secret.
    const result = SettingsFile.safeParse(Object.fromEntries(unknown.map((key) => [key, true])));
    if (!result.success) issues.push(...toIssues(result.error));
  }
  if (issues.length > 0) throw new SettingsError('invalid_settings', issues, undefined, { problem: 'changes' });
  return parsed;
}

/** What IT's file contributed to `loaded`, to merge the user's new values under it again. */
function managedPart(loaded: LoadedSettings): ManagedSettings {
  const settings: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if (loaded.sources[key] === 'managed') settings[key] = loaded.settings[key];
  }
  // Values that came out of a successful load: they pass the file schema again.
  return { settings: SettingsFile.parse(settings), locked: loaded.locked };
}

/**
 * Applies `changes` on top of the user's settings.json and returns the new effective settings.
 * Refused (SettingsError, nothing written): a change to a setting IT locked or set in the managed file
 * ('locked'; sending the current value back is not a change), to a policy setting (only IT sets those), a bad value or a combination that breaks
 * a rule ('invalid_settings'). The file is replaced atomically; it only ever holds settings, never the client secret.
 */
export async function saveUserSettings(
  userDir: string,
  changes: SettingsChanges,
  loaded: LoadedSettings,
): Promise<LoadedSettings> {
  const parsed = parseChanges(changes);

  const refused: SettingsIssue[] = [];
  for (const [key, value] of parsed) {
    if (isPolicyKey(key)) {
      refused.push({
        field: key,
        message: `is set only by IT, in the managed file (${loaded.files.managed}); it cannot be changed here`,
      });
      continue;
    }
    const managedByIt = loaded.locked.has(key) || loaded.sources[key] === 'managed';
    if (!managedByIt) continue;
    const current: unknown = loaded.settings[key];
    if (value !== null && isDeepStrictEqual(value, current)) {
      parsed.delete(key);
    } else {
      refused.push({ field: key, message: `is managed by IT (${loaded.files.managed}) and cannot be changed here` });
    }
  }
  if (refused.length > 0) throw new SettingsError('locked', refused);

  const file = userSettingsPath(userDir);
  const current = await readUserSettings(file);
  const next = perSetting<unknown>((key) => {
    // A policy setting left in the file was ignored at load; it is not written back.
    if (isPolicyKey(key)) return undefined;
    if (!parsed.has(key)) return current[key];
    const value = parsed.get(key);
    return value === null ? undefined : value;
  });
  const user = SettingsFile.parse(Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)));

  const result = resolveSettings(user, managedPart(loaded), { user: file, managed: loaded.files.managed });
  await writeFileAtomic(file, `${JSON.stringify(user, null, 2)}\n`, { mode: 0o644 });
  return result;
}
