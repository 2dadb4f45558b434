/**
 * What a refund must meet before it is sent: a succeeded payment with something left, no more than that asked, the
 * amount the operator confirmed, the role's caps per refund and per day; and the refusals of a request decided already
 * or of an override paused.
 */
import { refundCapsFor, type RefundLimits } from '../../shared/desk';
import type { OperatorView, Role } from '../../shared/operators';
import { CURRENCIES, countsAgainstRefundable, formatMoney, type Currency } from '../../shared/payments';
import { OVERRIDE_MAX_FAILURES } from '../operators';
import type { PaymentView } from '../payments';
import { refundedTodayCents, type RefundHistory } from './daily';
import { RefundError } from './errors';
import type { StoredRequest } from './requests';

/** The roles that refund, and approve agents' requests. */
export const APPROVERS: readonly Role[] = ['supervisor', 'admin'];

/** "1,234.50 MXN", from the cents. */
const money = formatMoney;

export const asCurrency = (currency: string): Currency => {
  const found = CURRENCIES.find((c) => c === currency.toLowerCase());
  if (!found)
    throw new RefundError('payment_not_refundable', `Refunds in ${currency.toUpperCase()} are not supported.`);
  return found;
};

/** What "today" is and which caps hold, for the daily cap. */
export interface CapRules {
  limits: RefundLimits;
  now: number;
  timeZone: string;
}

/** The role's cap on a single refund, then on what this operator refunds today (succeeded and pending refunds, plus this one). */
export async function checkCaps(
  by: OperatorView,
  currency: Currency,
  cents: number,
  history: RefundHistory,
  rules: CapRules,
): Promise<void> {
  const caps = refundCapsFor(rules.limits, by.role, currency);
  if (caps.perRefundCents !== undefined && cents > caps.perRefundCents) {
    const limitCents = caps.perRefundCents;
    throw new RefundError(
      'refund_limit',
      `This refund is ${money(cents, currency)}; as ${by.role} you may refund up to ${money(limitCents, currency)} at a time. An admin must make it.`,
      { field: 'amountCents', params: { amountCents: cents, limitCents, currency, role: by.role } },
    );
  }
  if (caps.perDayCents === undefined) return;
  const limitCents = caps.perDayCents;
  const refundedCents = await refundedTodayCents(history, by.id, currency, rules.now, rules.timeZone);
  const leftCents = Math.max(0, limitCents - refundedCents);
  if (cents > leftCents) {
    const left = leftCents === 0 ? 'nothing is left today' : `${money(leftCents, currency)} is left today`;
    throw new RefundError(
      'refund_daily_limit',
      `This refund is ${money(cents, currency)}; as ${by.role} you may refund up to ${money(limitCents, currency)} a day and have refunded ` +
        `${money(refundedCents, currency)} today, so ${left}. An admin must make it.`,
      {
        field: 'amountCents',
        params: { amountCents: cents, limitCents, refundedCents, leftCents, currency, role: by.role },
      },
    );
  }
}

/**
 * The amount to send for a refund the operator confirmed as `expectedAmountCents`: refused (refund_amount_changed) when
 * the refund would be another amount now (what is left changed since the screen read it); otherwise that amount, so
 * that a refund made meanwhile at another desk makes the service refuse it rather than refund less than was confirmed.
 * Without a confirmed amount, the refund as asked.
 */
export function confirmedAmount(
  payment: PaymentView,
  amountCents: number | undefined,
  expectedAmountCents: number | undefined,
): number | undefined {
  if (expectedAmountCents === undefined) return amountCents;
  const cents = checkRefundable(payment, amountCents);
  if (cents !== expectedAmountCents) {
    const currency = asCurrency(payment.currency);
    throw new RefundError(
      'refund_amount_changed',
      `The refund confirmed was ${money(expectedAmountCents, currency)}, but it would refund ${money(cents, currency)} now: another refund was made meanwhile. Nothing was refunded; read the amount again and confirm it.`,
      { field: 'expectedAmountCents', params: { expectedCents: expectedAmountCents, amountCents: cents, currency } },
    );
  }
  return cents;
}

/** A succeeded payment with something left, and no more than that asked: answers the cents to refund. */
export function checkRefundable(payment: PaymentView, amountCents: number | undefined): number {
  if (payment.status !== 'succeeded')
    throw new RefundError('payment_not_refundable', 'Only a succeeded payment can be refunded.');
  const currency = asCurrency(payment.currency);
  if (payment.refunds.some((refund) => refund.amountCents === undefined && countsAgainstRefundable(refund.status))) {
    throw new RefundError(
      'refund_amount_unknown',
      'The service lists a refund of this payment without its amount, so what is left to refund cannot be known. Open the payment again later before refunding.',
    );
  }
  const leftCents = payment.refundableCents;
  const cents = amountCents ?? leftCents;
  if (leftCents === 0)
    throw new RefundError('refund_exceeds_remaining', 'Nothing is left to refund on this payment.', {
      field: 'amountCents',
      params: { leftCents, currency },
    });
  if (cents > leftCents) {
    throw new RefundError(
      'refund_exceeds_remaining',
      `Only ${money(leftCents, currency)} is left to refund on this payment.`,
      { field: 'amountCents', params: { leftCents, currency } },
    );
  }
  return cents;
}

/** Only a supervisor or an admin approves, and never their own request. */
export function checkApprover(request: StoredRequest, approver: OperatorView): void {
  if (!APPROVERS.includes(approver.role)) {
    throw new RefundError('approver_not_allowed');
  }
  if (approver.id === request.requestedBy) {
    throw new RefundError('same_person');
  }
}

/**
 * Manager override refused for this approver id, at every desk, after too many wrong passwords in a row (even with the
 * right one, which was not checked). The minutes are from how long the center says the pause lasts.
 */
export function overridePaused(pausedForMs: number): RefundError {
  const minutes = Math.max(1, Math.ceil(pausedForMs / 60_000));
  return new RefundError('override_paused', { params: { minutes, failures: OVERRIDE_MAX_FAILURES } });
}

/** Decided already (at this desk or another): who decided it and when, for the renderer to say. */
export function closed(request: StoredRequest): RefundError {
  const decided = request.status === 'failed' ? 'approved' : request.status;
  const params: Record<string, string> | undefined =
    request.decidedBy === undefined || request.decidedAt === undefined || request.status === 'pending'
      ? undefined
      : decided === 'approved'
        ? { approvedBy: request.decidedBy, approvedAt: request.decidedAt }
        : { rejectedBy: request.decidedBy, rejectedAt: request.decidedAt };
  return new RefundError('request_closed', params === undefined ? {} : { params });
}
