/** What a reservation still owes, in cents: the source's balance less what this desk's payments took or may take, plus refunds back by their reason. */
import type { ReservationBalance } from '../../shared/ipc/views';
import { owedAfterRefunds, type RefundForBalance } from '../../shared/payments/refund-effect';

/** A payment of the reservation as the journal knows it (its view). */
interface BalancePayment {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  createdAt: string;
  updatedAt?: string | undefined;
  /** Abandoned while in progress: it no longer holds the balance (unless it succeeds after all). */
  abandonedAt?: string | undefined;
  refunds: readonly (RefundForBalance & { currency: string })[];
}

/**
 * Statuses in which nothing was taken (the spec's failures, and `canceled`). Every other one counts: succeeded, those
 * still in progress (processing, requires_action, pending_confirmation) and any status this app does not know.
 */
const TOOK_NOTHING = new Set(['failed', 'expired', 'canceled']);

/** One formatter per time zone: making one costs far more than using it (ICU's zone data is read on first use). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** YYYY-MM-DD of an instant in a time zone (the desk's calendar day). */
export function dayIn(instant: number | string, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date(instant));
}

/** The desk's calendar day a charge counts as taken on: its last change (when it succeeded), else when it was made. */
export function chargeDay(payment: { createdAt: string; updatedAt?: string | undefined }, timeZone: string): string {
  return dayIn(payment.updatedAt ?? payment.createdAt, timeZone);
}

/**
 * The balance the agent may charge: the source's balance (which this app assumes does not yet reflect its own payments)
 * less every succeeded or in-progress payment (not one the agent abandoned while it waited, unless its cardholder approved
 * it after all) and every payment attempt still unanswered, plus the refunds that reopen the debt by their reason
 * (shared/payments/refund-effect.ts: a fraudulent charge refunded is owed again; a cancellation closes the booking;
 * a duplicate or a refund the guest asked for is not owed again). Only amounts in the reservation's currency count;
 * never below zero: what succeeded beyond the balance is `overpaidCents`. `chargedToday`: the payments that succeeded on
 * the desk's calendar day, newest first, so the screen can warn before another charge.
 */
export function reservationBalance(
  reservation: { balanceDueCents: number; currency: string },
  journal: {
    payments: readonly BalancePayment[];
    pendingPayments: readonly { amountCents: number; currency: string }[];
  },
  clock: { now: number; timeZone: string },
): ReservationBalance {
  const currency = reservation.currency.toLowerCase();
  let takenCents = 0;
  let succeededCents = 0;
  let refundedCents = 0;
  const refunds: RefundForBalance[] = [];
  for (const payment of journal.payments) {
    if (payment.currency.toLowerCase() !== currency) continue;
    if (TOOK_NOTHING.has(payment.status)) continue;
    // Abandoned while it waited it holds nothing; approved by its cardholder after all (processing, succeeded) it counts.
    if (payment.abandonedAt !== undefined && ['requires_action', 'pending_confirmation'].includes(payment.status))
      continue;
    takenCents += payment.amountCents;
    if (payment.status === 'succeeded') succeededCents += payment.amountCents;
    for (const refund of payment.refunds) {
      refunds.push(refund);
      if (refund.status === 'succeeded' && refund.amountCents !== undefined) refundedCents += refund.amountCents;
    }
  }
  for (const attempt of journal.pendingPayments) {
    if (attempt.currency.toLowerCase() === currency) takenCents += attempt.amountCents;
  }
  const today = dayIn(clock.now, clock.timeZone);
  const chargedToday = journal.payments
    .filter((p) => p.status === 'succeeded' && chargeDay(p, clock.timeZone) === today)
    .map((p) => ({ paymentId: p.id, amountCents: p.amountCents, currency: p.currency, at: p.updatedAt ?? p.createdAt }))
    .sort((a, b) => b.at.localeCompare(a.at));
  const { owedCents, overpaidCents, reopenedCents, closed } = owedAfterRefunds({
    sourceBalanceCents: reservation.balanceDueCents,
    takenCents,
    succeededCents,
    refunds,
  });
  return {
    sourceBalanceCents: reservation.balanceDueCents,
    takenCents,
    refundedCents,
    reopenedCents,
    owedCents,
    overpaidCents,
    closed,
    currency: reservation.currency,
    chargedToday,
  };
}
