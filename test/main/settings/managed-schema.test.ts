// IT's JSON schema for managed-settings.json: the committed file is exactly what the zod schema generates, and it agrees with the app's own check.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  MANAGED_SCHEMA_PATH,
  ManagedSettingsFile,
  managedSettingsJsonSchema,
  managedSettingsJsonSchemaText,
  POLICY_KEYS,
  SETTING_KEYS,
} from '../../../main/settings';
import { PRODUCTION } from './helpers';

const root = join(import.meta.dirname, '../../..');
const committed = readFileSync(join(root, MANAGED_SCHEMA_PATH), 'utf8');

/** ajv over the committed file; "format" is left to the app (ajv-formats is not installed, and the app checks URLs itself). */
function validator(): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: true, validateFormats: false, allErrors: true });
  return ajv.compile(JSON.parse(committed) as object);
}

describe('docs/managed-settings.schema.json', () => {
  it('is the schema generated from the zod settings schema (run "npm run settings:schema" after changing a setting)', () => {
    expect(committed).toBe(managedSettingsJsonSchemaText());
  });

  it('describes every setting, and every setting can be locked', () => {
    const schema = managedSettingsJsonSchema() as {
      properties: {
        settings: { properties: Record<string, { description?: string }> };
        locked: { items: { enum: string[] } };
      };
    };
    expect(Object.keys(schema.properties.settings.properties)).toEqual([...SETTING_KEYS]);
    for (const key of SETTING_KEYS) expect(schema.properties.settings.properties[key]?.description, key).toMatch(/\w/);
    expect(schema.properties.locked.items.enum).toEqual([...SETTING_KEYS]);
  });

  it('says of every policy setting that only IT sets it, and of no other', () => {
    const schema = managedSettingsJsonSchema() as {
      properties: { settings: { properties: Record<string, { description?: string }> } };
    };
    for (const key of SETTING_KEYS) {
      expect(schema.properties.settings.properties[key]?.description ?? '', key).toMatch(
        (POLICY_KEYS as readonly string[]).includes(key) ? /Only IT sets it/ : /^(?!.*Only IT sets it)/,
      );
    }
  });

  it.each([
    [
      'a production desk with updates from the pilot channel',
      {
        settings: {
          ...PRODUCTION,
          returnUrl: 'https://hotel.example.test/3ds',
          updates: { url: 'https://updates.example.test/desk', channel: 'pilot' },
        },
        locked: ['environment', 'updates'],
      },
    ],
    ['an empty document', {}],
    ['a file naming its schema', { $schema: './managed-settings.schema.json', settings: { language: 'en-US' } }],
    [
      'refund limits per refund and per day, and the older single number',
      {
        settings: {
          refundLimits: {
            supervisor: { usd: { perRefund: 500, perDay: 1500 }, mxn: 10000 },
            admin: { usd: { perDay: 20000 } },
          },
        },
      },
    ],
  ])('accepts what the app accepts: %s', (_case, document) => {
    expect(ManagedSettingsFile.safeParse(document).success).toBe(true);
    expect(validator()(document)).toBe(true);
  });

  it.each([
    ['the client secret', { settings: { clientSecret: 'abc' } }],
    ['an unknown member', { settings: {}, lock: ['environment'] }],
    ['an unknown locked setting', { locked: ['colour'] }],
    ['an idle timeout over 15 minutes', { settings: { idleTimeoutMinutes: 30 } }],
    [
      'an unknown update channel',
      { settings: { updates: { url: 'https://updates.example.test/desk', channel: 'beta' } } },
    ],
    ['updates without a url', { settings: { updates: { channel: 'pilot' } } }],
    ['a refund cap with an unknown member', { settings: { refundLimits: { supervisor: { usd: { perWeek: 500 } } } } }],
  ])('refuses what the app refuses: %s', (_case, document) => {
    expect(ManagedSettingsFile.safeParse(document).success).toBe(false);
    expect(validator()(document)).toBe(false);
  });
});
