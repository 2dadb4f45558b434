/** Refunds as every layer sees them: requests and their approval, and the refund limits per role. */
import { z } from 'zod';
import { Amount, Cents, Currency, PaymentId, RefundReason, toCents } from '../payments';
import { OperatorId, Role } from '../operators';

export const RefundRequestId = z.uuid({ error: 'This is not a refund request id.' });

/** pending: waiting for a supervisor. approved: the refund was sent (its own status is on the payment). */
export const RefundRequestStatus = z.enum(['pending', 'approved', 'rejected', 'failed']);
export type RefundRequestStatus = z.infer<typeof RefundRequestStatus>;

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
  /** The supervisor or admin who approved or rejected it. */
  decidedBy: OperatorId.optional(),
  decidedAt: z.string().optional(),
  decisionNote: z.string().optional(),
  /** True when the approver signed on the agent's screen (manager override). */
  override: z.boolean(),
  refundId: z.string().optional(),
  failure: z.string().optional(),
});
export type RefundRequestView = z.infer<typeof RefundRequestView>;

export const RefundNote = z.string().trim().max(500, 'The note can have at most 500 characters.');

/** Per role and currency, the largest single refund that role may make, in major units as IT writes it (500 is 500.00); a missing entry means no limit. */
export const RefundLimits = z.partialRecord(Role.exclude(['agent']), z.partialRecord(Currency, Amount));
export type RefundLimits = z.infer<typeof RefundLimits>;

/** Supervisors up to 10,000 MXN or 500 USD a refund; admins above. */
export const DEFAULT_REFUND_LIMITS: RefundLimits = { supervisor: { mxn: 10_000, usd: 500 } };

/** The limit a role has in a currency, in cents: undefined for none, or 0 for a role that may not refund (agents). */
export function refundLimitFor(limits: RefundLimits, role: Role, currency: Currency): number | undefined {
  if (role === 'agent') return 0;
  const max = limits[role]?.[currency];
  return max === undefined ? undefined : toCents(max);
}

export const RefundLimitView = z.object({ role: Role, currency: Currency, maxCents: z.number().int().min(0).optional() });
export type RefundLimitView = z.infer<typeof RefundLimitView>;
