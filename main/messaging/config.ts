/** Messaging settings: which provider carries each channel, and the SMTP, Twilio and webhook settings — never a secret. */
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
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\d{1,3}(?:\.\d{1,3}){3}$|^::1$/i, 'must be a host name or an IP address');

/** A Twilio sender: an E.164 number, or an alphanumeric sender ID (1–11 letters, digits, spaces, at least one letter). */
const twilioSender = z
  .string()
  .trim()
  .refine((value) => /^\+[1-9]\d{6,14}$/.test(value) || (/^[a-z0-9 ]{1,11}$/i.test(value) && /[a-z]/i.test(value)), 'must be an E.164 number (+15017122661) or an alphanumeric sender ID of at most 11 characters');

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
    caCertificatePem: z.string().includes('-----BEGIN CERTIFICATE-----', { error: 'must be a PEM certificate' }).optional(),
  })
  .superRefine((smtp, ctx) => {
    if (smtp.security === 'none' && !isLoopbackHost(smtp.host)) {
      ctx.addIssue({ code: 'custom', path: ['security'], message: 'none (no TLS) is allowed only for a relay on this computer (localhost)' });
    }
  });

const TwilioSettings = z.strictObject({
  accountSid: z.string().trim().regex(/^AC[0-9a-f]{32}$/i, 'must be a Twilio Account SID (AC followed by 32 hex characters)'),
  /** Twilio's API; another base only for tests or a regional edge. */
  baseUrl: providerUrl.default('https://api.twilio.com'),
  /** SMS sender (From); or messagingServiceSid. */
  smsFrom: twilioSender.optional(),
  /** Sends SMS through a Messaging Service instead of one From number. */
  messagingServiceSid: z.string().trim().regex(/^MG[0-9a-f]{32}$/i, 'must be a Messaging Service SID (MG followed by 32 hex characters)').optional(),
  /** The WhatsApp sender's number in E.164; sent as whatsapp:+… */
  whatsappFrom: z.string().trim().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number (+15017122661)').optional(),
  /**
   * WhatsApp only delivers free text inside 24 hours of the guest's last message; anything else needs a template
   * approved by Meta. With a Content SID per language, WhatsApp messages are sent as that template with variables
   * {"1": hotel name, "2": amount, "3": link}.
   */
  whatsappContentSids: z
    .strictObject({
      'es-MX': z.string().regex(/^HX[0-9a-f]{32}$/i, 'must be a Content SID (HX followed by 32 hex characters)'),
      'en-US': z.string().regex(/^HX[0-9a-f]{32}$/i, 'must be a Content SID (HX followed by 32 hex characters)'),
    })
    .optional(),
});

const WebhookSettings = z.strictObject({
  url: providerUrl,
  /** The header carrying the gateway's credential; its value is the secret webhookAuthHeaderValue. Omit for none. */
  authHeaderName: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, 'must be an HTTP header name')
    .refine((name) => !['content-type', 'content-length', 'host', 'idempotency-key'].includes(name.toLowerCase()), 'is a header the app sets itself')
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
        /** Tries in all, the first included; only transient failures are tried again. */
        maxAttempts: z.int().min(1).max(5).default(3),
        /** Waits base, 2×base, 4×base… (with jitter), never more than maxDelayMs. */
        baseDelayMs: z.int().min(0).max(10_000).default(500),
        maxDelayMs: z.int().min(0).max(30_000).default(4_000),
      })
      .prefault({}),
  })
  .superRefine((config, ctx) => {
    const { email, sms, whatsapp } = config.providers;
    if (email === 'smtp' && !config.smtp) ctx.addIssue({ code: 'custom', path: ['smtp'], message: 'is required when e-mail is sent by smtp' });
    if ((sms === 'twilio' || whatsapp === 'twilio') && !config.twilio) {
      ctx.addIssue({ code: 'custom', path: ['twilio'], message: 'is required when SMS or WhatsApp is sent by twilio' });
    }
    if ([email, sms, whatsapp].includes('webhook') && !config.webhook) {
      ctx.addIssue({ code: 'custom', path: ['webhook'], message: 'is required when a channel is sent by webhook' });
    }
    if (sms === 'twilio' && config.twilio && !config.twilio.smsFrom && !config.twilio.messagingServiceSid) {
      ctx.addIssue({ code: 'custom', path: ['twilio', 'smsFrom'], message: 'is required (or messagingServiceSid) when SMS is sent by twilio' });
    }
    if (whatsapp === 'twilio' && config.twilio && !config.twilio.whatsappFrom) {
      ctx.addIssue({ code: 'custom', path: ['twilio', 'whatsappFrom'], message: 'is required when WhatsApp is sent by twilio' });
    }
  });

export type MessagingConfigInput = z.input<typeof MessagingConfigSchema>;
export type MessagingConfig = z.output<typeof MessagingConfigSchema>;
export type SmtpSettings = z.output<typeof SmtpSettings>;
export type TwilioSettings = z.output<typeof TwilioSettings>;
export type WebhookSettings = z.output<typeof WebhookSettings>;

/** The default: nothing configured (training mode still captures every channel in its outbox). */
export const DEFAULT_MESSAGING_CONFIG: MessagingConfig = MessagingConfigSchema.parse({});
