/**
 * The payment vocabulary every layer uses (engine, journal, audit, reports, renderer): the statuses of payments and
 * refunds, which are final, and what a refund counts against the amount left to refund. A status this app does not
 * know is never final (it is followed at the longest polling interval) and a refund in one counts against what is left.
 */

/** The spec's six payment statuses, and `canceled`, which the real service may send. */
export const PAYMENT_STATUSES = [
  'pending_confirmation',
  'processing',
  'requires_action',
  'succeeded',
  'failed',
  'expired',
  'canceled',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Nothing more happens to a payment in these (the spec's terminal statuses, and `canceled`). */
export const FINAL_PAYMENT_STATUSES = [
  'succeeded',
  'failed',
  'expired',
  'canceled',
] as const satisfies readonly PaymentStatus[];

/** Refund statuses (interface-decisions §6), and `canceled`. */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const FINAL_REFUND_STATUSES = ['succeeded', 'failed', 'canceled'] as const satisfies readonly RefundStatus[];

/** Refunds that moved no money: the only ones that do not count against what is left to refund. */
export const VOID_REFUND_STATUSES = ['failed', 'canceled'] as const satisfies readonly RefundStatus[];

const has = (list: readonly string[], status: string): boolean => list.includes(status);

export const isKnownPaymentStatus = (status: string): status is PaymentStatus => has(PAYMENT_STATUSES, status);
export const isFinalPayment = (status: string): boolean => has(FINAL_PAYMENT_STATUSES, status);
export const isKnownRefundStatus = (status: string): status is RefundStatus => has(REFUND_STATUSES, status);
export const isFinalRefund = (status: string): boolean => has(FINAL_REFUND_STATUSES, status);
/**
 * The statuses this app knows a payment or refund passes through before it ends. Only these are stale after a final
 * status (a read made before the end, answered after it); a status this app does not know is not (it may have moved money).
 */
export const IN_PROGRESS_PAYMENT_STATUSES: readonly PaymentStatus[] = PAYMENT_STATUSES.filter(
  (status) => !isFinalPayment(status),
);
export const IN_PROGRESS_REFUND_STATUSES: readonly RefundStatus[] = REFUND_STATUSES.filter(
  (status) => !isFinalRefund(status),
);
/** Pending, succeeded, and any status this app does not know (it may have moved money) count against what is left. */
export const countsAgainstRefundable = (status: string): boolean => !has(VOID_REFUND_STATUSES, status);

/**
 * What can still be refunded, in cents: the amount less every refund that counts. Undefined when a refund that counts
 * has no known amount (the service listed it without one): then nothing more may be refunded until it is known.
 */
export function refundableCents(payment: {
  status: string;
  amountCents: number;
  refunds: readonly { status: string; amountCents: number | undefined }[];
}): number | undefined {
  if (payment.status !== 'succeeded') return 0;
  let left = payment.amountCents;
  for (const refund of payment.refunds) {
    if (!countsAgainstRefundable(refund.status)) continue;
    if (refund.amountCents === undefined) return undefined;
    left -= refund.amountCents;
  }
  return Math.max(0, left);
}

/** What its refunds made of a payment that succeeded: refunded in full, or in part. */
export type PaymentRefundState = 'refunded' | 'partly_refunded';

/**
 * `refunded` once refunds that succeeded cover the payment's amount, `partly_refunded` while they cover part of it;
 * undefined when none succeeded yet (a pending refund may still fail) or the payment did not succeed. Every screen that
 * shows a payment's status says this instead of "paid".
 */
export function paymentRefundState(payment: {
  status: string;
  amountCents: number;
  refunds: readonly { status: string; amountCents?: number | undefined }[];
}): PaymentRefundState | undefined {
  if (payment.status !== 'succeeded') return undefined;
  const made = payment.refunds.reduce(
    (sum, refund) => sum + (refund.status === 'succeeded' ? (refund.amountCents ?? 0) : 0),
    0,
  );
  if (made <= 0) return undefined;
  return made >= payment.amountCents ? 'refunded' : 'partly_refunded';
}
