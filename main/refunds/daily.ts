/** What one operator has refunded today (the desk's time zone), per currency: the daily cap is checked against it. */
import { toCents } from '../../shared/payments';
import { localDayAndHour, searchWindow } from '../reports';

/** What the count needs of the journal (main/payments' Journal is one). */
export interface RefundHistory {
  refundsCreatedBetween(from: string, to: string): readonly { amountCents: number | undefined; currency: string; status: string; operatorId: string | undefined; createdAt: string | undefined }[];
  /** Operations sent and not answered yet: a refund among them may have been made. */
  pendingOperations(): readonly { operationId: string; kind: string; operatorId: string; paymentId: string | undefined; payload: unknown; createdAt: number }[];
  payment(id: string): { amountCents: number; currency: string; refunds: readonly { amountCents: number | undefined; status: string }[] } | undefined;
}

/** Refunds that count: made (succeeded) or on their way (pending at the service, or sent and not answered). */
const COUNTED = new Set(['succeeded', 'pending']);

const same = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase();

/** The amount an unanswered refund asked for: its body's amount, or (none: all that was left) what the payment has left. */
function askedCents(op: { paymentId: string | undefined; payload: unknown }, history: RefundHistory): number {
  const amount = typeof op.payload === 'object' && op.payload !== null ? (op.payload as { amount?: unknown }).amount : undefined;
  if (typeof amount === 'number' && Number.isFinite(amount)) return toCents(amount);
  const payment = op.paymentId === undefined ? undefined : history.payment(op.paymentId);
  if (!payment) return 0;
  return Math.max(0, payment.amountCents - payment.refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + (r.amountCents ?? 0), 0));
}

/**
 * The cents `operatorId` refunded today in `currency`: the journal's refunds they made (an approval counts for the
 * approver) that succeeded or are pending, created today, plus their refund operations still unanswered, begun today.
 */
export function refundedTodayCents(history: RefundHistory, operatorId: string, currency: string, now: number, timeZone: string): number {
  const today = localDayAndHour(new Date(now).toISOString(), timeZone)?.day;
  if (today === undefined) return 0;
  const window = searchWindow(today);
  const isToday = (iso: string): boolean => localDayAndHour(iso, timeZone)?.day === today;
  let cents = 0;
  for (const refund of history.refundsCreatedBetween(window.from, window.to)) {
    if (same(refund.operatorId, operatorId) && same(refund.currency, currency) && COUNTED.has(refund.status) && refund.createdAt !== undefined && isToday(refund.createdAt)) {
      cents += refund.amountCents ?? 0;
    }
  }
  for (const op of history.pendingOperations()) {
    if (op.kind !== 'refund' || !same(op.operatorId, operatorId) || !isToday(new Date(op.createdAt).toISOString())) continue;
    const payment = op.paymentId === undefined ? undefined : history.payment(op.paymentId);
    if (payment !== undefined && !same(payment.currency, currency)) continue;
    cents += askedCents(op, history);
  }
  return cents;
}
