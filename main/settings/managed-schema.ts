/** The JSON schema of IT's managed-settings.json, generated from the zod schema the app itself checks the file with. */
import { z } from 'zod';
import { ManagedSettingsFile } from './load';
import type { SettingKey } from './schema';

/** Where the generated schema is committed, relative to the repository root (a test keeps it equal to the generated one). */
export const MANAGED_SCHEMA_PATH = 'docs/managed-settings.schema.json';

/** One sentence per setting for IT's editor; a new setting without a sentence does not compile. */
const DESCRIPTIONS: { readonly [K in SettingKey]: string } = {
  environment:
    'training (the built-in simulator), sandbox or production. Sandbox and production need the service settings below.',
  authUrl:
    "The Card Payment Service's authorization host (https outside training). Only IT sets it: a user's settings.json cannot.",
  cdeUrl:
    "The Card Payment Service's card-data host (https outside training). Only IT sets it: a user's settings.json cannot.",
  baseUrl:
    "The Card Payment Service's API host (https outside training). Only IT sets it: a user's settings.json cannot.",
  clientId:
    'The client id of this call center. The client secret is never a setting: provision it with --provision-secret.',
  publishableKey: 'pk_sandbox_… in sandbox, pk_live_… in production.',
  returnUrl: "Where the cardholder lands after 3-D Secure (https). Only IT sets it: a user's settings.json cannot.",
  idleTimeoutMinutes: 'Minutes without activity before the desk locks, 1 to 15.',
  refundLimits:
    'Per role and currency, the largest single refund and the most one operator may refund in a day (succeeded and pending refunds they made today, in the desk\'s time zone), e.g. {"supervisor": {"usd": {"perRefund": 500, "perDay": 1500}}}. A plain number caps both. A role or currency left out has no limit; agents never refund directly. Default: supervisors 10,000 MXN / 500 USD a refund and a day. Only IT sets it: a user\'s settings.json cannot.',
  language: 'The language of the desk: es-MX or en-US.',
  reservations:
    "Where reservations come from: the built-in store, or the partner's REST system (see main/reservations/README.md). Only IT sets it: a user's settings.json cannot.",
  messaging:
    "Who carries the 3-D Secure link by e-mail, SMS and WhatsApp (see main/messaging/config.ts); the providers' secrets are provisioned, never set here. Only IT sets it: a user's settings.json cannot.",
  center:
    'The center\'s shared PostgreSQL, where every desk keeps its records: {"host": "db.example", "port": 5432, "database": "card_desk", "user": "card_desk_app", "sslmode": "verify-full", "sslrootcert": "/path/to/ca.pem"}. sslmode is verify-full (the default), require or disable; sslrootcert, the CA\'s PEM file, only with verify-full. The password is never a setting: provision it with --provision-secret --secret-name=centerPassword. Not set: each desk keeps its records in its own embedded files. Only IT sets it: a user\'s settings.json cannot.',
  updates:
    'IT\'s update server: {"url": "https://…", "channel": "stable" | "pilot"}. Not set: the app never looks for updates.',
};

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema as a plain object: draft 2020-12, describing what IT writes (input types, so defaults are optional). */
export function managedSettingsJsonSchema(): JsonObject {
  const generated: JsonObject = z.toJSONSchema(ManagedSettingsFile, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'throw',
  });
  const properties = generated['properties'];
  const settings = isObject(properties) ? properties['settings'] : undefined;
  const settingProperties = isObject(settings) ? settings['properties'] : undefined;
  if (!isObject(properties) || !isObject(settings) || !isObject(settingProperties)) {
    throw new Error('The managed settings schema no longer has a "settings" object: update managed-schema.ts.');
  }
  for (const [key, description] of Object.entries(DESCRIPTIONS)) {
    const property = settingProperties[key];
    if (!isObject(property)) throw new Error(`The managed settings schema has no setting "${key}".`);
    property['description'] = description;
  }
  settings['description'] =
    "Settings IT sets for every user of this computer; they override the user's own settings.json.";
  const locked = properties['locked'];
  if (isObject(locked))
    locked['description'] = 'Settings the user cannot change; a locked setting IT does not set stays at its default.';
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: 'Card Payments Desk managed settings',
    description:
      "IT's managed-settings.json (Windows: %ProgramData%\\CardPaymentsDesk, macOS: /Library/Application Support/CardPaymentsDesk, " +
      'Linux: /etc/card-payments-desk). The app refuses to start with a file that does not pass this schema and its own rules. See docs/IT.md.',
    ...rest,
  };
}

/** The committed file's exact text: two-space JSON and a final newline. */
export function managedSettingsJsonSchemaText(): string {
  return `${JSON.stringify(managedSettingsJsonSchema(), null, 2)}\n`;
}
