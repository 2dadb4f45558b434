/** The app settings: each field's rules, the defaults, and the rules that tie environment, keys and hosts together. */
import { z } from 'zod';
import { Environment, Language } from '../../shared';
import { RefundLimits } from '../../shared/desk';
import { CenterSettings } from '../storage';
import { MessagingConfigSchema } from '../messaging';
import { ReservationSourceConfig } from '../reservations';
import type { SettingsIssue } from './errors';

export { Language };

const serviceUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** The update channels: IT publishes a build to `<url>/pilot/` for a few desks, then the same files to `<url>/stable/`. */
export const UpdateChannel = z.enum(['stable', 'pilot'], { error: 'must be "stable" or "pilot"' });
export type UpdateChannel = z.output<typeof UpdateChannel>;

/** IT's update server: an https folder holding one sub-folder per channel (see docs/IT.md). */
export const UpdatesSettings = z.strictObject({
  url: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
  channel: UpdateChannel.default('stable'),
});
export type UpdatesSettings = z.output<typeof UpdatesSettings>;

/** Each setting on its own, without defaults: what settings.json and the managed file may contain. */
const fields = {
  environment: Environment,
  authUrl: serviceUrl,
  cdeUrl: serviceUrl,
  baseUrl: serviceUrl,
  clientId: z.string().trim().min(1, 'must not be empty'),
  /** Used only by the card capture component; the prefix says which service it belongs to (spec §1, §5). */
  publishableKey: z.string().regex(/^pk_(?:sandbox|live)_\S+$/, 'must start with pk_sandbox_ or pk_live_'),
  /** Where the cardholder lands after 3D Secure; the service accepts https only. */
  returnUrl: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
  idleTimeoutMinutes: z
    .int({ error: 'must be a whole number of minutes from 1 to 15' })
    .min(1, 'must be a whole number of minutes from 1 to 15')
    .max(15, 'must be a whole number of minutes from 1 to 15'),
  language: Language,
  /** Where reservations come from: the built-in store (when not set) or the partner's REST system. */
  reservations: ReservationSourceConfig.unwrap(),
  /** Who carries the 3DS link by e-mail, SMS and WhatsApp; the providers' secrets are in the secret store. */
  messaging: MessagingConfigSchema,
  /** Per role and currency, the largest single refund and the day's total per operator, e.g. { "supervisor": { "mxn": { "perRefund": 10000, "perDay": 30000 } } }; a role or currency left out has no limit. */
  refundLimits: RefundLimits,
  /** Where IT publishes updates (main/updates); not set: the app never looks for updates. */
  updates: UpdatesSettings,
  /** The center's shared PostgreSQL (main/center); not set: the embedded SQLite files. Its password is the centerPassword secret. */
  center: CenterSettings,
};

export type SettingKey = keyof typeof fields;

/** Field-by-field schemas, for checking a single change. */
export const SETTING_FIELDS: { readonly [K in SettingKey]: (typeof fields)[K] } = fields;

/** Keys people (or IT) may try to put in a settings file but that never belong there. */
const SECRET_LIKE_KEY = /secret|password|token/i;

function unknownKeysMessage(keys: readonly string[]): string {
  const secret = keys.filter((key) => SECRET_LIKE_KEY.test(key));
  const other = keys.filter((key) => !SECRET_LIKE_KEY.test(key));
  const parts: string[] = [];
  if (secret.length > 0) {
    parts.push(
      `${secret.map((key) => `"${key}"`).join(', ')} ${secret.length > 1 ? 'are not settings' : 'is not a setting'}: ` +
        'the client secret is kept encrypted by the app, never in a settings file (IT provisions it with --provision-secret)',
    );
  }
  if (other.length > 0)
    parts.push(`unknown setting${other.length > 1 ? 's' : ''} ${other.map((key) => `"${key}"`).join(', ')}`);
  return parts.join('; ');
}

/** A partial settings document: the user's settings.json, the "settings" of the managed file. */
export const SettingsFile = z
  .strictObject(fields, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownKeysMessage(issue.keys) : undefined),
  })
  .partial();
export type SettingsFile = z.output<typeof SettingsFile>;

export const SettingKey = SettingsFile.keyof();
export const SETTING_KEYS: readonly SettingKey[] = SettingKey.options;

/**
 * Policy: settings only IT sets (in the managed file; otherwise their defaults), never the desk user's own
 * settings.json — the refund caps, every host a stored key is sent to (the service, the reservation system, the
 * message providers, the center's database), and the page guests land on after 3-D Secure. A user file naming one is
 * not refused (the desk still starts); the value is ignored and the app says so: in the log, in --print-config and in
 * the audit trail.
 */
export const POLICY_KEYS = [
  'authUrl',
  'cdeUrl',
  'baseUrl',
  'returnUrl',
  'refundLimits',
  'reservations',
  'messaging',
  'center',
] as const satisfies readonly SettingKey[];
export type PolicyKey = (typeof POLICY_KEYS)[number];

export function isPolicyKey(key: string): key is PolicyKey {
  return (POLICY_KEYS as readonly string[]).includes(key);
}

export const DEFAULT_SETTINGS = {
  environment: 'training',
  idleTimeoutMinutes: 15,
  language: 'es-MX',
} as const satisfies SettingsFile;

const SERVICE_KEYS = ['authUrl', 'cdeUrl', 'baseUrl', 'clientId', 'publishableKey'] as const;
const HOST_KEYS = ['authUrl', 'cdeUrl', 'baseUrl'] as const;

/** The rules across fields (spec §1 "Sandbox and production"); one issue per offending field. */
export function consistencyIssues(settings: SettingsFile): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  const environment = settings.environment ?? DEFAULT_SETTINGS.environment;
  if (environment === 'training') return issues;

  for (const key of SERVICE_KEYS) {
    if (settings[key] === undefined) issues.push({ field: key, message: `is required in ${environment} mode` });
  }
  for (const key of HOST_KEYS) {
    const url = settings[key];
    if (url !== undefined && !url.toLowerCase().startsWith('https:')) {
      issues.push({ field: key, message: `must use https in ${environment} mode (http is allowed only in training)` });
    }
  }
  const key = settings.publishableKey;
  if (environment === 'sandbox' && key?.startsWith('pk_live_') === true) {
    issues.push({
      field: 'publishableKey',
      message: 'is a live key (pk_live_…), which cannot be used in sandbox mode; use the pk_sandbox_ key',
    });
  }
  if (environment === 'production' && key?.startsWith('pk_sandbox_') === true) {
    issues.push({
      field: 'publishableKey',
      message: 'is a sandbox key (pk_sandbox_…), which cannot be used in production mode; use the pk_live_ key',
    });
  }
  return issues;
}

/** The complete settings: every field checked, defaults filled in, and the cross-field rules applied. */
export const SettingsSchema = SettingsFile.extend({
  environment: fields.environment.default(DEFAULT_SETTINGS.environment),
  idleTimeoutMinutes: fields.idleTimeoutMinutes.default(DEFAULT_SETTINGS.idleTimeoutMinutes),
  language: fields.language.default(DEFAULT_SETTINGS.language),
}).superRefine((settings, ctx) => {
  for (const issue of consistencyIssues(settings)) {
    ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  }
});

export type Settings = z.output<typeof SettingsSchema>;

/** Zod issues as field + message pairs. */
export function toIssues(error: z.ZodError): SettingsIssue[] {
  return error.issues.map((issue) => ({
    field:
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => [...issue.path, key].map(String).join('.')).join(', ')
        : issue.path.map(String).join('.') || '(document)',
    message: issue.message,
  }));
}
