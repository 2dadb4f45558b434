/**
 * The generic HTTPS webhook, for call centers with their own messaging gateway. One request per message:
 *
 *   POST {url}
 *   Content-Type: application/json
 *   Idempotency-Key: msg_…              (the same on every retry of one message: the gateway can drop repeats)
 *   {authHeaderName}: {webhookAuthHeaderValue from the secret store}   (when authHeaderName is configured)
 *
 *   { "version": 1, "messageId": "msg_…", "paymentId": "pay_…", "channel": "sms" | "whatsapp" | "email",
 *     "to": "+525512345678" | "guest@example.com", "language": "es-MX" | "en-US",
 *     "text": "…", "subject": "…" (e-mail), "html": "…" (e-mail),
 *     "link": "https://…", "variables": { "1": hotel, "2": amount, "3": link } }
 *
 * Any 2xx is success (an optional JSON { "id": "…" } is kept as the provider's message id); 401/403 are bad
 * credentials; 429 and 5xx are tried again (Retry-After honoured); any other status is a refusal.
 */
import type { WebhookSettings } from '../config';
import { httpFailure, networkFailure, retryAfterMs } from '../errors';
import { jsonBody, readSecret, type OutgoingMessage, type Transport, type TransportDeps } from './types';

export const WEBHOOK_BODY_VERSION = 1;

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
    variables: message.variables,
  };
}

export function webhookTransport(settings: WebhookSettings, deps: TransportDeps): Transport {
  const url = new URL(settings.url);
  const where = `the messaging gateway (${url.host})`;
  return {
    provider: 'webhook',
    async send(message) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': message.id };
      if (settings.authHeaderName !== undefined) {
        headers[settings.authHeaderName] = await readSecret(deps.secrets, 'webhookAuthHeaderValue', 'messaging gateway credential');
      }
      let response: Response;
      let body: unknown;
      try {
        response = await deps.fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(webhookBody(message)),
          redirect: 'manual',
          signal: AbortSignal.timeout(deps.timeoutMs),
        });
        body = await jsonBody(response);
      } catch (error) {
        throw networkFailure(error, where);
      }
      if (response.status >= 200 && response.status < 300) {
        const id = typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string' ? body.id.slice(0, 128) : undefined;
        return id === undefined ? {} : { providerMessageId: id };
      }
      throw httpFailure(response.status, where, { retryAfter: retryAfterMs(response.headers.get('retry-after'), deps.now()) });
    },
  };
}
