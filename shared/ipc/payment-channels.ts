// The channels of payments: saving a card, charging, MSI amount and confirmation, unanswered attempts, abandon, recovery notices, late successes and the payments desk's search.
import { z } from 'zod';
import { OperatorId } from '../operators';
import { CardInput, Cents, Currency, MethodId, PaymentId, PaymentNote, ReservationId } from '../payments';
import { OverBalance } from '../payments/charge';
import { GuestEmail } from '../reservations';
import { PaymentQuery, RefundRequestId } from '../desk';
import { REFUNDS, STAFF, TAKES_PAYMENTS } from './access';
import { OperationId, background, channel, defined, done, none, type ChannelSpec } from './spec';
import { MethodView, PaymentCheck, PaymentSummary, PaymentView, RecoveredNoticeView } from './views';

/**
 * An abandoned payment that succeeded after all (its cardholder approved the old 3-D Secure link; the service has no
 * cancel), for the desk that abandoned it. Its refund (`duplicate` of `replacementPaymentId`, the reservation's payment
 * after it) waits in the supervisors' queue as request `requestId`.
 */
export const LateSuccessView = z.object({
  paymentId: PaymentId,
  reservationId: ReservationId,
  amountCents: Cents,
  currency: Currency,
  abandonedBy: OperatorId.optional(),
  replacementPaymentId: PaymentId.optional(),
  requestId: RefundRequestId,
});
/**
 * The charges of today the screen showed before a new charge (`reservations:overview` `chargedToday`), possibly none:
 * main refuses the charge (`charges_not_acknowledged`) while the reservation has one taken today, or one completed after
 * a restart whose notice is not acknowledged yet (whatever its day), that is not named here.
 */
const AcknowledgedPaymentIds = z.array(PaymentId).max(100);

export const PAYMENT_CHANNELS = {
  'payments:tokenize': channel({
    input: z.strictObject({
      operationId: OperationId,
      card: CardInput,
      guestEmail: GuestEmail.optional(),
      reservationId: ReservationId,
    }),
    output: MethodView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'card.save',
      resource: (_input, output) => output?.id,
      details: (input, output) =>
        defined({
          reservationId: input.reservationId,
          brand: output?.brand,
          last4: output?.last4,
          operationId: input.operationId,
        }),
    },
  }),
  'payments:pay': channel({
    input: z.strictObject({
      operationId: OperationId,
      methodId: MethodId,
      /** In cents: 12000 is 120.00. */
      amountCents: Cents,
      /** The reservation's currency: main refuses another (`currency_not_reservation`). */
      currency: Currency,
      reservationId: ReservationId,
      installments: z.boolean().optional(),
      note: PaymentNote.optional(),
      /**
       * The guest agrees to keep this card for later charges (the agent ticked it). Without it the card serves this
       * payment only: it is never offered as a saved card. A declined card is never offered either way.
       */
      keepCard: z.boolean().optional(),
      acknowledgedPaymentIds: AcknowledgedPaymentIds,
      /**
       * The agent confirmed a charge above what the reservation still owes: the owed amount the screen showed and the
       * amount. Main refuses a charge above what it computes as owed now (`over_balance_not_confirmed`) unless this names
       * both as they are. A retry of a charge already begun is that charge: it is not checked again.
       */
      overBalance: OverBalance.optional(),
    }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.create',
      resource: (_input, output) => output?.id,
      details: (input, output) =>
        defined({
          reservationId: input.reservationId,
          amountCents: input.amountCents,
          currency: input.currency,
          installments: input.installments === true ? true : undefined,
          keepCard: input.keepCard === true ? true : undefined,
          methodId: input.keepCard === true ? input.methodId : undefined,
          status: output?.status,
          operationId: input.operationId,
          acknowledgedPaymentIds:
            input.acknowledgedPaymentIds.length > 0 ? input.acknowledgedPaymentIds.join(',') : undefined,
          overBalanceOwedCents: input.overBalance?.owedCents,
          overBalanceAmountCents: input.overBalance?.amountCents,
        }),
    },
  }),
  /**
   * A supervisor resolves a payment attempt never answered within the service's window, once they found out with the
   * service what it did: not charged (the reservation is free again), or charged as this payment (its id, which main
   * reads and checks against the attempt).
   */
  'payments:resolveAttempt': channel({
    input: z
      .strictObject({
        operationId: OperationId,
        outcome: z.enum(['not_charged', 'charged']),
        paymentId: PaymentId.optional(),
      })
      .refine((input) => (input.outcome === 'charged') === (input.paymentId !== undefined), {
        path: ['paymentId'],
        message: 'The payment id is needed when, and only when, it was charged.',
      }),
    output: z.object({ outcome: z.enum(['not_charged', 'charged']), paymentId: PaymentId.optional() }),
    access: REFUNDS,
    activity: 'operator',
    audit: {
      action: 'payment.reconcile',
      resource: (_input, output) => output?.paymentId,
      details: (input) => defined({ operationId: input.operationId, outcome: input.outcome }),
    },
  }),
  /**
   * "Check again" on a payment attempt whose answer never came: main sends it again with its own key and payload (or
   * reads the payment it made) and says what the service did. Never a new payment.
   */
  'payments:checkAgain': channel({
    input: z.strictObject({ operationId: OperationId }),
    output: PaymentCheck,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.check',
      resource: (_input, output) => (output?.state === 'answered' ? output.payment.id : undefined),
      details: (input, output) =>
        defined({
          operationId: input.operationId,
          state: output?.state,
          status: output?.state === 'answered' ? output.payment.status : undefined,
        }),
    },
  }),
  /**
   * An MSI payment's new amount. Above what the reservation owes besides this payment, `overBalance` names that owed amount
   * and the new amount as the screen showed them, or main refuses it (`over_balance_not_confirmed`).
   */
  'payments:updateAmount': channel({
    input: z.strictObject({ paymentId: PaymentId, amountCents: Cents, overBalance: OverBalance.optional() }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.updateAmount',
      resource: (input) => input.paymentId,
      details: (input, output) =>
        defined({
          amountCents: input.amountCents,
          originalAmountCents: output?.originalAmountCents,
          overBalanceOwedCents: input.overBalance?.owedCents,
          overBalanceAmountCents: input.overBalance?.amountCents,
        }),
    },
  }),
  /**
   * The amount the agent saw goes with the confirmation: main refuses it in words when the service holds another. An
   * amount update, confirmation or abandon of one payment is one at a time across the center: one under way at another
   * desk refuses it (`payment_change_in_progress`, naming who). A confirmation the service still charges at another
   * amount is `confirmed_amount_differs`, the difference charged over what the agent saw put in the supervisors' queue.
   */
  'payments:confirm': channel({
    input: z.strictObject({
      paymentId: PaymentId,
      installmentsCount: z.number().int().min(1).max(48).optional(),
      expectedAmountCents: Cents,
    }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.confirm',
      resource: (input) => input.paymentId,
      details: (input, output) =>
        defined({
          installmentsCount: input.installmentsCount,
          expectedAmountCents: input.expectedAmountCents,
          status: output?.status,
        }),
    },
  }),
  /**
   * "Abandon and use another card": a payment waiting for 3-D Secure or for an MSI plan is left to expire on the
   * service and recorded as abandoned, freeing the reservation for a new charge — only once the service, asked now,
   * says it did not succeed (`payment_already_succeeded`, `payment_being_charged`, `abandon_outcome_unknown` refuse it).
   */
  'payments:abandon': channel({
    input: z.strictObject({ paymentId: PaymentId }),
    output: PaymentView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'payment.abandon',
      resource: (input) => input.paymentId,
      details: (_input, output) =>
        defined({ status: output?.status, amountCents: output?.amountCents, currency: output?.currency }),
    },
  }),
  /**
   * What main completed after a restart (a payment or refund whose answer never reached the operator who began it), not yet
   * acknowledged by the signed-in operator, on any desk: the workspace shows them first after sign-in and unlock.
   */
  'payments:recovered': background(none, z.object({ notices: z.array(RecoveredNoticeView) }), STAFF),
  /**
   * The late successes of payments abandoned at this desk whose refund request is still pending, whoever found them and
   * whenever (this desk closed, or its window not open yet): the workspace reads them at sign-in and unlock, as it hears
   * `payments:lateSuccess` while open.
   */
  'payments:lateSuccesses': background(none, z.object({ alerts: z.array(LateSuccessView) }), STAFF),
  /** The operator has read these notices of theirs: they are not shown again (another operator's are left as they are). */
  'payments:acknowledgeRecovered': channel({
    input: z.strictObject({ noticeIds: z.array(z.uuid()).min(1).max(100) }),
    output: z.object({ acknowledged: z.number().int() }),
    access: STAFF,
    activity: 'operator',
    audit: {
      action: 'payment.acknowledgeRecovered',
      details: (input, output) => defined({ noticeIds: input.noticeIds.join(','), acknowledged: output?.acknowledged }),
    },
  }),
  /** Background: the screens read a payment again after each change and on their own timers. */
  'payments:get': background(z.strictObject({ paymentId: PaymentId }), PaymentView, STAFF),
  /** Main follows the payment; its changes arrive as `payments:changed` events. */
  'payments:watch': background(z.strictObject({ paymentId: PaymentId }), done, STAFF),
  /** The journal's payments, newest first, refreshed from the service when one is opened (payments:get). */
  'payments:search': background(PaymentQuery, z.object({ payments: z.array(PaymentSummary) }), REFUNDS),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
