// The channels of refunds: made directly, asked for and approved (on the agent's screen or from the queue), rejected, and the roles' limits.
import { z } from 'zod';
import { OperatorId } from '../operators';
import { Cents, Currency, PaymentId, RefundReason, ReservationId } from '../payments';
import { RefundLimitView, RefundNote, RefundRequestId, RefundRequestView } from '../desk';
import { REFUNDS, STAFF, TAKES_PAYMENTS } from './access';
import { OperationId, background, channel, defined, lower, none, type AuditLookup, type ChannelSpec } from './spec';
import { PaymentView, RefundQueueItem } from './views';

/** A refund request's payment: from the answer, or (a refusal has none) from main's records. */
const requestPayment = (
  input: { requestId: string },
  output: { request: { paymentId: string } } | undefined,
  lookup: AuditLookup,
): string | undefined => output?.request.paymentId ?? lookup.paymentOfRequest(input.requestId);

/**
 * What an approval records, on the agent's screen (`override`, with the supervisor's id typed) or from the queue (with the
 * amount confirmed): the request, who asked, who approved and the refund made.
 */
const approval = (
  requestId: string,
  output: { request: RefundRequestView } | undefined,
  how: { override: boolean; expectedAmountCents?: number; approverId?: string },
): Record<string, unknown> =>
  defined({
    requestId,
    override: how.override,
    expectedAmountCents: how.expectedAmountCents,
    requestedBy: output?.request.requestedBy,
    approverId: how.approverId,
    approvedBy: output?.request.decidedBy,
    refundId: output?.request.refundId,
  });

/**
 * What became of a refund request, for the desk where it was asked (its agent's windows show it to that agent):
 * `approved` (the refund is on its way), `made` (it succeeded), `rejected` (with the supervisor's note) or `failed` (the
 * service refused it). `amountCents`: the refund's, or what was asked; absent for "all that was left" not yet made.
 */
export const RefundOutcomeView = z.object({
  requestId: RefundRequestId,
  paymentId: PaymentId,
  reservationId: ReservationId,
  outcome: z.enum(['approved', 'made', 'rejected', 'failed']),
  amountCents: Cents.optional(),
  currency: Currency,
  reason: RefundReason,
  requestedBy: OperatorId,
  decidedBy: OperatorId.optional(),
  decisionNote: z.string().optional(),
});
export type RefundOutcomeView = z.infer<typeof RefundOutcomeView>;

/** The refunds of the payment the screen showed before a new refund, possibly none: main refuses it (`refunds_not_acknowledged`) otherwise. */
const AcknowledgedRefundIds = z.array(z.string().min(1).max(64)).max(100);
/**
 * The amount of the refund the operator confirmed, as the screen named it ("Refund $899.99 MXN"): main refuses the refund
 * (`refund_amount_changed`, nothing sent) when what it would send now is another amount (a refund of the payment made
 * meanwhile changed "all that is left"), and sends this amount, never "all that is left" unnamed. Every screen gives it.
 */
const ExpectedAmountCents = Cents;

export const REFUND_CHANNELS = {
  /**
   * A supervisor or admin refunds directly, within their role's limit; without an amount, all that is left. The amount the
   * confirmation named (`expectedAmountCents`) is required: main refunds that amount or nothing.
   */
  'refunds:create': channel({
    input: z.strictObject({
      operationId: OperationId,
      paymentId: PaymentId,
      amountCents: Cents.optional(),
      reason: RefundReason,
      acknowledgedRefundIds: AcknowledgedRefundIds,
      expectedAmountCents: ExpectedAmountCents,
    }),
    output: PaymentView,
    access: REFUNDS,
    activity: 'operator',
    audit: {
      action: 'refund.create',
      resource: (input) => input.paymentId,
      details: (input) =>
        defined({
          amountCents: input.amountCents ?? 'all left',
          expectedAmountCents: input.expectedAmountCents,
          reason: input.reason,
          operationId: input.operationId,
        }),
    },
  }),
  /** An agent asks for a refund: it waits for a supervisor (override on the same screen, or the queue). */
  'refunds:request': channel({
    input: z.strictObject({
      requestId: RefundRequestId,
      paymentId: PaymentId,
      amountCents: Cents.optional(),
      reason: RefundReason,
      note: RefundNote.optional(),
    }),
    output: RefundRequestView,
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'refund.request',
      resource: (input) => input.paymentId,
      details: (input) =>
        defined({ requestId: input.requestId, amountCents: input.amountCents ?? 'all left', reason: input.reason }),
    },
  }),
  /** Manager override: a supervisor signs with their own credentials on the agent's screen; both ids are recorded. */
  'refunds:override': channel({
    input: z.strictObject({
      requestId: RefundRequestId,
      approverId: OperatorId,
      approverPassword: z.string().min(1, 'Enter the password.').max(200),
      acknowledgedRefundIds: AcknowledgedRefundIds,
    }),
    output: z.object({ request: RefundRequestView, payment: PaymentView }),
    access: TAKES_PAYMENTS,
    activity: 'operator',
    audit: {
      action: 'refund.approve',
      resource: requestPayment,
      details: (input, output) =>
        approval(input.requestId, output, { override: true, approverId: lower(input.approverId) }),
    },
  }),
  /** Background: the Approvals screen refreshes its queue by itself. Each request as main's records show it (RefundQueueItem). */
  'refunds:queue': background(
    z.strictObject({ status: z.enum(['pending', 'all']).optional() }),
    z.object({ requests: z.array(RefundQueueItem) }),
    REFUNDS,
  ),
  /** An agent's own requests for a payment, to see what became of them. */
  'refunds:requestsFor': background(
    z.strictObject({ paymentId: PaymentId }),
    z.object({ requests: z.array(RefundRequestView) }),
    STAFF,
  ),
  'refunds:approve': channel({
    input: z.strictObject({
      requestId: RefundRequestId,
      acknowledgedRefundIds: AcknowledgedRefundIds,
      expectedAmountCents: ExpectedAmountCents,
    }),
    output: z.object({ request: RefundRequestView, payment: PaymentView }),
    access: REFUNDS,
    activity: 'operator',
    audit: {
      action: 'refund.approve',
      resource: requestPayment,
      details: (input, output) =>
        approval(input.requestId, output, { override: false, expectedAmountCents: input.expectedAmountCents }),
    },
  }),
  'refunds:reject': channel({
    input: z.strictObject({ requestId: RefundRequestId, note: RefundNote.min(1, 'Say why the refund is rejected.') }),
    output: RefundRequestView,
    access: REFUNDS,
    activity: 'operator',
    audit: {
      action: 'refund.reject',
      resource: (input, output, lookup) => output?.paymentId ?? lookup.paymentOfRequest(input.requestId),
      details: (input, output) =>
        defined({ requestId: input.requestId, requestedBy: output?.requestedBy, note: input.note }),
    },
  }),
  /** The refund limits of every role, from the settings. */
  'refunds:limits': background(none, z.object({ limits: z.array(RefundLimitView) }), STAFF),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
