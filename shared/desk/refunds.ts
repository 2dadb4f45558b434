/** Refunds as every layer sees them: requests and their approval, and the refund limits per role. */
import { z } from 'zod';
import { Amount, Cents, Currency, PaymentId, RefundReason, toCents } from '../payments';
import { OperatorId, Role } from '../operators';
import { freeText } from '../text';

export const RefundRequestId = z.uuid({ error: 'This is not a refund request id.' });

/** pending: waiting for a supervisor. approved: the refund was sent (its own status is on the payment). */
export const RefundRequestStatus = z.enum(['pending', 'approved', 'rejected', 'failed']);
export type RefundRequestStatus = z.infer<typeof RefundRequestStatus>;

/**
 * Why the app itself put a request in the queue: the service confirmed a payment for more than the agent saw (the
 * difference), or an abandoned payment succeeded after another replaced it (all of it, a duplicate).
 */
export const RefundRequestOrigin = z.enum(['confirmed_amount_differs', 'late_success']);
export type RefundRequestOrigin = z.infer<typeof RefundRequestOrigin>;

export const RefundRequestView = z.object({
  id: RefundRequestId,
  paymentId: PaymentId,
  /** Undefined: the whole amount left when it is approved. */
  amountCents: Cents.optional(),
  currency: Currency,
  reason: RefundReason,
  note: z.string().optional(),
  status: RefundRequestStatus,
  requestedBy: OperatorId,
  requestedAt: z.string(),
  /** The desk it was asked at (the approval queue is the center's); absent for requests made before desks had ids. */
  deskId: z.string().optional(),
  /** The supervisor or admin who approved or rejected it. */
  decidedBy: OperatorId.optional(),
  decidedAt: z.string().optional(),
  decisionNote: z.string().optional(),
  /** True when the approver signed on the agent's screen (manager override). */
  override: z.boolean(),
  refundId: z.string().optional(),
  failure: z.string().optional(),
  /** Put in the queue by the app, not asked for by an operator: why. */
  origin: RefundRequestOrigin.optional(),
  /** A late success: the reservation's payment that replaced this one (the refund is of this one, its duplicate). */
  linkedPaymentId: PaymentId.optional(),
});
export type RefundRequestView = z.infer<typeof RefundRequestView>;

export const RefundNote = freeText({ multiline: true }).trim().max(500, 'The note can have at most 500 characters.');

/**
 * One role's caps in one currency: the largest single refund, and the most one operator may refund in a day (the
 * refunds they made today, succeeded or still pending, plus this one; "today" in the desk's time zone). Either may be
 * left out: no cap of that kind.
 */
export const RefundCap = z.strictObject({ perRefund: Amount.optional(), perDay: Amount.optional() });
export type RefundCap = z.infer<typeof RefundCap>;

/**
 * Per role and currency, in major units as IT writes it (500 is 500.00): `{"perRefund": 500, "perDay": 1500}`, or one number (the form before the daily cap), which
 * caps both a single refund and the day's total, so that a refund split in parts stays within it. A role or
 * currency left out has no limit.
 */
export const RefundLimits = z.partialRecord(
  Role.exclude(['agent']),
  z.partialRecord(
    Currency,
    z.union([Amount, RefundCap], { error: 'must be an amount, or {"perRefund": amount, "perDay": amount}' }),
  ),
);
export type RefundLimits = z.infer<typeof RefundLimits>;

/** Supervisors up to 10,000 MXN or 500 USD a refund and a day; admins above. */
export const DEFAULT_REFUND_LIMITS: RefundLimits = {
  supervisor: { mxn: { perRefund: 10_000, perDay: 10_000 }, usd: { perRefund: 500, perDay: 500 } },
};

/** A role's caps in a currency, in cents: undefined for none of a kind; 0 for a role that may not refund (agents). */
export function refundCapsFor(
  limits: RefundLimits,
  role: Role,
  currency: Currency,
): { perRefundCents?: number; perDayCents?: number } {
  if (role === 'agent') return { perRefundCents: 0, perDayCents: 0 };
  const cap = limits[role]?.[currency];
  if (cap === undefined) return {};
  const { perRefund, perDay } = typeof cap === 'number' ? { perRefund: cap, perDay: cap } : cap;
  return {
    ...(perRefund === undefined ? {} : { perRefundCents: toCents(perRefund) }),
    ...(perDay === undefined ? {} : { perDayCents: toCents(perDay) }),
  };
}

/** The largest single refund a role may make in a currency, in cents: undefined for none, or 0 (agents). */
export function refundLimitFor(limits: RefundLimits, role: Role, currency: Currency): number | undefined {
  return refundCapsFor(limits, role, currency).perRefundCents;
}

/** `maxCents`: the largest single refund; `maxPerDayCents`: the most one operator of the role may refund in a day. */
export const RefundLimitView = z.object({
  role: Role,
  currency: Currency,
  maxCents: z.number().int().min(0).optional(),
  maxPerDayCents: z.number().int().min(0).optional(),
});
export type RefundLimitView = z.infer<typeof RefundLimitView>;
