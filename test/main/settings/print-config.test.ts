// --print-config: each effective setting with its value, its source and IT's lock, read the way the app reads them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  parsePrintConfigArgs,
  printConfig,
  SETTING_KEYS,
  type ConfigReport,
  type SecretPresence,
} from '../../../main/settings';
import { folders, SANDBOX, writeJson, type Folders } from './helpers';

let f: Folders;
beforeEach(() => {
  f = folders();
  mkdirSync(f.userDir, { recursive: true });
  mkdirSync(dirname(f.managedPath), { recursive: true });
});
afterEach(() => f.cleanup());

const userFile = (): string => join(f.userDir, 'settings.json');

/** A secret store that holds only the client secret (a real EncryptedSecretStore needs Electron's safeStorage). */
const secrets: SecretPresence = {
  names: ['clientSecret', 'smtpPassword'],
  has: (name) => Promise.resolve(name === 'clientSecret'),
};

describe('parsePrintConfigArgs', () => {
  it('reads --print-config (text) and --print-config=json; refuses another value', () => {
    expect(parsePrintConfigArgs(['app', '--print-config'])).toEqual({ kind: 'print', format: 'text' });
    expect(parsePrintConfigArgs(['app', '--user-data-dir=/x', '--print-config=json'])).toEqual({
      kind: 'print',
      format: 'json',
    });
    expect(parsePrintConfigArgs(['app', '--print-config=yaml'])).toMatchObject({
      kind: 'invalid',
      message: expect.stringMatching(/=json/) as unknown,
    });
    expect(parsePrintConfigArgs(['app'])).toEqual({ kind: 'none' });
  });
});

describe('printConfig', () => {
  beforeEach(() => {
    writeJson(userFile(), { language: 'en-US', idleTimeoutMinutes: 5, environment: 'production' });
    writeJson(f.managedPath, {
      settings: {
        ...SANDBOX,
        idleTimeoutMinutes: 10,
        updates: { url: 'https://updates.example.test/desk', channel: 'pilot' },
      },
      locked: ['environment', 'updates', 'returnUrl'],
    });
  });

  it('json: every setting with its effective value, source and lock, the two files, and which secrets are stored', async () => {
    const result = await printConfig({ ...f, format: 'json', secrets });
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.output) as ConfigReport;
    expect(report.files).toEqual({
      user: { path: userFile(), found: true },
      managed: { path: f.managedPath, found: true },
    });
    expect(report.settings.map((entry) => entry.setting)).toEqual([...SETTING_KEYS]);
    const byKey = Object.fromEntries(report.settings.map((entry) => [entry.setting, entry]));
    // The user's production is overridden by IT's sandbox, which is locked.
    expect(byKey['environment']).toEqual({ setting: 'environment', value: 'sandbox', source: 'managed', locked: true });
    expect(byKey['idleTimeoutMinutes']).toEqual({
      setting: 'idleTimeoutMinutes',
      value: 10,
      source: 'managed',
      locked: false,
    });
    expect(byKey['language']).toEqual({ setting: 'language', value: 'en-US', source: 'user', locked: false });
    expect(byKey['returnUrl']).toEqual({ setting: 'returnUrl', source: 'default', locked: true });
    expect(byKey['updates']).toMatchObject({
      value: { url: 'https://updates.example.test/desk', channel: 'pilot' },
      source: 'managed',
      locked: true,
    });
    expect(report.secrets).toEqual({ clientSecret: 'stored', smtpPassword: 'not stored' });
  });

  it('text: one aligned line per setting saying where its value comes from', async () => {
    const result = await printConfig({ ...f, format: 'text', secrets });
    expect(result.exitCode).toBe(0);
    const lines = result.output.split('\n');
    expect(lines[0]).toBe(`user file:    ${userFile()} (found)`);
    expect(lines[1]).toBe(`managed file: ${f.managedPath} (found)`);
    const line = (setting: string): string => lines.find((text) => text.startsWith(`${setting} `)) ?? '';
    expect(line('environment')).toMatch(/^environment +"sandbox" +managed file, locked by IT$/);
    expect(line('language')).toMatch(/^language +"en-US" +user file$/);
    expect(line('returnUrl')).toMatch(/^returnUrl +\(not set\) +default, locked by IT$/);
    expect(line('messaging')).toMatch(/^messaging +\(not set\) +default$/);
    expect(result.output).toMatch(/clientSecret +stored\n/);
    expect(result.output).toMatch(/smtpPassword +not stored\n/);
    // Every value column starts at the same place.
    const starts = SETTING_KEYS.map((key) => line(key).search(/ {2}\S/));
    expect(new Set(starts).size).toBe(1);
  });

  it('a policy setting in the user file is reported as ignored (json and text), naming what IT must do', async () => {
    writeJson(userFile(), { language: 'en-US', refundLimits: {}, messaging: { providers: { email: 'none' } } });
    const json = JSON.parse((await printConfig({ ...f, format: 'json' })).output) as ConfigReport;
    expect(json.ignored?.map((entry) => entry.setting)).toEqual(['refundLimits', 'messaging']);
    expect(json.settings.find((entry) => entry.setting === 'refundLimits')).toMatchObject({ source: 'default' });
    const text = (await printConfig({ ...f, format: 'text' })).output;
    expect(text).toMatch(/ignored in the user file \(set only by IT\):\n {2}refundLimits +is set only by IT/);
  });

  it('no files at all: the defaults, both files "not found"', async () => {
    const empty = folders();
    try {
      const result = await printConfig({ userDir: empty.userDir, managedPath: empty.managedPath, format: 'json' });
      const report = JSON.parse(result.output) as ConfigReport;
      expect(report.files.managed.found).toBe(false);
      expect(report.files.user.found).toBe(false);
      expect(report.settings.every((entry) => entry.source === 'default' && !entry.locked)).toBe(true);
      expect(report.secrets).toBeUndefined();
    } finally {
      empty.cleanup();
    }
  });

  it('settings that do not load: exit code 1 and the reason, naming the field and the file', async () => {
    writeFileSync(f.managedPath, JSON.stringify({ settings: { idleTimeoutMinutes: 30 } }));
    const text = await printConfig({ ...f, format: 'text' });
    expect(text.exitCode).toBe(1);
    expect(text.output).toContain(f.managedPath);
    expect(text.output).toMatch(/idleTimeoutMinutes: must be a whole number of minutes from 1 to 15/);
    const json = await printConfig({ ...f, format: 'json' });
    expect(JSON.parse(json.output)).toMatchObject({ error: { code: 'managed_file_invalid', file: f.managedPath } });
  });

  it('a secret store that cannot be read is reported, not fatal', async () => {
    const broken: SecretPresence = {
      names: ['clientSecret'],
      has: () => Promise.reject(new Error('The secret store is damaged.')),
    };
    const result = await printConfig({ ...f, format: 'json', secrets: broken });
    expect((JSON.parse(result.output) as ConfigReport).secrets).toEqual({
      clientSecret: 'unknown: The secret store is damaged.',
    });
  });
});
