/**
 * SMS and WhatsApp through Twilio's Messages API, as Twilio's OpenAPI description (api_v2010) publishes it:
 *
 *   CreateMessage  POST {baseUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded: To, From or
 *                  MessagingServiceSid, Body (SMS, with SmartEncoded) or ContentSid + ContentVariables (WhatsApp, an
 *                  approved template: never a free-form body), ValidityPeriod (the link's remaining lifetime) → 201 Message
 *   FetchMessage   GET  …/Messages/{Sid}.json → Message: its status (queued, sending, sent, delivered, read, undelivered,
 *                  failed…) and error_code
 *   ListMessage    GET  …/Messages.json?To=…&PageSize=… → { messages: [Message] }, newest first: finds a message
 *                  whose creation answer was lost (retry.ts), by its date_created (not DateSent: a queued one has no
 *                  date_sent yet)
 *
 * HTTP Basic (Account SID : Auth Token). Errors come as { code, message, more_info, status }: the code and more_info are
 * kept, never the message text (it can repeat the guest's number). Every request goes through the fetch the app injects.
 */
import { z } from 'zod';
import type { DeliveryFailureCode } from '../../../shared/messaging';
import type { TwilioSettings } from '../config';
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

/** A Message SID as Twilio's OpenAPI description has it (SM for SMS and WhatsApp, MM for MMS). */
export const MESSAGE_SID = /^(SM|MM)[0-9a-fA-F]{32}$/;

/** message_enum_status in Twilio's OpenAPI description today (deskStatus reads them; another word counts as queued). */
export const TWILIO_MESSAGE_STATUSES = [
  'queued',
  'sending',
  'sent',
  'failed',
  'delivered',
  'undelivered',
  'receiving',
  'received',
  'accepted',
  'scheduled',
  'read',
  'partially_delivered',
  'canceled',
] as const;

/**
 * The Message resource, the fields the desk reads (Twilio adds fields over time: the rest is ignored). Its status is
 * any word: Twilio adds statuses too, and a message with a new one must still be recognized (a look-up that skipped it
 * would send it again) and followed; a word the desk does not know counts as still on its way.
 */
const MessageResource = z.looseObject({
  sid: z.string().regex(MESSAGE_SID),
  status: z.string().min(1),
  to: z.string().nullish(),
  body: z.string().nullish(),
  direction: z.string().nullish(),
  date_created: z.string().nullish(),
  error_code: z.number().int().nullish(),
});
type MessageResource = z.infer<typeof MessageResource>;

const MessagePage = z.looseObject({ messages: z.array(z.unknown()) });
const ErrorBody = z.looseObject({ code: z.number().int().optional(), more_info: z.string().optional() });

/** Twilio's page about an error number; a more_info that is anything else is not kept. */
const MORE_INFO = /^https:\/\/www\.twilio\.com\/docs\/errors\/\d{5}$/;
const moreInfoFor = (code: number): string => `https://www.twilio.com/docs/errors/${code}`;

interface Meaning {
  code: DeliveryFailureCode;
  /** Sending again later may work. */
  retryable: boolean;
  /** What it means, for IT. */
  text: string;
}

/**
 * Twilio's error numbers the desk tells apart, by who can act on them (shared/messaging/failure-actors.ts). Any other
 * number is "refused" (when creating) or "not delivered" (afterwards), with its number.
 */
const ERRORS: ReadonlyMap<number, Meaning> = new Map<number, Meaning>([
  // The guest: another number or another channel.
  [
    21610,
    {
      code: 'opted_out',
      retryable: false,
      text: 'the guest has opted out of messages from this sender (they replied STOP)',
    },
  ],
  [21211, { code: 'invalid_destination', retryable: false, text: "the guest's number is not a valid phone number" }],
  [21214, { code: 'invalid_destination', retryable: false, text: "the guest's number cannot be reached" }],
  [21217, { code: 'invalid_destination', retryable: false, text: "the guest's number is not a valid phone number" }],
  [21407, { code: 'invalid_destination', retryable: false, text: "the guest's number does not take text messages" }],
  [21612, { code: 'invalid_destination', retryable: false, text: "the sender cannot reach the guest's number" }],
  [21614, { code: 'invalid_destination', retryable: false, text: "the guest's number is not a mobile number" }],
  [
    30005,
    {
      code: 'invalid_destination',
      retryable: false,
      text: "the guest's number is unknown to the phone company or no longer in service",
    },
  ],
  [
    30006,
    {
      code: 'invalid_destination',
      retryable: false,
      text: "the guest's number is a landline, or its phone company cannot be reached",
    },
  ],
  [
    30003,
    {
      code: 'unreachable',
      retryable: true,
      text: "the guest's phone could not be reached (switched off or out of coverage)",
    },
  ],
  [63024, { code: 'not_on_whatsapp', retryable: false, text: "the guest's number cannot receive WhatsApp messages" }],
  // IT: country permissions, the sender, the account, the template, content filtering.
  [
    21408,
    {
      code: 'country_not_permitted',
      retryable: false,
      text: "this account may not send to the guest's country (Messaging Geo Permissions in Twilio's console)",
    },
  ],
  [
    21212,
    { code: 'sender_not_set_up', retryable: false, text: 'the sender (From) is not a valid number or sender ID' },
  ],
  [
    21606,
    {
      code: 'sender_not_set_up',
      retryable: false,
      text: "the sender (From) is not a number of this account that can send to the guest's country",
    },
  ],
  [
    21659,
    { code: 'sender_not_set_up', retryable: false, text: 'the sender (From) is not a Twilio number of this account' },
  ],
  [
    30034,
    {
      code: 'sender_not_set_up',
      retryable: false,
      text: 'the sender number is not registered for US A2P 10DLC messaging',
    },
  ],
  [63007, { code: 'sender_not_set_up', retryable: false, text: 'the WhatsApp sender is not set up on this account' }],
  [
    21608,
    {
      code: 'account_restricted',
      retryable: false,
      text: 'the account is a trial account, which may send only to verified numbers',
    },
  ],
  [
    63016,
    {
      code: 'template_rejected',
      retryable: false,
      text: 'WhatsApp refused the message: outside a conversation the guest started, only an approved template is delivered',
    },
  ],
  [30007, { code: 'filtered', retryable: false, text: 'the phone company or Twilio filtered the message as unwanted' }],
  // The desk: wait and try again.
  [20429, { code: 'rate_limited', retryable: true, text: 'too many messages are being sent' }],
]);

/** A Twilio error number as a DeliveryError; `stage` tells a refusal when creating from a failure afterwards. */
export function twilioError(
  errorCode: number | undefined,
  where: string,
  stage: 'refused' | 'failed',
  moreInfo?: string,
): DeliveryError {
  const number = errorCode === undefined ? '' : ` (Twilio error ${errorCode})`;
  const info =
    moreInfo !== undefined && MORE_INFO.test(moreInfo)
      ? moreInfo
      : errorCode === undefined
        ? undefined
        : moreInfoFor(errorCode);
  const options = { providerCode: errorCode, moreInfo: info };
  const meaning = errorCode === undefined ? undefined : ERRORS.get(errorCode);
  if (meaning)
    return new DeliveryError(meaning.code, `${where}: ${meaning.text}${number}.`, meaning.retryable, options);
  return stage === 'refused'
    ? new DeliveryError(
        'provider_rejected',
        `${where} refused the message${number}. IT must check the messaging settings.`,
        false,
        options,
      )
    : new DeliveryError('undelivered', `${where} could not deliver the message${number}.`, true, options);
}

/** A Twilio status in the desk's words. */
export function deskStatus(message: MessageResource, where: string): ProviderStatus {
  const providerStatus = message.status;
  switch (message.status) {
    case 'sent':
      return { status: 'sent', providerStatus, final: false };
    case 'delivered':
    case 'partially_delivered':
      return { status: 'delivered', providerStatus, final: true };
    case 'read':
      return { status: 'read', providerStatus, final: true };
    case 'failed':
    case 'undelivered':
    case 'canceled':
      return {
        status: 'failed',
        providerStatus,
        final: true,
        failure: twilioError(message.error_code ?? undefined, where, 'failed'),
      };
    default:
      return { status: 'queued', providerStatus, final: false };
  }
}

/** Twilio's ValidityPeriod: whole seconds from 1 to 36,000. */
export const validityPeriod = (seconds: number): number => Math.min(36_000, Math.max(1, Math.floor(seconds)));

/** The newest messages to the guest's number read by a look-up (Twilio's default page). */
const LOOKUP_PAGE_SIZE = 50;

/** How far before the send a found message may have been created (the desk's clock against Twilio's). */
const CLOCK_SKEW_MS = 60_000;

export function twilioTransport(settings: TwilioSettings, deps: TransportDeps): Transport {
  const base = settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`;
  const account = `2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}`;
  const messagesUrl = new URL(`${account}/Messages.json`, base);
  const where = `Twilio (${messagesUrl.host})`;

  async function call(url: URL, body?: URLSearchParams): Promise<{ status: number; body: unknown; headers: Headers }> {
    const token = await readSecret(deps.secrets, 'twilioAuthToken', 'Twilio auth token');
    try {
      const response = await deps.fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${settings.accountSid}:${token}`, 'utf8').toString('base64')}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
        },
        ...(body === undefined ? {} : { body: body.toString() }),
        redirect: 'manual',
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
      return { status: response.status, body: await jsonBody(response), headers: response.headers };
    } catch (error) {
      throw networkFailure(error, where);
    }
  }

  /** A non-2xx answer as a DeliveryError: Twilio's error number when it gave one, the HTTP status otherwise. */
  function failure(answer: { status: number; body: unknown; headers: Headers }): DeliveryError {
    const parsed = ErrorBody.safeParse(answer.body);
    const code = parsed.success ? parsed.data.code : undefined;
    const moreInfo =
      parsed.success && parsed.data.more_info !== undefined && MORE_INFO.test(parsed.data.more_info)
        ? parsed.data.more_info
        : undefined;
    if (answer.status === 400 && code !== undefined && ERRORS.has(code))
      return twilioError(code, where, 'refused', moreInfo);
    return httpFailure(answer.status, where, {
      retryAfter: retryAfterMs(answer.headers.get('retry-after'), deps.now()),
      ...(code === undefined
        ? {}
        : { detail: `Twilio error ${code}`, providerCode: code, moreInfo: moreInfo ?? moreInfoFor(code) }),
    });
  }

  const address = (message: OutgoingMessage): string =>
    message.channel === 'whatsapp' ? `whatsapp:${message.to}` : message.to;

  function form(message: OutgoingMessage): URLSearchParams {
    const params = new URLSearchParams();
    params.set('To', address(message));
    if (message.channel === 'whatsapp') {
      const contentSid = settings.whatsappContentSids?.[message.language];
      // The settings refuse Twilio WhatsApp without templates; this is the last guard: never a free-form body.
      if (contentSid === undefined || settings.whatsappFrom === undefined) {
        throw new DeliveryError(
          'not_configured',
          'WhatsApp through Twilio needs an approved template for each language (twilio.whatsappContentSids) and a sender; IT must set them up.',
          false,
        );
      }
      params.set('From', `whatsapp:${settings.whatsappFrom}`);
      params.set('ContentSid', contentSid);
      params.set('ContentVariables', JSON.stringify(message.variables));
    } else {
      if (settings.messagingServiceSid) params.set('MessagingServiceSid', settings.messagingServiceSid);
      else params.set('From', settings.smsFrom ?? '');
      params.set('Body', message.rendered.text);
      // Twilio swaps what the text still has outside GSM-7 for a GSM-7 twin where one exists (templates.ts did the rest).
      params.set('SmartEncoded', 'true');
    }
    params.set('ValidityPeriod', String(validityPeriod(message.validitySeconds)));
    return params;
  }

  const accepted = (message: MessageResource): Accepted => ({
    providerMessageId: message.sid,
    ref: message.sid,
    status: deskStatus(message, where),
  });

  return {
    provider: 'twilio',

    async send(message) {
      const answer = await call(messagesUrl, form(message));
      if (answer.status < 200 || answer.status >= 300) throw failure(answer);
      const created = MessageResource.safeParse(answer.body);
      // Accepted, but without a Message SID to follow it by.
      return created.success ? accepted(created.data) : { status: { status: 'queued', final: false } };
    },

    async status(ref) {
      if (!MESSAGE_SID.test(ref)) throw new DeliveryError('unexpected', `${where}: this is not a Message SID.`, false);
      const answer = await call(new URL(`${account}/Messages/${ref}.json`, base));
      if (answer.status < 200 || answer.status >= 300) throw failure(answer);
      const message = MessageResource.safeParse(answer.body);
      if (!message.success)
        throw new DeliveryError('unexpected', `${where} answered with something that is not a Message.`, true);
      return deskStatus(message.data, where);
    },

    async find(message, since, known) {
      const to = address(message);
      const url = new URL(messagesUrl);
      url.searchParams.set('To', to);
      // No DateSent filter: it filters on date_sent, "when Twilio sent the message", which a message still waiting in
      // Twilio's queue (queued, accepted) does not have yet — the very message looked for. Its creation time is checked
      // below instead, on the newest messages to this number.
      url.searchParams.set('PageSize', String(LOOKUP_PAGE_SIZE));
      const answer = await call(url);
      if (answer.status < 200 || answer.status >= 300) throw failure(answer);
      const page = MessagePage.safeParse(answer.body);
      if (!page.success)
        throw new DeliveryError(
          'unexpected',
          `${where} answered the look-up with something that is not a list of messages.`,
          true,
        );
      for (const item of page.data.messages) {
        const found = MessageResource.safeParse(item);
        if (!found.success || known.has(found.data.sid) || found.data.to !== to) continue;
        if (
          found.data.direction !== undefined &&
          found.data.direction !== null &&
          !found.data.direction.startsWith('outbound')
        )
          continue;
        const created = Date.parse(found.data.date_created ?? '');
        if (!Number.isNaN(created) && created < since - CLOCK_SKEW_MS) continue;
        // The link is this payment's own: a message to this number carrying it is the one sent. A body Twilio no longer
        // shows (redacted) cannot tell: unsure rather than wrong.
        if (!found.data.body)
          throw new DeliveryError(
            'unexpected',
            `${where} does not show the messages' text, so the message cannot be recognized.`,
            true,
          );
        if (found.data.body.includes(message.link === '' ? message.rendered.text : message.link))
          return accepted(found.data);
      }
      return undefined;
    },
  };
}
