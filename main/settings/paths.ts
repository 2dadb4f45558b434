/** Where the settings live: the user's settings.json (in Electron's userData) and IT's machine-wide managed file. */
import path from 'node:path';

export const USER_SETTINGS_FILE = 'settings.json';

/** The user's settings file inside the folder the caller gives (Electron's userData). */
export function userSettingsPath(userDir: string): string {
  return path.join(userDir, USER_SETTINGS_FILE);
}

/**
 * The one documented place per OS where IT writes `managed-settings.json`:
 * - Windows: `%ProgramData%\CardPaymentsDesk\managed-settings.json` (C:\ProgramData when the variable is missing)
 * - macOS:   `/Library/Application Support/CardPaymentsDesk/managed-settings.json`
 * - Linux (and other Unix): `/etc/card-payments-desk/managed-settings.json`
 */
export function managedSettingsPath(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): string {
  switch (platform) {
    case 'win32': {
      // Windows variable names are case-insensitive; a plain object passed in is not.
      const name = Object.keys(env).find((key) => key.toLowerCase() === 'programdata');
      const programData = name === undefined ? undefined : env[name];
      const base = programData !== undefined && path.win32.isAbsolute(programData) ? programData : 'C:\\ProgramData';
      return path.win32.join(base, 'CardPaymentsDesk', 'managed-settings.json');
    }
    case 'darwin':
      return '/Library/Application Support/CardPaymentsDesk/managed-settings.json';
    default:
      return '/etc/card-payments-desk/managed-settings.json';
  }
}
