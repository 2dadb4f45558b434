/**
 * The generic HTTPS webhook, for call centers with their own messaging gateway. The gateway offers two calls; the whole
 * contract (what it must do, and what each answer means to the desk) is in main/messaging/README.md:
 *
 *   POST {url}                                    one message
 *   Content-Type: application/json
 *   Idempotency-Key: msg_…                        the same on every retry of one message: the gateway MUST drop repeats
 *   {authHeaderName}: {webhookAuthHeaderValue}    when authHeaderName is configured
 *
 *   { "version": 2, "messageId": "msg_…", "paymentId": "pay_…", "channel": "sms" | "whatsapp" | "email",
 *     "to": "+525512345678" | "guest@example.com", "language": "es-MX" | "en-US",
 *     "text": "…", "subject": "…" (e-mail), "html": "…" (e-mail),
 *     "link": "https://…", "variables": { "1": hotel, "2": amount, "3": link }, "validitySeconds": 840 }
 *   A receipt adds "kind": "receipt", with an empty "link" and empty "variables".
 *
 *   → 2xx, optionally { "id": "…", "status": "queued" | "sent" | "delivered" | "read" | "failed", "failure": "…" }
 *
 *   GET {statusUrl with {messageId} replaced}     the message's delivery, polled until final
 *   → 200 { "status": "queued" | "sent" | "delivered" | "read" | "failed" | "undelivered", "failure": "…" (when failed) }
 *
 * 401/403 are bad credentials; 429 and 5xx are tried again with the same Idempotency-Key (Retry-After honoured); any
 * other status is a refusal.
 */
import { z } from 'zod';
import { STATUS_URL_PLACEHOLDER, type WebhookSettings } from '../config';
import { DeliveryError, httpFailure, networkFailure, retryAfterMs } from '../errors';
import {
  jsonBody,
  readSecret,
  type Accepted,
  type OutgoingMessage,
  type ProviderStatus,
  type Transport,
  type TransportDeps,
} from './types';

export const WEBHOOK_BODY_VERSION = 2;

export function webhookBody(message: OutgoingMessage): Record<string, unknown> {
  return {
    version: WEBHOOK_BODY_VERSION,
    messageId: message.id,
    paymentId: message.paymentId,
    channel: message.channel,
    to: message.to,
    language: message.language,
    text: message.rendered.text,
    ...(message.rendered.subject === undefined ? {} : { subject: message.rendered.subject }),
    ...(message.rendered.html === undefined ? {} : { html: message.rendered.html }),
    link: message.link,
    ...(message.kind === 'receipt' ? { kind: 'receipt' } : {}),
    variables: message.variables,
    validitySeconds: Math.floor(message.validitySeconds),
  };
}

/** The reasons a gateway may give for a failed message: the desk's own failure codes that a gateway can know. */
export const WEBHOOK_FAILURES = [
  'invalid_destination',
  'opted_out',
  'not_on_whatsapp',
  'unreachable',
  'undelivered',
  'filtered',
  'country_not_permitted',
  'sender_not_set_up',
  'account_restricted',
  'template_rejected',
] as const;

const GatewayStatus = z.looseObject({
  id: z.string().max(128).optional(),
  status: z.enum(['queued', 'sent', 'delivered', 'read', 'failed', 'undelivered']).optional(),
  failure: z.string().optional(),
});

const REASONS: Record<(typeof WEBHOOK_FAILURES)[number], { text: string; retryable: boolean }> = {
  invalid_destination: { text: "the guest's number or address cannot receive the message", retryable: false },
  opted_out: { text: 'the guest has opted out of these messages', retryable: false },
  not_on_whatsapp: { text: "the guest's number cannot receive WhatsApp messages", retryable: false },
  unreachable: { text: "the guest's phone could not be reached", retryable: true },
  undelivered: { text: 'the message could not be delivered', retryable: true },
  filtered: { text: 'the message was filtered as unwanted', retryable: false },
  country_not_permitted: { text: "the gateway may not send to the guest's country", retryable: false },
  sender_not_set_up: { text: 'the sender is not set up', retryable: false },
  account_restricted: { text: "the gateway's account may not send this message", retryable: false },
  template_rejected: { text: 'the approved template was refused', retryable: false },
};

export function webhookTransport(settings: WebhookSettings, deps: TransportDeps): Transport {
  const url = new URL(settings.url);
  const where = `the messaging gateway (${url.host})`;

  async function headers(): Promise<Record<string, string>> {
    const result: Record<string, string> = { Accept: 'application/json' };
    if (settings.authHeaderName !== undefined)
      result[settings.authHeaderName] = await readSecret(
        deps.secrets,
        'webhookAuthHeaderValue',
        'messaging gateway credential',
      );
    return result;
  }

  async function call(
    target: URL,
    init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    try {
      const response = await deps.fetch(target, {
        ...init,
        redirect: 'manual',
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
      return { status: response.status, body: await jsonBody(response), headers: response.headers };
    } catch (error) {
      throw networkFailure(error, where);
    }
  }

  /** The gateway's status in the desk's words; nothing (or nothing readable) means queued. */
  function deskStatus(body: unknown): ProviderStatus & { id?: string } {
    const parsed = GatewayStatus.safeParse(body);
    const status = parsed.success ? parsed.data.status : undefined;
    const id = parsed.success ? parsed.data.id : undefined;
    const extra = id === undefined ? {} : { id };
    if (status === undefined || status === 'queued')
      return { status: 'queued', providerStatus: status ?? 'queued', final: false, ...extra };
    if (status === 'sent') return { status: 'sent', providerStatus: status, final: false, ...extra };
    if (status === 'delivered' || status === 'read') return { status, providerStatus: status, final: true, ...extra };
    const given = parsed.success ? parsed.data.failure : undefined;
    const reason = WEBHOOK_FAILURES.find((code) => code === given) ?? 'undelivered';
    const { text, retryable } = REASONS[reason];
    return {
      status: 'failed',
      providerStatus: status,
      final: true,
      failure: new DeliveryError(reason, `${where}: ${text}.`, retryable),
      ...extra,
    };
  }

  const statusUrl = (messageId: string): URL =>
    new URL(settings.statusUrl.replace(STATUS_URL_PLACEHOLDER, encodeURIComponent(messageId)));

  return {
    provider: 'webhook',
    dropsRepeats: true,

    async send(message): Promise<Accepted> {
      const answer = await call(url, {
        method: 'POST',
        headers: { ...(await headers()), 'Content-Type': 'application/json', 'Idempotency-Key': message.id },
        body: JSON.stringify(webhookBody(message)),
      });
      if (answer.status < 200 || answer.status >= 300)
        throw httpFailure(answer.status, where, {
          retryAfter: retryAfterMs(answer.headers.get('retry-after'), deps.now()),
        });
      const { id, ...status } = deskStatus(answer.body);
      return { providerMessageId: id, ref: message.id, status };
    },

    async status(ref) {
      const answer = await call(statusUrl(ref), { method: 'GET', headers: await headers() });
      if (answer.status < 200 || answer.status >= 300)
        throw httpFailure(answer.status, where, {
          retryAfter: retryAfterMs(answer.headers.get('retry-after'), deps.now()),
        });
      const { status, providerStatus, final, failure } = deskStatus(answer.body);
      return { status, providerStatus, final, failure };
    },
  };
}
