// Settings sources: defaults < the user's settings.json < IT's managed file (which also locks), and the errors for bad files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeProblem } from '../../../main/cli/messages';
import {
  DEFAULT_SETTINGS,
  loadSettings,
  managedSettingsPath,
  MAX_SETTINGS_FILE_BYTES,
  POLICY_KEYS,
  SETTING_KEYS,
} from '../../../main/settings';
import { folders, SANDBOX, settingsError, writeJson, type Folders } from './helpers';

let f: Folders;
beforeEach(() => {
  f = folders();
  mkdirSync(f.userDir, { recursive: true });
  mkdirSync(dirname(f.managedPath), { recursive: true });
});
afterEach(() => f.cleanup());

const userFile = (): string => join(f.userDir, 'settings.json');

describe('loadSettings: sources and precedence', () => {
  it('no files: the defaults (training, 15 minutes, es-MX), all from "default", nothing locked', async () => {
    const loaded = await loadSettings(f);
    expect(loaded.settings).toEqual({ environment: 'training', idleTimeoutMinutes: 15, language: 'es-MX' });
    expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
    expect(Object.values(loaded.sources)).toEqual(SETTING_KEYS.map(() => 'default'));
    expect(loaded.locked.size).toBe(0);
    expect(loaded.files).toEqual({ user: userFile(), managed: f.managedPath });
    expect(loaded.ignored).toEqual([]);
  });

  it('the user file overrides the defaults', async () => {
    writeJson(userFile(), { language: 'en-US', idleTimeoutMinutes: 5 });
    const loaded = await loadSettings(f);
    expect(loaded.settings).toMatchObject({ environment: 'training', language: 'en-US', idleTimeoutMinutes: 5 });
    expect(loaded.sources).toMatchObject({ environment: 'default', language: 'user', idleTimeoutMinutes: 'user' });
  });

  it('the managed file overrides the user file, key by key', async () => {
    writeJson(userFile(), { language: 'en-US', idleTimeoutMinutes: 5 });
    writeJson(f.managedPath, { settings: { idleTimeoutMinutes: 10, ...SANDBOX } });
    const loaded = await loadSettings(f);
    expect(loaded.settings).toMatchObject({ ...SANDBOX, language: 'en-US', idleTimeoutMinutes: 10 });
    expect(loaded.sources).toMatchObject({
      environment: 'managed',
      clientId: 'managed',
      language: 'user',
      idleTimeoutMinutes: 'managed',
      returnUrl: 'default',
    });
    expect(loaded.locked.size).toBe(0);
  });

  it('a locked setting ignores the user value even when IT sets none (it stays at the default)', async () => {
    writeJson(userFile(), { language: 'en-US', idleTimeoutMinutes: 5 });
    writeJson(f.managedPath, { locked: ['idleTimeoutMinutes', 'environment'] });
    const loaded = await loadSettings(f);
    expect(loaded.settings).toMatchObject({ environment: 'training', idleTimeoutMinutes: 15, language: 'en-US' });
    expect(loaded.sources).toMatchObject({ idleTimeoutMinutes: 'default', language: 'user' });
    expect([...loaded.locked].sort()).toEqual(['environment', 'idleTimeoutMinutes']);
  });

  it('updates: IT sets and locks the update server; the user can neither move the desk to pilot nor turn updates off', async () => {
    writeJson(userFile(), {
      updates: { url: 'https://elsewhere.example.test/desk', channel: 'pilot' },
      language: 'en-US',
    });
    writeJson(f.managedPath, {
      settings: { updates: { url: 'https://updates.example.test/desk' } },
      locked: ['updates'],
    });
    const loaded = await loadSettings(f);
    expect(loaded.settings.updates).toEqual({ url: 'https://updates.example.test/desk', channel: 'stable' });
    expect(loaded.sources).toMatchObject({ updates: 'managed', language: 'user' });
    expect(loaded.locked.has('updates')).toBe(true);
  });

  it("updates locked with no value: the user's update server is ignored and updates stay off", async () => {
    writeJson(userFile(), { updates: { url: 'https://elsewhere.example.test/desk' } });
    writeJson(f.managedPath, { locked: ['updates'] });
    const loaded = await loadSettings(f);
    expect(loaded.settings.updates).toBeUndefined();
    expect(loaded.sources.updates).toBe('default');
  });

  it('the managed file may name its JSON schema ("$schema", for IT\'s editor)', async () => {
    writeJson(f.managedPath, { $schema: './managed-settings.schema.json', settings: { language: 'en-US' } });
    expect((await loadSettings(f)).settings.language).toBe('en-US');
  });

  it('a UTF-8 byte-order mark (Windows editors) is accepted', async () => {
    writeFileSync(f.managedPath, `\uFEFF${JSON.stringify({ settings: { language: 'en-US' } })}`);
    expect((await loadSettings(f)).settings.language).toBe('en-US');
  });

  it('a combination that breaks a rule names the field and where its value comes from', async () => {
    writeJson(userFile(), { publishableKey: 'pk_live_123' });
    writeJson(f.managedPath, { settings: { ...SANDBOX, publishableKey: undefined }, locked: ['environment'] });
    const error = await settingsError(() => loadSettings(f), 'invalid_settings');
    expect(error.issues).toEqual([
      {
        field: 'publishableKey',
        message: expect.stringMatching(/live key.*sandbox.*from .*settings\.json/) as unknown,
      },
    ]);
    expect(describeProblem(error)).toMatch(/^The settings are not valid: publishableKey: /);
  });
});

describe('loadSettings: policy settings come only from IT', () => {
  // Where the stored webhook credential and reservation access key would be sent.
  const messaging = {
    providers: { sms: 'webhook' },
    webhook: {
      url: 'https://attacker.example.test/hook',
      statusUrl: 'https://attacker.example.test/status/{messageId}',
      authHeaderName: 'Authorization',
    },
  };
  const reservations = { kind: 'rest', baseUrl: 'https://attacker.example.test/pms', authHeader: 'X-Api-Key' };

  it('are the refund limits, the reservation source, messaging, the service hosts, the 3-D Secure return page and the center', () => {
    expect([...POLICY_KEYS].sort()).toEqual([
      'authUrl',
      'baseUrl',
      'cdeUrl',
      'center',
      'messaging',
      'refundLimits',
      'reservations',
      'returnUrl',
    ]);
  });

  it("the user cannot send guests to a page of their choosing after 3-D Secure: their returnUrl is ignored, in words; IT's applies", async () => {
    writeJson(userFile(), { returnUrl: 'https://attacker.example.test/3ds-done', language: 'en-US' });
    let loaded = await loadSettings(f);
    expect(loaded.settings.returnUrl).toBeUndefined();
    expect(loaded.sources).toMatchObject({ returnUrl: 'default', language: 'user' });
    expect(loaded.ignored).toEqual([
      { field: 'returnUrl', message: expect.stringMatching(/set only by IT/) as unknown },
    ]);
    writeJson(f.managedPath, { settings: { ...SANDBOX, returnUrl: 'https://hotel.example.test/payment-done' } });
    loaded = await loadSettings(f);
    expect(loaded.settings.returnUrl).toBe('https://hotel.example.test/payment-done');
    expect(loaded.sources.returnUrl).toBe('managed');
    expect(loaded.ignored.map((issue) => issue.field)).toEqual(['returnUrl']);
  });

  it("a user's returnUrl that would not pass (http) is ignored too, and does not stop the desk", async () => {
    writeJson(userFile(), { returnUrl: 'http://attacker.example.test/3ds-done', language: 'en-US' });
    const loaded = await loadSettings(f);
    expect(loaded.settings).toMatchObject({ language: 'en-US' });
    expect(loaded.settings.returnUrl).toBeUndefined();
    expect(loaded.ignored.map((issue) => issue.field)).toEqual(['returnUrl']);
  });

  it('the user cannot point the desk at another center (where the centerPassword would go): ignored, in words', async () => {
    writeJson(userFile(), { center: { host: 'attacker.example.test', database: 'd', user: 'u' }, language: 'en-US' });
    const loaded = await loadSettings(f);
    expect(loaded.settings.center).toBeUndefined();
    expect(loaded.sources.center).toBe('default');
    expect(loaded.ignored).toEqual([{ field: 'center', message: expect.stringMatching(/set only by IT/) as unknown }]);
  });

  it('IT sets the center in the managed file, with its defaults filled in; a password there is refused', async () => {
    writeJson(f.managedPath, {
      settings: { center: { host: 'db.center.example', database: 'card_desk', user: 'card_desk_app' } },
    });
    const loaded = await loadSettings(f);
    expect(loaded.settings.center).toEqual({
      host: 'db.center.example',
      port: 5432,
      database: 'card_desk',
      user: 'card_desk_app',
      sslmode: 'verify-full',
    });
    expect(loaded.sources.center).toBe('managed');
    writeJson(f.managedPath, {
      settings: {
        center: { host: 'db.center.example', database: 'card_desk', user: 'card_desk_app', password: 'hunter2' },
      },
    });
    const error: unknown = await loadSettings(f).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'managed_file_invalid' });
    expect(describeProblem(error)).toMatch(/center/);
    expect(describeProblem(error)).not.toContain('hunter2');
  });

  it('{"refundLimits": {}} in the user file does not lift the cap: it is ignored, in words naming the setting and both files', async () => {
    writeJson(userFile(), { refundLimits: {}, language: 'en-US' });
    const loaded = await loadSettings(f);
    expect(loaded.settings.refundLimits).toBeUndefined();
    expect(loaded.sources).toMatchObject({ refundLimits: 'default', language: 'user' });
    expect(loaded.settings.language).toBe('en-US');
    expect(loaded.ignored).toEqual([
      { field: 'refundLimits', message: expect.stringMatching(/set only by IT/) as unknown },
    ]);
    expect(loaded.ignored[0]?.message).toContain(userFile());
    expect(loaded.ignored[0]?.message).toContain(f.managedPath);
  });

  it('a policy setting in the user file is not even checked: an outdated or broken one cannot stop the desk', async () => {
    writeJson(userFile(), {
      refundLimits: 'none at all',
      messaging: { providers: { sms: 'carrier pigeon' } },
      language: 'en-US',
    });
    const loaded = await loadSettings(f);
    expect(loaded.settings.language).toBe('en-US');
    expect(loaded.settings.messaging).toBeUndefined();
    expect(loaded.ignored.map((issue) => issue.field).sort()).toEqual(['messaging', 'refundLimits']);
  });

  it('the user cannot repoint the service, the reservation system or the message providers (where the stored keys would go)', async () => {
    writeJson(f.managedPath, { settings: { ...SANDBOX } });
    writeJson(userFile(), {
      baseUrl: 'https://attacker.example.test',
      authUrl: 'https://attacker.example.test',
      reservations,
      messaging,
    });
    const loaded = await loadSettings(f);
    expect(loaded.settings).toMatchObject({ baseUrl: SANDBOX.baseUrl, authUrl: SANDBOX.authUrl });
    expect(loaded.settings.reservations).toBeUndefined();
    expect(loaded.settings.messaging).toBeUndefined();
    expect(loaded.sources).toMatchObject({
      baseUrl: 'managed',
      authUrl: 'managed',
      reservations: 'default',
      messaging: 'default',
    });
    expect(loaded.ignored.map((issue) => issue.field).sort()).toEqual([
      'authUrl',
      'baseUrl',
      'messaging',
      'reservations',
    ]);
  });

  it('IT sets them in the managed file, and they apply', async () => {
    writeJson(f.managedPath, { settings: { refundLimits: { supervisor: { usd: 300 } }, reservations, messaging } });
    const loaded = await loadSettings(f);
    expect(loaded.settings.refundLimits).toEqual({ supervisor: { usd: 300 } });
    expect(loaded.settings.reservations).toMatchObject({ kind: 'rest', baseUrl: 'https://attacker.example.test/pms' });
    expect(loaded.sources).toMatchObject({ refundLimits: 'managed', reservations: 'managed', messaging: 'managed' });
    expect(loaded.ignored).toEqual([]);
  });

  it('production hosts only in the user file: the app does not start, and says the hosts must come from IT', async () => {
    writeJson(f.managedPath, {
      settings: { environment: 'production', clientId: 'client-live', publishableKey: 'pk_live_abc' },
    });
    writeJson(userFile(), {
      authUrl: 'https://auth.example.test',
      cdeUrl: 'https://cde.example.test',
      baseUrl: 'https://api.example.test',
    });
    const error = await settingsError(() => loadSettings(f), 'invalid_settings');
    expect(error.issues.map((issue) => issue.field)).toEqual(['authUrl', 'cdeUrl', 'baseUrl']);
    expect(error.issues[0]?.message).toMatch(/is required in production mode \(not set; .*set only by IT/);
  });
});

describe('loadSettings: files over 1 MB are refused, never read whole', () => {
  const big = (): string => JSON.stringify({ language: 'en-US', padding: 'x'.repeat(MAX_SETTINGS_FILE_BYTES) });

  it('the user file → user_file_invalid, naming the file and the size limit', async () => {
    writeFileSync(userFile(), big());
    const error = await settingsError(() => loadSettings(f), 'user_file_invalid');
    expect(error.file).toBe(userFile());
    expect(error.params).toMatchObject({
      problem: 'too_large',
      bytes: expect.any(Number) as unknown,
      file: userFile(),
    });
    expect(describeProblem(error)).toMatch(/is larger than 1 MB/);
  });

  it('the managed file → managed_file_invalid', async () => {
    writeFileSync(f.managedPath, big());
    const error = await settingsError(() => loadSettings(f), 'managed_file_invalid');
    expect(describeProblem(error)).toMatch(/is larger than 1 MB.*IT must/);
  });

  it('a file of exactly 1 MB is still read', async () => {
    const text = JSON.stringify({ language: 'en-US' });
    writeFileSync(userFile(), text + ' '.repeat(MAX_SETTINGS_FILE_BYTES - text.length));
    expect((await loadSettings(f)).settings.language).toBe('en-US');
  });
});

describe('loadSettings: the managed file is never silently ignored', () => {
  it.each([
    ['not JSON', '{ "settings": { "environment": "sandbox", } ', /not valid JSON/],
    ['empty', '', /not valid JSON/],
    [
      'an unknown setting',
      JSON.stringify({ settings: { enviroment: 'sandbox' } }),
      /settings\.enviroment: unknown setting "enviroment"/,
    ],
    ['an unknown member', JSON.stringify({ settings: {}, lock: ['environment'] }), /lock: Unrecognized key: "lock"/],
    [
      'a bad value',
      JSON.stringify({ settings: { idleTimeoutMinutes: 30 } }),
      /idleTimeoutMinutes: must be a whole number of minutes from 1 to 15/,
    ],
    ['an unknown locked key', JSON.stringify({ locked: ['colour'] }), /locked\.0: /],
    [
      'the client secret',
      JSON.stringify({ settings: { clientSecret: 'abc' } }),
      /settings\.clientSecret: "clientSecret" is not a setting: .*--provision-secret/,
    ],
    ['not an object', '[]', /expected object/],
  ])('%s → managed_file_invalid, naming the file and the field', async (_case, text, message) => {
    writeFileSync(f.managedPath, text);
    const error = await settingsError(() => loadSettings(f), 'managed_file_invalid');
    expect(error.file).toBe(f.managedPath);
    expect(describeProblem(error)).toContain(f.managedPath);
    expect(describeProblem(error)).toMatch(message);
    expect(describeProblem(error)).not.toContain('abc');
  });

  it('an unreadable managed file (a folder in its place) → managed_file_unreadable', async () => {
    mkdirSync(f.managedPath);
    const error = await settingsError(() => loadSettings(f), 'managed_file_unreadable');
    expect(error.params).toEqual({ problem: 'unreadable', errno: 'EISDIR', file: f.managedPath });
    expect(describeProblem(error)).toMatch(/exists but cannot be read \(EISDIR\)/);
  });

  it('an invalid user file is an error too (falling back to training could take "payments" that are not real)', async () => {
    writeFileSync(userFile(), '{"language": "fr-FR"}');
    const error = await settingsError(() => loadSettings(f), 'user_file_invalid');
    expect(error.issues).toEqual([{ field: 'language', message: 'must be es-MX or en-US' }]);
    expect(describeProblem(error)).toMatch(/delete it to start from the defaults/);
  });
});

describe('managedSettingsPath', () => {
  it('one documented path per OS', () => {
    expect(managedSettingsPath('win32', { ProgramData: 'D:\\ProgramData' })).toBe(
      'D:\\ProgramData\\CardPaymentsDesk\\managed-settings.json',
    );
    expect(managedSettingsPath('win32', { PROGRAMDATA: 'C:\\ProgramData' })).toBe(
      'C:\\ProgramData\\CardPaymentsDesk\\managed-settings.json',
    );
    expect(managedSettingsPath('win32', {})).toBe('C:\\ProgramData\\CardPaymentsDesk\\managed-settings.json');
    expect(managedSettingsPath('darwin', {})).toBe(
      '/Library/Application Support/CardPaymentsDesk/managed-settings.json',
    );
    expect(managedSettingsPath('linux', { ProgramData: '/tmp' })).toBe('/etc/card-payments-desk/managed-settings.json');
  });
});
