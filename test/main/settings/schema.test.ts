// The settings rules one by one: each field's own check, and the cross-field rules of sandbox and production (spec §1).
import { describe, expect, it } from 'vitest';
import { describeProblem } from '../../../main/cli/messages';
import { SettingsError, SettingsSchema, toServiceSettings, type Settings } from '../../../main/settings';
import { PRODUCTION, SANDBOX } from './helpers';

/** The fields named by the issues of a parse, or [] when it passes. */
function failingFields(input: unknown): string[] {
  const result = SettingsSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

function message(input: unknown): string {
  const result = SettingsSchema.safeParse(input);
  return result.success
    ? ''
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}

describe('consistency rules', () => {
  it('complete sandbox and production settings pass; training needs nothing', () => {
    expect(failingFields(SANDBOX)).toEqual([]);
    expect(failingFields(PRODUCTION)).toEqual([]);
    expect(failingFields({})).toEqual([]);
  });

  it('a pk_live_ key is refused in sandbox', () => {
    expect(failingFields({ ...SANDBOX, publishableKey: 'pk_live_abc' })).toEqual(['publishableKey']);
    expect(message({ ...SANDBOX, publishableKey: 'pk_live_abc' })).toMatch(
      /^publishableKey: is a live key .* sandbox mode; use the pk_sandbox_ key$/,
    );
  });

  it('a pk_sandbox_ key is refused in production', () => {
    expect(failingFields({ ...PRODUCTION, publishableKey: 'pk_sandbox_abc' })).toEqual(['publishableKey']);
    expect(message({ ...PRODUCTION, publishableKey: 'pk_sandbox_abc' })).toMatch(
      /production mode; use the pk_live_ key$/,
    );
  });

  it('a key that is neither is refused anywhere', () => {
    expect(message({ publishableKey: 'sk_live_abc' })).toBe('publishableKey: must start with pk_sandbox_ or pk_live_');
  });

  it.each(['authUrl', 'cdeUrl', 'baseUrl'] as const)(
    'an http %s is refused outside training, allowed in training',
    (key) => {
      for (const base of [SANDBOX, PRODUCTION]) {
        expect(failingFields({ ...base, [key]: 'http://127.0.0.1:8080/api' })).toEqual([key]);
        expect(message({ ...base, [key]: 'http://127.0.0.1:8080/api' })).toMatch(
          new RegExp(`^${key}: must use https in ${base.environment} mode`),
        );
      }
      expect(failingFields({ environment: 'training', [key]: 'http://127.0.0.1:8080/api' })).toEqual([]);
    },
  );

  it.each(['authUrl', 'cdeUrl', 'baseUrl', 'clientId', 'publishableKey'] as const)(
    'a missing %s is refused in sandbox and production',
    (key) => {
      for (const base of [SANDBOX, PRODUCTION]) {
        const rest: Record<string, unknown> = { ...base };
        delete rest[key];
        expect(failingFields(rest)).toEqual([key]);
        expect(message(rest)).toBe(`${key}: is required in ${base.environment} mode`);
      }
    },
  );

  it('every problem is reported at once, each under its field', () => {
    expect(
      failingFields({
        environment: 'production',
        authUrl: 'http://a.example.test',
        publishableKey: 'pk_sandbox_1',
      }).sort(),
    ).toEqual(['authUrl', 'baseUrl', 'cdeUrl', 'clientId', 'publishableKey']);
  });
});

describe('single fields', () => {
  it.each([
    [{ returnUrl: 'http://hotel.example.test/done' }, 'returnUrl: must be an https URL'],
    [{ returnUrl: 'not a url' }, 'returnUrl: must be an https URL'],
    [{ idleTimeoutMinutes: 0 }, 'idleTimeoutMinutes: must be a whole number of minutes from 1 to 15'],
    [{ idleTimeoutMinutes: 16 }, 'idleTimeoutMinutes: must be a whole number of minutes from 1 to 15'],
    [{ idleTimeoutMinutes: 2.5 }, 'idleTimeoutMinutes: must be a whole number of minutes from 1 to 15'],
    [{ language: 'fr-FR' }, 'language: must be es-MX or en-US'],
    [{ clientId: '   ' }, 'clientId: must not be empty'],
    [{ authUrl: 'ftp://auth.example.test' }, 'authUrl: must be an http(s) URL'],
    [{ updates: { url: 'http://updates.example.test/desk' } }, 'updates.url: must be an https URL'],
    [
      { updates: { url: 'https://updates.example.test/desk', channel: 'beta' } },
      'updates.channel: must be "stable" or "pilot"',
    ],
    [{ updates: { channel: 'pilot' } }, 'updates.url: must be an https URL'],
  ])('%j is refused: %s', (input, expected) => {
    expect(message(input)).toBe(expected);
  });

  it('accepts the limits and fills the defaults', () => {
    expect(SettingsSchema.parse({ idleTimeoutMinutes: 1 }).idleTimeoutMinutes).toBe(1);
    expect(SettingsSchema.parse({ idleTimeoutMinutes: 15, returnUrl: 'https://hotel.example.test/3ds' })).toEqual({
      environment: 'training',
      idleTimeoutMinutes: 15,
      language: 'es-MX',
      returnUrl: 'https://hotel.example.test/3ds',
    });
  });

  it('updates: the channel is stable unless IT says pilot; unknown members are refused', () => {
    expect(SettingsSchema.parse({ updates: { url: 'https://updates.example.test/desk' } }).updates).toEqual({
      url: 'https://updates.example.test/desk',
      channel: 'stable',
    });
    expect(
      SettingsSchema.parse({ updates: { url: 'https://updates.example.test/desk', channel: 'pilot' } }).updates
        ?.channel,
    ).toBe('pilot');
    expect(failingFields({ updates: { url: 'https://updates.example.test/desk', provider: 'github' } })).toEqual([
      'updates',
    ]);
    expect(SettingsSchema.parse({}).updates).toBeUndefined();
  });
});

describe('toServiceSettings', () => {
  it('training: nothing but the environment (the simulator brings its own hosts)', () => {
    expect(toServiceSettings(SettingsSchema.parse({ authUrl: 'http://x.example.test' }))).toEqual({
      environment: 'training',
    });
  });

  it('sandbox and production: the hosts and the client id, which main/payments/connect.ts takes as they are', () => {
    for (const base of [SANDBOX, PRODUCTION]) {
      expect(toServiceSettings(SettingsSchema.parse({ ...base, language: 'en-US' }))).toEqual({
        environment: base.environment,
        authUrl: base.authUrl,
        cdeUrl: base.cdeUrl,
        baseUrl: base.baseUrl,
        clientId: base.clientId,
      });
    }
  });

  it('the returnUrl setting reaches the engine, which sends it with every new payment', () => {
    expect(
      toServiceSettings(SettingsSchema.parse({ ...PRODUCTION, returnUrl: 'https://hotel.example.test/3ds' })),
    ).toMatchObject({ returnUrl: 'https://hotel.example.test/3ds' });
  });

  it('refuses incomplete settings that did not come through the schema', () => {
    const incomplete: Settings = {
      environment: 'production',
      idleTimeoutMinutes: 15,
      language: 'es-MX',
      authUrl: 'https://a.example.test',
    };
    expect(() => toServiceSettings(incomplete)).toThrow(SettingsError);
    const error = (() => {
      try {
        return toServiceSettings(incomplete);
      } catch (caught) {
        return caught;
      }
    })() as SettingsError;
    expect(error.params).toMatchObject({ problem: 'incomplete', environment: 'production' });
    expect(describeProblem(error)).toMatch(/cdeUrl: is required in production mode/);
  });
});
