// The channels of messaging: the 3-D Secure link and the receipt sent to the guest, their deliveries, and training's outbox.
import { z } from 'zod';
import { PaymentId } from '../payments';
import {
  ChannelAvailability,
  DeliveryRecordView,
  DeliveryResult,
  OutboxMessageView,
  PlayCardholderRequest,
  PlayCardholderResult,
  SendLinkOutcome,
  SendLinkRequest,
  SendReceiptRequest,
} from '../messaging';
import { STAFF, TAKES_PAYMENTS } from './access';
import { background, channel, defined, none, type ChannelSpec } from './spec';

export const MESSAGING_CHANNELS = {
  /**
   * Sends a payment's 3DS link to the cardholder's own device; the app never opens it. Answers the first status (its
   * later ones arrive as `messaging:delivery`), or `confirm_resend` when a link sent less than a minute ago is still
   * unanswered and `confirmResend` was not given.
   */
  'messaging:sendLink': channel({
    input: SendLinkRequest,
    output: SendLinkOutcome,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'link.send',
      resource: (input) => input.paymentId,
      details: (input, output) => defined({ channel: input.channel, delivery: output?.status }),
    },
  }),
  /**
   * Sends a succeeded payment's receipt to the guest by SMS or e-mail, in the language chosen (the guest's): the amount,
   * the card's brand and last 4, and the short reference (the last 8 characters of the payment id, grouped). Answers
   * the first delivery status; later ones arrive as `messaging:delivery`.
   */
  'messaging:sendReceipt': channel({
    input: SendReceiptRequest,
    output: DeliveryResult,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'receipt.send',
      resource: (input) => input.paymentId,
      details: (input, output) =>
        defined({ channel: input.channel, language: input.language, delivery: output?.status }),
    },
  }),
  'messaging:channels': background(none, z.object({ channels: z.array(ChannelAvailability) }), STAFF),
  'messaging:history': background(
    z.strictObject({ paymentId: PaymentId }),
    z.object({ deliveries: z.array(DeliveryRecordView) }),
    STAFF,
  ),
  /** Training mode only: the messages captured instead of sent, and the trainee playing the cardholder. */
  'messaging:outbox': background(none, z.object({ messages: z.array(OutboxMessageView) }), STAFF),
  'messaging:playCardholder': channel({
    input: PlayCardholderRequest,
    output: PlayCardholderResult,
    access: STAFF,
    activity: 'operator',
    audit: 'none',
  }),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
