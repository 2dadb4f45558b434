// The language preference over real settings files: saved to settings.json, refused when IT's managed file locks it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { languagePreference, loadSettings } from '../../../main/settings';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'preferences-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('languagePreference', () => {
  it('starts from the settings and saves a change to the user file', async () => {
    const managedPath = join(dir, 'managed.json');
    const preference = languagePreference(dir, await loadSettings({ userDir: dir, managedPath }));
    expect(preference.language()).toEqual({ language: 'es-MX', locked: false });
    expect(await preference.setLanguage('en-US')).toBe('en-US');
    expect(preference.language()).toEqual({ language: 'en-US', locked: false });
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toMatchObject({ language: 'en-US' });
    expect((await loadSettings({ userDir: dir, managedPath })).settings.language).toBe('en-US');
  });

  it('is locked when IT sets or locks it, and a change is refused with nothing written', async () => {
    const managedPath = join(dir, 'managed.json');
    writeFileSync(managedPath, JSON.stringify({ settings: { language: 'en-US' }, locked: ['language'] }));
    const preference = languagePreference(dir, await loadSettings({ userDir: dir, managedPath }));
    expect(preference.language()).toEqual({ language: 'en-US', locked: true });
    await expect(preference.setLanguage('es-MX')).rejects.toMatchObject({ name: 'SettingsError' });
    expect(preference.language().language).toBe('en-US');
    expect(() => readFileSync(join(dir, 'settings.json'))).toThrow();
  });
});
