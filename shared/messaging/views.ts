/** The 3DS panel's requests and what main answers: delivery results, the training outbox, the cardholder's answer — destinations masked, never a link in full. */
import { z } from 'zod';
import { PaymentId } from '../payments';
import { freeText } from '../text';
import { MessageChannel, MAX_DESTINATION_LENGTH, MessageLanguage, checkDestination } from './destination';

export const MessageId = z
  .string()
  .regex(/^msg_[a-f0-9]{32}$/, 'This is not a message id (msg_ followed by 32 characters).');

/** Where a message goes, as typed: required (`error` when empty), and no longer than any destination. */
const destinationField = (error: string) =>
  freeText({ error }).max(MAX_DESTINATION_LENGTH, 'This destination is too long.');

/**
 * A request with a destination, checked for its channel and normalized (a phone in E.164, an e-mail with a lower-case
 * domain); a bad one is refused with a message for the agent, at `destination`.
 */
const withCheckedDestination = <S extends z.ZodType<{ channel: MessageChannel; destination: string }>>(schema: S) =>
  schema
    .superRefine((request, ctx) => {
      const checked = checkDestination(request.channel, request.destination);
      if (!checked.ok) ctx.addIssue({ code: 'custom', path: ['destination'], message: checked.message });
    })
    .transform((request) => {
      const checked = checkDestination(request.channel, request.destination);
      return { ...request, destination: checked.ok ? checked.value : request.destination };
    });

/** The 3DS panel asks main to send a payment's link, to a destination checked and normalized for its channel. */
export const SendLinkRequest = withCheckedDestination(
  z.strictObject({
    paymentId: PaymentId,
    channel: MessageChannel,
    destination: destinationField('Enter where to send the link.'),
    language: MessageLanguage,
    /**
     * The agent confirmed sending again although a link sent less than a minute ago has no answer yet (main asked, with
     * `confirm_resend`): without it, such a re-send is not sent.
     */
    confirmResend: z.boolean().optional(),
  }),
);
export type SendLinkRequestInput = z.input<typeof SendLinkRequest>;

/** The channels a receipt goes by. */
export const ReceiptChannel = z.enum(['sms', 'email'], { error: 'Send the receipt by SMS or e-mail.' });

/**
 * The result panel asks main to send a succeeded payment's receipt (amount, card brand and last 4, short reference) to
 * the guest. Without `language`, main writes it in the guest's (the reservation's language, or its phone's country).
 * The destination is checked and normalized as for a link.
 */
export const SendReceiptRequest = withCheckedDestination(
  z.strictObject({
    paymentId: PaymentId,
    channel: ReceiptChannel,
    destination: destinationField('Enter where to send the receipt.'),
    language: MessageLanguage.optional(),
  }),
);
export type SendReceiptRequest = z.output<typeof SendReceiptRequest>;
export type SendLinkRequest = z.output<typeof SendLinkRequest>;

/** Who carried a message: a configured provider, or the training outbox (nothing leaves the desk). */
export const MessagingProvider = z.enum(['smtp', 'twilio', 'webhook', 'training_outbox', 'none']);
export type MessagingProvider = z.infer<typeof MessagingProvider>;

/**
 * Where a message stands, as the 3DS panel shows it: `queued` (the provider took it), `sent` (handed to the phone
 * company, or for e-mail accepted by the mail server), `delivered` (the phone confirmed it), `read` (WhatsApp), or
 * `failed` — and `unknown` when the provider did not answer and the message may have been sent.
 */
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'unknown'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** Why a message was not sent, was not delivered, or may not have been. */
export const DELIVERY_FAILURE_CODES = [
  // Refused before anything was sent.
  'invalid_destination',
  'invalid_link',
  'no_link',
  'not_configured',
  // The provider, by who can act on it.
  'opted_out',
  'not_on_whatsapp',
  'unreachable',
  'undelivered',
  'filtered',
  'country_not_permitted',
  'sender_not_set_up',
  'account_restricted',
  'template_rejected',
  'bad_credentials',
  'rate_limited',
  'provider_rejected',
  'provider_unavailable',
  // No answer from the provider.
  'connection_refused',
  'timeout',
  'host_not_found',
  'tls_error',
  'network_error',
  'unconfirmed',
  'unexpected',
] as const;
export const DeliveryFailureCode = z.enum(DELIVERY_FAILURE_CODES);
export type DeliveryFailureCode = z.infer<typeof DeliveryFailureCode>;

/** Who can put a failure right: the guest (another number or channel), the desk (try again later) or IT (settings, account). */
export const FailureActor = z.enum(['guest', 'desk', 'it']);
export type FailureActor = z.infer<typeof FailureActor>;

export const DeliveryFailure = z.object({
  code: DeliveryFailureCode,
  /** For IT and the logs: what happened, in English, with the provider's host, HTTP status or error number at most. */
  message: z.string(),
  /** Whether sending again later may work (the agent may also choose another channel). */
  retryable: z.boolean(),
  /** Who can act on it (failure-actors.ts has the rule for every code). */
  actor: FailureActor,
  /** The provider's own error number (Twilio's 21610, 30003…), when it gave one. */
  providerCode: z.number().int().optional(),
});
export type DeliveryFailure = z.infer<typeof DeliveryFailure>;

const resultBase = {
  messageId: MessageId,
  paymentId: PaymentId,
  channel: MessageChannel,
  /** Masked: +52 ******5678, m***@example.com. */
  to: z.string(),
  provider: MessagingProvider,
  /** True when the message went to the training outbox instead of a provider. */
  training: z.boolean(),
  /** Requests made to the provider to send it (0 when refused before anything was sent). */
  attempts: z.number().int().min(0),
  /** ISO 8601 time of this status. */
  at: z.string(),
  /** True once nothing more will be learnt: a final status, or main has stopped following the message (the link expired). */
  final: z.boolean(),
};

/**
 * What the agent sees after pressing Send, and again (`messaging:delivery`) each time main learns more: queued → sent →
 * delivered, or failed with the reason, or unknown ("may have been sent").
 */
export const DeliveryResult = z.discriminatedUnion('status', [
  z.object({ status: z.enum(['queued', 'sent', 'delivered', 'read']), ...resultBase }),
  z.object({ status: z.enum(['failed', 'unknown']), ...resultBase, failure: DeliveryFailure }),
]);
export type DeliveryResult = z.infer<typeof DeliveryResult>;

/**
 * Nothing was sent: a link went to this payment's guest less than a minute ago and has no answer yet (not delivered,
 * not failed, or maybe not sent at all). The agent confirms (`confirmResend`) to send another.
 */
export const ResendConfirmation = z.object({
  status: z.literal('confirm_resend'),
  previous: DeliveryResult,
  /** When the earlier message was sent (ISO 8601). */
  sentAt: z.string(),
});
export type ResendConfirmation = z.infer<typeof ResendConfirmation>;

export const SendLinkOutcome = z.union([DeliveryResult, ResendConfirmation]);
export type SendLinkOutcome = z.infer<typeof SendLinkOutcome>;

/** One status a message went through, as the delivery audit keeps it. */
export const DeliveryEventView = z.object({
  status: z.enum(['sending', ...DELIVERY_STATUSES]),
  at: z.string(),
  /** The provider's own word for it (Twilio: accepted, queued, sending, sent, delivered, undelivered, failed, read). */
  providerStatus: z.string().optional(),
  providerCode: z.number().int().optional(),
  failureCode: DeliveryFailureCode.optional(),
  /** The provider's page about its error (Twilio's more_info). */
  moreInfo: z.string().optional(),
});
export type DeliveryEventView = z.infer<typeof DeliveryEventView>;

/** One row of the audit: who sent which payment's link, how, to which masked destination, and how it went. */
export const DeliveryRecordView = z.object({
  messageId: MessageId,
  /** The desk that sent it (a payment's deliveries are shown whichever desk sent them). */
  deskId: z.string().optional(),
  paymentId: PaymentId,
  operatorId: z.string(),
  channel: MessageChannel,
  to: z.string(),
  provider: MessagingProvider,
  language: MessageLanguage,
  /** The latest status; `sending` stays when the app stopped before the provider answered. */
  status: z.enum(['sending', ...DELIVERY_STATUSES]),
  failureCode: DeliveryFailureCode.optional(),
  failureActor: FailureActor.optional(),
  providerCode: z.number().int().optional(),
  moreInfo: z.string().optional(),
  attempts: z.number().int().min(0),
  /** The link's host only (the rest of the link is never stored). */
  linkHost: z.string().optional(),
  createdAt: z.string(),
  finishedAt: z.string().optional(),
  /** Every status, oldest first. */
  events: z.array(DeliveryEventView),
});
export type DeliveryRecordView = z.infer<typeof DeliveryRecordView>;

/** Which channels can send on this desk, for the 3DS panel to offer. */
export const ChannelAvailability = z.object({
  channel: MessageChannel,
  provider: MessagingProvider,
  available: z.boolean(),
});
export type ChannelAvailability = z.infer<typeof ChannelAvailability>;

export const CardholderAnswer = z.enum(['approve', 'decline'], { error: 'Choose approve or decline.' });
export type CardholderAnswer = z.infer<typeof CardholderAnswer>;

/** What the trainee's "cardholder" did with a captured message's link; `none` for a message without one (a receipt). */
export const CardholderState = z.enum(['waiting', 'approved', 'declined', 'link_closed', 'link_unknown', 'none']);
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
