// Shared set-up for the settings tests: a temp folder standing in for Electron's userData, and a managed file path inside it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SettingsError, type SettingsErrorCode } from '../../../main/settings';

export interface Folders {
  userDir: string;
  /** IT's managed file; tests pass a temp path instead of managedSettingsPath(platform, env). */
  managedPath: string;
  cleanup: () => void;
}

export function folders(): Folders {
  const root = mkdtempSync(join(tmpdir(), 'settings-'));
  return {
    userDir: join(root, 'userData'),
    managedPath: join(root, 'managed', 'managed-settings.json'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value), { flag: 'w' });
}

/** The SettingsError a call throws; fails the test when it throws anything else or nothing. */
export async function settingsError(fn: () => unknown, code: SettingsErrorCode): Promise<SettingsError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof SettingsError) {
      if (error.code !== code)
        throw new Error(`expected ${code}, got ${error.code}: ${error.message}`, { cause: error });
      return error;
    }
    throw error;
  }
  throw new Error(`expected a SettingsError (${code}), but the call succeeded`);
}

export const SANDBOX = {
  environment: 'sandbox',
  authUrl: 'https://auth.sandbox.example.test',
  cdeUrl: 'https://cde.sandbox.example.test',
  baseUrl: 'https://api.sandbox.example.test',
  clientId: 'client-sandbox',
  publishableKey: 'pk_sandbox_abc123',
} as const;

export const PRODUCTION = {
  environment: 'production',
  authUrl: 'https://auth.example.test',
  cdeUrl: 'https://cde.example.test',
  baseUrl: 'https://api.example.test',
  clientId: 'client-live',
  publishableKey: 'pk_live_abc123',
} as const;
