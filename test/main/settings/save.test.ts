// Saving the user's changes: locked settings refused, inconsistent results refused, atomic writes, never the client secret.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeProblem } from '../../../main/cli/messages';
import { loadSettings, saveUserSettings, type SettingsChanges } from '../../../main/settings';
import { folders, SANDBOX, settingsError, writeJson, type Folders } from './helpers';

let f: Folders;
beforeEach(() => {
  f = folders();
  mkdirSync(dirname(f.managedPath), { recursive: true });
});
afterEach(() => f.cleanup());

const userFile = (): string => join(f.userDir, 'settings.json');
const readUser = (): unknown => JSON.parse(readFileSync(userFile(), 'utf8'));

describe('saveUserSettings', () => {
  it('writes the changes (creating the folder), returns the new settings, and a reload agrees', async () => {
    const saved = await saveUserSettings(
      f.userDir,
      { language: 'en-US', idleTimeoutMinutes: 3 },
      await loadSettings(f),
    );
    expect(saved.settings).toMatchObject({ environment: 'training', language: 'en-US', idleTimeoutMinutes: 3 });
    expect(saved.sources).toMatchObject({ language: 'user', idleTimeoutMinutes: 'user', environment: 'default' });
    expect(readUser()).toEqual({ language: 'en-US', idleTimeoutMinutes: 3 });
    expect(await loadSettings(f)).toEqual(saved);
  });

  it('keeps the other user values; null puts a setting back to its default', async () => {
    mkdirSync(f.userDir, { recursive: true });
    writeFileSync(userFile(), JSON.stringify({ language: 'en-US', idleTimeoutMinutes: 3 }));
    writeJson(f.managedPath, {
      settings: { authUrl: SANDBOX.authUrl, cdeUrl: SANDBOX.cdeUrl, baseUrl: SANDBOX.baseUrl },
    });
    const { environment, clientId, publishableKey } = SANDBOX;
    const saved = await saveUserSettings(
      f.userDir,
      { idleTimeoutMinutes: null, environment, clientId, publishableKey },
      await loadSettings(f),
    );
    expect(readUser()).toEqual({ language: 'en-US', environment, clientId, publishableKey });
    expect(saved.settings).toMatchObject({ ...SANDBOX, idleTimeoutMinutes: 15 });
  });

  it('refuses a policy setting (refund limits, reservations, messaging, service hosts, 3-D Secure return page): IT sets those, and nothing is written', async () => {
    const loaded = await loadSettings(f);
    const changes = {
      refundLimits: {},
      baseUrl: 'https://elsewhere.example.test',
      returnUrl: 'https://elsewhere.example.test/3ds',
      language: 'en-US',
    } as const;
    const error = await settingsError(() => saveUserSettings(f.userDir, changes, loaded), 'locked');
    expect(error.issues).toEqual([
      { field: 'refundLimits', message: expect.stringMatching(/is set only by IT, in the managed file/) as unknown },
      { field: 'baseUrl', message: expect.stringMatching(/is set only by IT, in the managed file/) as unknown },
      { field: 'returnUrl', message: expect.stringMatching(/is set only by IT, in the managed file/) as unknown },
    ]);
    expect(existsSync(userFile())).toBe(false);
  });

  it('a policy setting already in the user file stays ignored and is not written again by a save', async () => {
    mkdirSync(f.userDir, { recursive: true });
    writeFileSync(userFile(), JSON.stringify({ refundLimits: {}, idleTimeoutMinutes: 3 }));
    const saved = await saveUserSettings(f.userDir, { language: 'en-US' }, await loadSettings(f));
    expect(readUser()).toEqual({ idleTimeoutMinutes: 3, language: 'en-US' });
    expect(saved.settings.refundLimits).toBeUndefined();
  });

  it('refuses a change to a locked setting, and writes nothing', async () => {
    writeJson(f.managedPath, { locked: ['environment'] });
    const loaded = await loadSettings(f);
    const error = await settingsError(
      () => saveUserSettings(f.userDir, { environment: 'sandbox', clientId: SANDBOX.clientId }, loaded),
      'locked',
    );
    expect(error.issues).toEqual([
      { field: 'environment', message: expect.stringContaining('managed by IT') as unknown },
    ]);
    expect(describeProblem(error)).toContain(f.managedPath);
    expect(existsSync(userFile())).toBe(false);
    // Removing the user's value is a change too.
    await settingsError(() => saveUserSettings(f.userDir, { environment: null }, loaded), 'locked');
  });

  it('refuses a change to a setting the managed file sets (it would have no effect), but accepts the same value sent back', async () => {
    writeJson(f.managedPath, { settings: { language: 'en-US' } });
    const loaded = await loadSettings(f);
    const error = await settingsError(() => saveUserSettings(f.userDir, { language: 'es-MX' }, loaded), 'locked');
    expect(error.issues.map((issue) => issue.field)).toEqual(['language']);
    const saved = await saveUserSettings(f.userDir, { language: 'en-US', idleTimeoutMinutes: 7 }, loaded);
    expect(readUser()).toEqual({ idleTimeoutMinutes: 7 });
    expect(saved.sources).toMatchObject({ language: 'managed', idleTimeoutMinutes: 'user' });
  });

  it('refuses a result that breaks a rule, naming the field, and writes nothing', async () => {
    writeJson(f.managedPath, {
      settings: { authUrl: SANDBOX.authUrl, cdeUrl: SANDBOX.cdeUrl, baseUrl: SANDBOX.baseUrl },
    });
    const loaded = await loadSettings(f);
    const { environment, clientId } = SANDBOX;
    const error = await settingsError(
      () => saveUserSettings(f.userDir, { environment, clientId, publishableKey: 'pk_live_1' }, loaded),
      'invalid_settings',
    );
    expect(error.issues.map((issue) => issue.field)).toEqual(['publishableKey']);
    expect(existsSync(userFile())).toBe(false);
  });

  it('refuses a bad value for a single field, naming it', async () => {
    const loaded = await loadSettings(f);
    const error = await settingsError(
      () => saveUserSettings(f.userDir, { returnUrl: 'http://hotel.example.test/3ds' }, loaded),
      'invalid_settings',
    );
    expect(error.params).toEqual({ problem: 'changes', settings: 'returnUrl' });
    expect(describeProblem(error)).toBe('The settings changes are not valid: returnUrl: must be an https URL');
  });

  it('never writes the client secret: it is not a setting', async () => {
    const changes = { clientSecret: 'super-secret-value', language: 'en-US' } as unknown as SettingsChanges;
    const error = await settingsError(
      async () => saveUserSettings(f.userDir, changes, await loadSettings(f)),
      'invalid_settings',
    );
    expect(describeProblem(error)).toMatch(/"clientSecret" is not a setting: .*kept encrypted/);
    expect(describeProblem(error)).not.toContain('super-secret-value');
    expect(existsSync(userFile())).toBe(false);
  });

  it('leaves no temp file behind', async () => {
    let loaded = await loadSettings(f);
    for (const minutes of [1, 2, 3, 4, 5])
      loaded = await saveUserSettings(f.userDir, { idleTimeoutMinutes: minutes }, loaded);
    expect(readdirSync(f.userDir)).toEqual(['settings.json']);
    expect(readUser()).toEqual({ idleTimeoutMinutes: 5 });
  });
});
