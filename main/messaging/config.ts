/** Messaging settings: which provider carries each channel, and the SMTP, Twilio and webhook settings — never a secret (main/messaging/README.md explains them). */
import { z } from 'zod';

/** The secrets messaging reads from the secret store (their names are in main/secrets SECRET_NAMES). */
export const MESSAGING_SECRET_NAMES = ['smtpPassword', 'twilioAuthToken', 'webhookAuthHeaderValue'] as const;
export type MessagingSecretName = (typeof MESSAGING_SECRET_NAMES)[number];

/** Where messaging reads its secrets: the app's EncryptedSecretStore fits. */
export interface MessagingSecrets {
  /** The secret, or undefined when none has been provisioned. */
  read(name: MessagingSecretName): Promise<string | undefined>;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for this computer's own addresses: the only hosts that may be reached without TLS. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** An https URL; plain http only to this computer (a local gateway, or a test server). */
const providerUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || isLoopbackHost(url.hostname);
  }, 'must use https (http is allowed only for localhost)')
  .refine((value) => {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'must not contain a user name or password: credentials are kept in the secret store');

const hostname = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(253)
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\d{1,3}(?:\.\d{1,3}){3}$|^::1$/i,
    'must be a host name or an IP address',
  );

/** A Twilio sender: an E.164 number, or an alphanumeric sender ID (1–11 letters, digits, spaces, at least one letter). */
const twilioSender = z
  .string()
  .trim()
  .refine(
    (value) => /^\+[1-9]\d{6,14}$/.test(value) || (/^[a-z0-9 ]{1,11}$/i.test(value) && /[a-z]/i.test(value)),
    'must be an E.164 number (+15017122661) or an alphanumeric sender ID of at most 11 characters',
  );

const SmtpSettings = z
  .strictObject({
    host: hostname,
    /** Default: 465 for tls, 587 for starttls, 25 for none. */
    port: z.int().min(1).max(65_535).optional(),
    /** starttls: upgrade required (refused when the server does not offer it); tls: implicit TLS; none: localhost only. */
    security: z.enum(['starttls', 'tls', 'none'], { error: 'must be starttls, tls or none' }),
    /** With a user name the password is read from the secret store (smtpPassword); without one, no AUTH. */
    username: z.string().trim().min(1).max(256).optional(),
    from: z.email({ error: 'must be an e-mail address' }),
    /** The sender name shown to the guest; default: the hotel's name. */
    fromName: z.string().trim().min(1).max(80).optional(),
    /** PEM of an extra certificate authority to trust (a corporate relay with its own CA). */
    caCertificatePem: z
      .string()
      .includes('-----BEGIN CERTIFICATE-----', { error: 'must be a PEM certificate' })
      .optional(),
  })
  .superRefine((smtp, ctx) => {
    if (smtp.security === 'none' && !isLoopbackHost(smtp.host)) {
      ctx.addIssue({
        code: 'custom',
        path: ['security'],
        message: 'none (no TLS) is allowed only for a relay on this computer (localhost)',
      });
    }
  });

/** Twilio's SID shapes, exactly as its OpenAPI description has them: two upper-case letters, then 32 hex digits. */
const sid = (prefix: 'AC' | 'MG' | 'HX', what: string) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^${prefix}[0-9a-fA-F]{32}$`), `must be ${what} (${prefix} followed by 32 hex characters)`);

const TwilioSettings = z.strictObject({
  accountSid: sid('AC', 'a Twilio Account SID'),
  /** Twilio's API; another base only for tests or a regional edge. */
  baseUrl: providerUrl.default('https://api.twilio.com'),
  /** SMS sender (From); or messagingServiceSid. */
  smsFrom: twilioSender.optional(),
  /** Sends SMS through a Messaging Service instead of one From number. */
  messagingServiceSid: sid('MG', 'a Messaging Service SID').optional(),
  /** The WhatsApp sender's number in E.164; sent as whatsapp:+… */
  whatsappFrom: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number (+15017122661)')
    .optional(),
  /**
   * The approved WhatsApp template (Content SID) for each language. Required for WhatsApp through Twilio: the 3DS link
   * goes to a guest who has not written first, and WhatsApp delivers only an approved template then (a free-form body is
   * accepted by Twilio, then fails with error 63016). Sent as ContentSid with ContentVariables
   * {"1": hotel name, "2": amount, "3": link}; the app never sends WhatsApp a free-form body.
   */
  whatsappContentSids: z
    .strictObject({
      'es-MX': sid('HX', 'a Content SID'),
      'en-US': sid('HX', 'a Content SID'),
    })
    .optional(),
});

/** `{messageId}` in a status URL: where the message's id goes. */
export const STATUS_URL_PLACEHOLDER = '{messageId}';

const WebhookSettings = z.strictObject({
  url: providerUrl,
  /**
   * Where the gateway reports a message's delivery: GET on this URL with `{messageId}` replaced by the message's id
   * (https://gateway.example/messages/{messageId}); the contract is in main/messaging/README.md. Required: the desk
   * follows every message until it is delivered or failed.
   */
  statusUrl: z.string().superRefine((value, ctx) => {
    if (!value.includes(STATUS_URL_PLACEHOLDER)) {
      ctx.addIssue({ code: 'custom', message: `must contain ${STATUS_URL_PLACEHOLDER}, where the message's id goes` });
      return;
    }
    const url = providerUrl.safeParse(value.replace(STATUS_URL_PLACEHOLDER, 'msg_0'));
    if (!url.success) {
      for (const issue of url.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
      return;
    }
    // Two messages' status URLs differ only after the origin: the id in the host would send each to another server.
    if (new URL(url.data).origin !== new URL(value.replace(STATUS_URL_PLACEHOLDER, 'msg_1')).origin) {
      ctx.addIssue({
        code: 'custom',
        message: `must have ${STATUS_URL_PLACEHOLDER} in its path or query, not in its host`,
      });
    }
  }),
  /** The header carrying the gateway's credential; its value is the secret webhookAuthHeaderValue. Omit for none. */
  authHeaderName: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, 'must be an HTTP header name')
    .refine(
      (name) => !['content-type', 'content-length', 'host', 'idempotency-key'].includes(name.toLowerCase()),
      'is a header the app sets itself',
    )
    .optional(),
});

export const EMAIL_PROVIDERS = ['smtp', 'webhook', 'none'] as const;
export const PHONE_PROVIDERS = ['twilio', 'webhook', 'none'] as const;

export const MessagingConfigSchema = z
  .strictObject({
    /** Who carries each channel. Training mode ignores this: every message goes to the training outbox. */
    providers: z
      .strictObject({
        email: z.enum(EMAIL_PROVIDERS, { error: 'must be smtp, webhook or none' }).default('none'),
        sms: z.enum(PHONE_PROVIDERS, { error: 'must be twilio, webhook or none' }).default('none'),
        whatsapp: z.enum(PHONE_PROVIDERS, { error: 'must be twilio, webhook or none' }).default('none'),
      })
      .prefault({}),
    smtp: SmtpSettings.optional(),
    twilio: TwilioSettings.optional(),
    webhook: WebhookSettings.optional(),
    /** Per request to a provider (connect, greeting and socket inactivity for SMTP). */
    requestTimeoutMs: z.int().min(100).max(60_000).default(10_000),
    retry: z
      .strictObject({
        /**
         * Tries in all, the first included. A message is sent again only when the first request certainly did not reach
         * the provider, or the provider looked it up and does not have it (retry.ts).
         */
        maxAttempts: z.int().min(1).max(5).default(3),
        /** Waits base, 2×base, 4×base… (with jitter), never more than maxDelayMs. */
        baseDelayMs: z.int().min(0).max(10_000).default(500),
        maxDelayMs: z.int().min(0).max(30_000).default(4_000),
      })
      .prefault({}),
  })
  .superRefine((config, ctx) => {
    const { email, sms, whatsapp } = config.providers;
    if (email === 'smtp' && !config.smtp)
      ctx.addIssue({ code: 'custom', path: ['smtp'], message: 'is required when e-mail is sent by smtp' });
    if ((sms === 'twilio' || whatsapp === 'twilio') && !config.twilio) {
      ctx.addIssue({ code: 'custom', path: ['twilio'], message: 'is required when SMS or WhatsApp is sent by twilio' });
    }
    if ([email, sms, whatsapp].includes('webhook') && !config.webhook) {
      ctx.addIssue({ code: 'custom', path: ['webhook'], message: 'is required when a channel is sent by webhook' });
    }
    if (sms === 'twilio' && config.twilio && !config.twilio.smsFrom && !config.twilio.messagingServiceSid) {
      ctx.addIssue({
        code: 'custom',
        path: ['twilio', 'smsFrom'],
        message: 'is required (or messagingServiceSid) when SMS is sent by twilio',
      });
    }
    if (whatsapp === 'twilio' && config.twilio && !config.twilio.whatsappFrom) {
      ctx.addIssue({
        code: 'custom',
        path: ['twilio', 'whatsappFrom'],
        message: 'is required when WhatsApp is sent by twilio',
      });
    }
    if (whatsapp === 'twilio' && config.twilio && !config.twilio.whatsappContentSids) {
      ctx.addIssue({
        code: 'custom',
        path: ['twilio', 'whatsappContentSids'],
        message:
          'is required when WhatsApp is sent by twilio: an approved template (Content SID) for es-MX and for en-US, because WhatsApp delivers only approved templates to a guest who has not written first',
      });
    }
  });

export type MessagingConfigInput = z.input<typeof MessagingConfigSchema>;
export type MessagingConfig = z.output<typeof MessagingConfigSchema>;
export type SmtpSettings = z.output<typeof SmtpSettings>;
export type TwilioSettings = z.output<typeof TwilioSettings>;
export type WebhookSettings = z.output<typeof WebhookSettings>;

/** The default: nothing configured (training mode still captures every channel in its outbox). */
export const DEFAULT_MESSAGING_CONFIG: MessagingConfig = MessagingConfigSchema.parse({});
