/**
 * SMS and WhatsApp through Twilio's Messages API, by its documented REST call:
 * POST {baseUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic (Account SID : Auth Token),
 * form-encoded To, From (or MessagingServiceSid) and Body; WhatsApp addresses as whatsapp:+E.164, and
 * ContentSid + ContentVariables instead of Body when an approved template is configured. 201 Created → { sid }.
 * Errors come as { code, message, more_info, status }: only the numeric code is kept, never the message text
 * (it can repeat the guest's number).
 */
import { DeliveryError, httpFailure, networkFailure, retryAfterMs } from '../errors';
import type { TwilioSettings } from '../config';
import { jsonBody, readSecret, type OutgoingMessage, type Transport, type TransportDeps } from './types';

/** Twilio errors that mean the destination cannot receive the message (invalid number, landline, not on WhatsApp). */
const DESTINATION_ERRORS = new Set([21211, 21214, 21217, 21407, 21408, 21612, 21614, 21635, 63024]);

function twilioCode(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null || !('code' in body)) return undefined;
  return typeof body.code === 'number' && Number.isInteger(body.code) ? body.code : undefined;
}

export function twilioTransport(settings: TwilioSettings, deps: TransportDeps): Transport {
  const base = settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`;
  const url = new URL(`2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`, base);
  const where = `Twilio (${url.host})`;

  function form(message: OutgoingMessage): URLSearchParams {
    const params = new URLSearchParams();
    if (message.channel === 'whatsapp') {
      params.set('To', `whatsapp:${message.to}`);
      params.set('From', `whatsapp:${settings.whatsappFrom ?? ''}`);
      const contentSid = settings.whatsappContentSids?.[message.language];
      if (contentSid) {
        params.set('ContentSid', contentSid);
        params.set('ContentVariables', JSON.stringify(message.variables));
      } else {
        params.set('Body', message.rendered.text);
      }
    } else {
      params.set('To', message.to);
      if (settings.messagingServiceSid) params.set('MessagingServiceSid', settings.messagingServiceSid);
      else params.set('From', settings.smsFrom ?? '');
      params.set('Body', message.rendered.text);
    }
    return params;
  }

  return {
    provider: 'twilio',
    async send(message) {
      const token = await readSecret(deps.secrets, 'twilioAuthToken', 'Twilio auth token');
      let response: Response;
      let body: unknown;
      try {
        response = await deps.fetch(url, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from(`${settings.accountSid}:${token}`, 'utf8').toString('base64')}`,
            'Content-Type': 'application/x-www-form-urlencoded',
            Accept: 'application/json',
          },
          body: form(message).toString(),
          redirect: 'manual',
          signal: AbortSignal.timeout(deps.timeoutMs),
        });
        body = await jsonBody(response);
      } catch (error) {
        throw networkFailure(error, where);
      }
      if (response.status >= 200 && response.status < 300) {
        const sid = typeof body === 'object' && body !== null && 'sid' in body && typeof body.sid === 'string' ? body.sid : undefined;
        return sid !== undefined && /^[A-Z]{2}[0-9a-f]{32}$/i.test(sid) ? { providerMessageId: sid } : {};
      }
      const code = twilioCode(body);
      const detail = code === undefined ? undefined : `Twilio error ${code}`;
      if (response.status === 400 && code !== undefined && DESTINATION_ERRORS.has(code)) {
        throw new DeliveryError('invalid_destination', `${where} says this number cannot receive the message (${detail}). Check it with the guest or choose another channel.`, false);
      }
      throw httpFailure(response.status, where, { retryAfter: retryAfterMs(response.headers.get('retry-after'), deps.now()), ...(detail ? { detail } : {}) });
    },
  };
}
