// What the live panel and the result say about time and ids: the elapsed time since a payment began waiting, the
// time of day of a charge, and the short reference the agent reads to the guest.
import type { Language } from '../../../../shared/language';
import { formatClock } from '../../i18n/format';
import type {
  LivePaymentView,
  PaymentView,
  PendingPaymentView,
  ReservationBalance,
} from '../../../../shared/ipc/views';

/** Whole seconds from `sinceIso` to `now` (never below zero: the service's clock may run ahead of the desk's). */
export function secondsSince(sinceIso: string, now: number): number {
  const since = Date.parse(sinceIso);
  return Number.isNaN(since) ? 0 : Math.max(0, Math.floor((now - since) / 1000));
}

/** Elapsed time as mm:ss, minutes beyond 59 kept as minutes (75:03). */
export function elapsedText(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The time of day of an ISO instant, hours and minutes, the desk's one way (i18n/format formatClock): "3:56 p.m.". */
export const clockTime = (iso: string, language: Language): string => formatClock(iso, language);

const FINISHED = new Set(['succeeded', 'failed', 'expired', 'canceled']);
const UNPAID = new Set(['failed', 'expired', 'canceled']);

/**
 * What the form fills: what the reservation still owes as main computes it, or the source's balance without it. Main
 * counts a payment in progress as taken; one this desk already knows ended unpaid (declined, expired, abandoned) while
 * the overview was read before that is given back, so that the form never starts from a count that is already old.
 */
export function owedCents(
  reservation: { balanceDueCents: number },
  balance: ReservationBalance | undefined,
  inProgress: readonly LivePaymentView[] = [],
  known: (id: string) => PaymentView | undefined = () => undefined,
): number {
  if (balance === undefined) return reservation.balanceDueCents;
  const given = inProgress
    .filter((live) => live.currency === balance.currency)
    .filter((live) => {
      const payment = known(live.paymentId);
      return (
        payment !== undefined &&
        (UNPAID.has(payment.status) || (payment.abandonedAt !== undefined && payment.status !== 'succeeded'))
      );
    })
    .reduce((sum, live) => sum + live.amountCents, 0);
  // Never more than the source's balance and what refunds made owed again; nothing once a cancellation closed the booking.
  return balance.closed ? 0 : Math.min(balance.owedCents + given, balance.sourceBalanceCents + balance.reopenedCents);
}

/**
 * The payment in progress the live panel takes up: the first one main lists that is not, as far as this desk already
 * knows, finished or abandoned (the overview may lag a moment behind the payment's own last word).
 */
export function livePaymentOf(
  inProgress: readonly LivePaymentView[],
  known: (id: string) => PaymentView | undefined,
): LivePaymentView | undefined {
  return inProgress.find((live) => {
    const payment = known(live.paymentId);
    return payment === undefined || (!FINISHED.has(payment.status) && payment.abandonedAt === undefined);
  });
}

/**
 * What is being charged right now on the reservation, in the balance's currency: its payments in progress (processing,
 * waiting for 3-D Secure or for an MSI plan) and its attempts still without an answer. Main counts them as taken, so the
 * call's header says this amount is in progress rather than a bare "still owed 0.00".
 */
export function inProgressCents(
  balance: ReservationBalance | undefined,
  inProgress: readonly LivePaymentView[] = [],
  pending: readonly PendingPaymentView[] = [],
): number {
  if (balance === undefined) return 0;
  const live = inProgress
    .filter((payment) => payment.currency === balance.currency)
    .reduce((sum, payment) => sum + payment.amountCents, 0);
  const unanswered = pending
    .filter((attempt) => attempt.state === 'unanswered' && attempt.currency === balance.currency)
    .reduce((sum, attempt) => sum + attempt.amountCents, 0);
  return live + unanswered;
}

/** "Check again" answered without an answer this many times: the agent calls a supervisor. */
export const SUPERVISOR_AFTER_CHECKS = 3;
/** An attempt this old (seconds, by main's clock) still without an answer: the agent calls a supervisor. */
export const SUPERVISOR_AFTER_SECONDS = 5 * 60;

/**
 * Whether the agent is told to call a supervisor about an attempt still without an answer: after SUPERVISOR_AFTER_CHECKS
 * checks, or once main says it was sent SUPERVISOR_AFTER_SECONDS ago (its age as main read it, never the desk's clock).
 */
export function callsSupervisor(checks: number, ageSeconds: number): boolean {
  return checks >= SUPERVISOR_AFTER_CHECKS || ageSeconds >= SUPERVISOR_AFTER_SECONDS;
}
