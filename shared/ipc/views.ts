// What main may send the renderer about payments: brand and last 4 at most, never a card number, secret or token.
// Money is in cents (whole numbers): the renderer formats it, never computes with a fractional amount.
import { z } from 'zod';
import { Cents, CentsOrZero, SignedCents } from '../payments/money';
import { MessageChannel } from '../messaging/destination';
import { RefundRequestView } from '../desk/refunds';
import { Language } from '../language';

export const RefundView = z.object({
  id: z.string(),
  /** Absent when the service listed the refund without an amount. */
  amountCents: CentsOrZero.optional(),
  currency: z.string(),
  reason: z.string().optional(),
  status: z.string(),
  createdAt: z.string().optional(),
});

export const PaymentView = z.object({
  id: z.string(),
  reservationId: z.string(),
  status: z.string(),
  amountCents: CentsOrZero,
  /** The amount at creation, once it was updated. */
  originalAmountCents: CentsOrZero.optional(),
  currency: z.string(),
  methodId: z.string(),
  availableInstallments: z.array(z.number().int()),
  installments: z.object({ count: z.number().int(), perInstallmentCents: CentsOrZero }).optional(),
  /**
   * A 3DS link is waiting to be sent to the cardholder. The link itself never crosses to the renderer: main sends it
   * (messaging:sendLink names only the payment).
   */
  hasChallengeLink: z.boolean(),
  failure: z.object({ code: z.string(), message: z.string().optional() }).optional(),
  refunds: z.array(RefundView),
  /** What can still be refunded (0 while a refund's amount is unknown). */
  refundableCents: CentsOrZero,
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  expiresAt: z.string().optional(),
  nextCheckAt: z.number().optional(),
  /** The agent abandoned it while in progress ("Abandon and use another card"): it is left to expire on the service. */
  abandonedAt: z.string().optional(),
  /** Its card, as main's records hold it (brand and last 4 only); absent when no desk of the center tokenized it. */
  brand: z.string().optional(),
  last4: z
    .string()
    .regex(/^\d{0,4}$/)
    .optional(),
});
export type PaymentView = z.infer<typeof PaymentView>;

export const MethodView = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string().regex(/^\d{0,4}$/),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  expiresAt: z.string().optional(),
  createdAt: z.string(),
  /** A saved card: the operator who recorded the guest's consent to keep it, and when. */
  keptBy: z.string().optional(),
  keptAt: z.string().optional(),
});
export type MethodView = z.infer<typeof MethodView>;

/** A payment in the supervisor's search: the view (its card's brand and last 4 included), with who took it and where. */
export const PaymentSummary = PaymentView.extend({
  operatorId: z.string().optional(),
  /** The desk where it was taken (its desk id): the search covers every desk of the center. */
  deskId: z.string().optional(),
});
export type PaymentSummary = z.infer<typeof PaymentSummary>;

/**
 * A payment attempt whose outcome is not known: sent, never answered. It blocks any new payment on its reservation
 * until it is (main sends it again, with its own key, before anything new). `reconcile`: unanswered for 24 hours;
 * it is never sent again and a supervisor must find out what the service did.
 */
export const PendingPaymentView = z.object({
  operationId: z.string(),
  reservationId: z.string(),
  amountCents: Cents,
  currency: z.string(),
  installments: z.boolean(),
  methodId: z.string(),
  brand: z.string().optional(),
  last4: z
    .string()
    .regex(/^\d{0,4}$/)
    .optional(),
  startedAt: z.string(),
  /**
   * How long ago it was sent, in whole seconds, by main's clock when it was read: the screen tells the agent to call a
   * supervisor after a while by this, never by the desk's own clock.
   */
  ageSeconds: z.number().int().min(0),
  state: z.enum(['unanswered', 'reconcile']),
});
export type PendingPaymentView = z.infer<typeof PendingPaymentView>;

/** What "Check again" found out about a payment attempt. */
export const PaymentCheck = z.discriminatedUnion('state', [
  /** The service answered: this is the payment the attempt made. */
  z.object({ state: z.literal('answered'), payment: PaymentView }),
  /** Still no answer: nothing new may be charged on the reservation. */
  z.object({ state: z.literal('unanswered'), attempt: PendingPaymentView, message: z.string() }),
  /** The service refused it for good: nothing was charged. */
  z.object({ state: z.literal('refused'), code: z.string(), message: z.string() }),
  /** Unanswered for 24 hours: never sent again; a supervisor reconciles it. */
  z.object({ state: z.literal('reconcile'), attempt: PendingPaymentView, message: z.string() }),
]);
export type PaymentCheck = z.infer<typeof PaymentCheck>;

/**
 * What a reservation still owes, computed by main in cents: the source's balance less this desk's succeeded and
 * in-progress payments and unanswered attempts, plus succeeded refunds (main/payments/balance.ts). The payment form
 * fills `owedCents`; `chargedToday` lists the payments that succeeded today (the desk's calendar day), newest first,
 * so the screen warns before any new charge ("Already charged 980.00 USD today at 10:42").
 */
export const ReservationBalance = z.object({
  /** The balance as the reservation's source wrote it. */
  sourceBalanceCents: CentsOrZero,
  /** Succeeded and in-progress payments and unanswered attempts, in the reservation's currency. */
  takenCents: SignedCents.min(0),
  /** Succeeded refunds of those payments, whatever their reason. */
  refundedCents: SignedCents.min(0),
  /** Of those, what is owed again by its reason (shared/payments/refund-effect.ts: a fraudulent charge refunded). */
  reopenedCents: SignedCents.min(0),
  /** Still owed: never below zero, 0 once a cancellation closed the booking. */
  owedCents: CentsOrZero,
  /** Paid beyond the balance by succeeded payments, less what refunds already return of it: a supervisor may refund it. */
  overpaidCents: CentsOrZero,
  /** A cancellation refund closed the booking: nothing is owed, whatever the source's balance says. */
  closed: z.boolean(),
  currency: z.string(),
  chargedToday: z.array(
    z.object({ paymentId: z.string(), amountCents: CentsOrZero, currency: z.string(), at: z.string() }),
  ),
});
export type ReservationBalance = z.infer<typeof ReservationBalance>;

/**
 * A payment of the reservation still in progress and not abandoned, for the live panel that comes back when the
 * reservation is reopened, after the lock or after a restart: `processing` (the card is being charged),
 * `waiting_for_cardholder` (3-D Secure: the link is with the guest), `waiting_for_plan` (MSI: the guest picks a plan).
 * The 3DS link itself never crosses: main re-sends it (messaging:sendLink names only the payment).
 */
export const LivePaymentView = z.object({
  paymentId: z.string(),
  state: z.enum(['processing', 'waiting_for_cardholder', 'waiting_for_plan']),
  amountCents: CentsOrZero,
  currency: z.string(),
  brand: z.string().optional(),
  last4: z
    .string()
    .regex(/^\d{0,4}$/)
    .optional(),
  availableInstallments: z.array(z.number().int()),
  /** When the payment was made (ISO). */
  startedAt: z.string(),
  /** When it began waiting as it is now (its last change, ISO): the elapsed time counts from here. */
  waitingSince: z.string(),
  /** When the 3DS link (or the plan choice) stops working (ISO); absent while processing. */
  expiresAt: z.string().optional(),
  /** The last message that carried the 3DS link: the channel, the masked destination, its status and when. */
  lastLink: z.object({ channel: MessageChannel, to: z.string(), status: z.string(), sentAt: z.string() }).optional(),
});
export type LivePaymentView = z.infer<typeof LivePaymentView>;

/**
 * A charge of the reservation taken today (the desk's calendar day, by main's clock), succeeded or in progress: the
 * screen shows each before a new charge, and `payments:pay` names those it showed (`acknowledgedPaymentIds`).
 */
export const ChargeTodayView = z.object({
  paymentId: z.string(),
  amountCents: CentsOrZero,
  currency: z.string(),
  status: z.string(),
  at: z.string(),
});
export type ChargeTodayView = z.infer<typeof ChargeTodayView>;

/**
 * What main completed at a start after a restart (recover()): a payment or a refund whose answer the operator who began
 * it never got. Shown to that operator first, and on its reservation, until they acknowledge it. Times are ISO.
 */
export const RecoveredNoticeView = z.object({
  id: z.uuid(),
  kind: z.enum(['payment', 'refund']),
  operatorId: z.string(),
  reservationId: z.string(),
  paymentId: z.string(),
  refundId: z.string().optional(),
  amountCents: CentsOrZero.optional(),
  currency: z.string(),
  status: z.string(),
  takenAt: z.string(),
  completedAt: z.string(),
});
export type RecoveredNoticeView = z.infer<typeof RecoveredNoticeView>;

/**
 * A refund request as the supervisors' queue shows it, built by main in one read of its records (the center's: every
 * desk's) so that approving is seeing: what approving it now refunds, the payment (its card as brand and last 4 only),
 * the guest and reservation, and who asked and decided by name. A part main's records lack is absent, never guessed.
 */
export const RefundQueueItem = RefundRequestView.extend({
  /**
   * What approving it now refunds: the request's amount, or for "all that is left" the payment's amount less the refunds
   * that count (pending or succeeded) as main knows them now; once approved, what its refund took. Absent when that is
   * unknown (a refund without its amount; "all that is left" of a request rejected, or approved and not yet made).
   */
  refundCents: CentsOrZero.optional(),
  payment: z
    .object({
      reservationId: z.string(),
      amountCents: CentsOrZero,
      currency: z.string(),
      status: z.string(),
      createdAt: z.string(),
      brand: z.string().optional(),
      last4: z
        .string()
        .regex(/^\d{0,4}$/)
        .optional(),
      /** The payment's refunds made: an approval names them as shown (`acknowledgedRefundIds`). */
      refunds: z.array(RefundView),
    })
    .optional(),
  guestName: z.string().optional(),
  /** The display names of `requestedBy` and `decidedBy`. */
  requestedByName: z.string().optional(),
  decidedByName: z.string().optional(),
});
export type RefundQueueItem = z.infer<typeof RefundQueueItem>;

/**
 * Where the desk's start stands, for the window shown at once: `starting` (settings read, the desk's records opening),
 * `connecting_center` (the center's PostgreSQL), `recovering` (completing the operations the last run left unanswered:
 * `recovering.done` of `recovering.total`), `ready` (every channel is served). `language`: the desk's, from the settings,
 * so that the start-up screen speaks it before `app:info` can answer.
 */
export const StartupStatus = z.object({
  phase: z.enum(['starting', 'connecting_center', 'recovering', 'ready']),
  language: Language,
  recovering: z.object({ total: z.number().int().min(0), done: z.number().int().min(0) }).optional(),
});
export type StartupStatus = z.infer<typeof StartupStatus>;
export type StartupPhase = StartupStatus['phase'];
