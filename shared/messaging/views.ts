/** The 3DS panel's requests and what main answers: delivery results, the training outbox, the cardholder's answer — destinations masked, never a link in full. */
import { z } from 'zod';
import { PaymentId } from '../payments';
import { freeText } from '../text';
import { MessageChannel, MAX_DESTINATION_LENGTH, MessageLanguage, checkDestination } from './destination';

export const MessageId = z.string().regex(/^msg_[a-f0-9]{32}$/, 'This is not a message id (msg_ followed by 32 characters).');

/**
 * The 3DS panel asks main to send a payment's link. The destination is checked for its channel and comes out
 * normalized (a phone in E.164, an e-mail with a lower-case domain); a bad one is refused with a message for
 * the agent, at `destination`.
 */
export const SendLinkRequest = z
  .strictObject({
    paymentId: PaymentId,
    channel: MessageChannel,
    destination: freeText({ error: 'Enter where to send the link.' }).max(MAX_DESTINATION_LENGTH, 'This destination is too long.'),
    language: MessageLanguage,
  })
  .superRefine((request, ctx) => {
    const checked = checkDestination(request.channel, request.destination);
    if (!checked.ok) ctx.addIssue({ code: 'custom', path: ['destination'], message: checked.message });
  })
  .transform((request) => {
    const checked = checkDestination(request.channel, request.destination);
    return { ...request, destination: checked.ok ? checked.value : request.destination };
  });
export type SendLinkRequestInput = z.input<typeof SendLinkRequest>;
export type SendLinkRequest = z.output<typeof SendLinkRequest>;

/** Who carried a message: a configured provider, or the training outbox (nothing leaves the desk). */
export const MessagingProvider = z.enum(['smtp', 'twilio', 'webhook', 'training_outbox', 'none']);
export type MessagingProvider = z.infer<typeof MessagingProvider>;

/** Why a message was not sent. `retryable` failures were already retried with backoff before being reported. */
export const DELIVERY_FAILURE_CODES = [
  'invalid_destination',
  'invalid_link',
  'no_link',
  'not_configured',
  'bad_credentials',
  'connection_refused',
  'timeout',
  'host_not_found',
  'tls_error',
  'network_error',
  'rate_limited',
  'provider_rejected',
  'provider_unavailable',
  'unexpected',
] as const;
export const DeliveryFailureCode = z.enum(DELIVERY_FAILURE_CODES);
export type DeliveryFailureCode = z.infer<typeof DeliveryFailureCode>;

const resultBase = {
  messageId: MessageId,
  paymentId: PaymentId,
  channel: MessageChannel,
  /** Masked: +52 ******5678, m***@example.com. */
  to: z.string(),
  provider: MessagingProvider,
  /** True when the message went to the training outbox instead of a provider. */
  training: z.boolean(),
  /** Requests made to the provider (0 when refused before anything was sent). */
  attempts: z.number().int().min(0),
  /** ISO 8601 time of the outcome. */
  at: z.string(),
};

export const DeliveryFailure = z.object({
  code: DeliveryFailureCode,
  /** For a person: what happened and what to do, in English, with the provider's host or HTTP status at most. */
  message: z.string(),
  /** Whether trying again later may work (the agent may also choose another channel). */
  retryable: z.boolean(),
});
export type DeliveryFailure = z.infer<typeof DeliveryFailure>;

/** What the agent sees after pressing Send. */
export const DeliveryResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('sent'), ...resultBase }),
  z.object({ status: z.literal('failed'), ...resultBase, failure: DeliveryFailure }),
]);
export type DeliveryResult = z.infer<typeof DeliveryResult>;

/** One row of the audit: who sent which payment's link, how, to which masked destination, and how it ended. */
export const DeliveryRecordView = z.object({
  messageId: MessageId,
  paymentId: PaymentId,
  operatorId: z.string(),
  channel: MessageChannel,
  to: z.string(),
  provider: MessagingProvider,
  language: MessageLanguage,
  /** `sending` stays when the app stopped before the provider answered. */
  status: z.enum(['sending', 'sent', 'failed']),
  failureCode: DeliveryFailureCode.optional(),
  attempts: z.number().int().min(0),
  /** The link's host only (the rest of the link is never stored). */
  linkHost: z.string().optional(),
  createdAt: z.string(),
  finishedAt: z.string().optional(),
});
export type DeliveryRecordView = z.infer<typeof DeliveryRecordView>;

/** Which channels can send on this desk, for the 3DS panel to offer. */
export const ChannelAvailability = z.object({ channel: MessageChannel, provider: MessagingProvider, available: z.boolean() });
export type ChannelAvailability = z.infer<typeof ChannelAvailability>;

export const CardholderAnswer = z.enum(['approve', 'decline'], { error: 'Choose approve or decline.' });
export type CardholderAnswer = z.infer<typeof CardholderAnswer>;

/** What the trainee's "cardholder" did with a captured message's link. */
export const CardholderState = z.enum(['waiting', 'approved', 'declined', 'link_closed', 'link_unknown']);
export type CardholderState = z.infer<typeof CardholderState>;

/** A message captured by the training outbox, as the trainee sees it; the link shows only its origin ("http://127.0.0.1:4010/…"). */
export const OutboxMessageView = z.object({
  id: MessageId,
  paymentId: PaymentId,
  operatorId: z.string(),
  channel: MessageChannel,
  to: z.string(),
  language: MessageLanguage,
  subject: z.string().optional(),
  text: z.string(),
  createdAt: z.string(),
  cardholder: CardholderState,
  answeredAt: z.string().optional(),
});
export type OutboxMessageView = z.infer<typeof OutboxMessageView>;

/** "Play the cardholder" on a captured message (training mode only). */
export const PlayCardholderRequest = z.strictObject({ messageId: MessageId, answer: CardholderAnswer });
export type PlayCardholderRequest = z.infer<typeof PlayCardholderRequest>;

export const PlayCardholderResult = z.object({
  message: OutboxMessageView,
  /** What the challenge page answered, for a person. */
  note: z.string(),
});
export type PlayCardholderResult = z.infer<typeof PlayCardholderResult>;
