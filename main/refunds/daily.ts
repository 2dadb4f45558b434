/** What one operator has refunded today (the desk's time zone), per currency: the daily cap is checked against it. */
import { countsAgainstRefundable, toCents } from '../../shared/payments';
import { localDayAndHour, searchWindow } from '../reports';

/** One refund operation of a desk of the center, as journaled before it was sent (main/payments' Journal keeps them). */
export interface RefundOperationRecord {
  /** The operation's id, where the journal gives it (a resumed refund's count leaves itself out by it). */
  operationId?: string;
  operatorId: string;
  /** pending, done, failed, reconcile (unanswered for 24 h), abandoned. */
  state: string;
  paymentId: string | undefined;
  /** The body sent: `amount` in major units, or none (all that was left). */
  payload: unknown;
  /** The refund it made, once answered. */
  resultId: string | undefined;
  /** When the desk began it (epoch ms, the desk's clock). */
  createdAt: number;
}

/** What the count needs of the journal (main/payments' Journal is one). */
export interface RefundHistory {
  /**
   * The refund operations begun in [from, to) (epoch ms) at every desk of the center, in every state; with
   * `operatorId`, at least that operator's (the count filters again).
   */
  refundOperationsBegunBetween(
    from: number,
    to: number,
    operatorId?: string,
  ): Promise<readonly RefundOperationRecord[]>;
  /** The payments of these ids that the journal holds, in one read (however many refunds the operator made today). */
  payments(ids: readonly string[]): Promise<readonly RefundedPayment[]>;
}

/** A payment as the count needs it: its amount and currency, and the refunds the journal holds of it. */
export interface RefundedPayment {
  id: string;
  amountCents: number;
  currency: string;
  refunds: readonly { id: string; amountCents: number | undefined; status: string; operatorId: string | undefined }[];
}

const same = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase();

/**
 * What an operation asked for: its body's amount, or (none: all that was left) what the payment had left before it —
 * its amount less the refunds this desk made by other operations. A refund the service lists without knowing whose it
 * is may be this operation's own (its answer lost, the payment read since), so it is not taken off.
 */
export function askedCents(op: RefundOperationRecord, payment: RefundedPayment | undefined): number {
  const sent = sentCents(op);
  if (sent !== undefined) return sent;
  if (!payment) return 0;
  const others = payment.refunds.filter(
    (r) => r.id !== op.resultId && r.operatorId !== undefined && countsAgainstRefundable(r.status),
  );
  return Math.max(0, payment.amountCents - others.reduce((sum, r) => sum + (r.amountCents ?? 0), 0));
}

/** The cents a begun refund operation's body names (`amount`, in major units); undefined when it asked all that was left. */
export function sentCents(op: { payload: unknown }): number | undefined {
  const amount =
    typeof op.payload === 'object' && op.payload !== null ? (op.payload as { amount?: unknown }).amount : undefined;
  return typeof amount === 'number' && Number.isFinite(amount) ? toCents(amount) : undefined;
}

/**
 * The cents `operatorId` refunded today in `currency`: the refund operations they began today at any desk of the center (an approval
 * counts for the approver), by the desk's own clock — never by the service's stamp, which may be missing or of another
 * day. Each counts what its refund holds, or what it asked while its answer is unknown; a refund the service says
 * failed or was canceled, or an operation refused for good, counts nothing. A refund in a status this app does not know
 * counts (it may have moved money).
 */
export async function refundedTodayCents(
  history: RefundHistory,
  operatorId: string,
  currency: string,
  now: number,
  timeZone: string,
): Promise<number> {
  const today = localDayAndHour(new Date(now).toISOString(), timeZone)?.day;
  if (today === undefined) return 0;
  const window = searchWindow(today);
  const isToday = (ms: number): boolean => localDayAndHour(new Date(ms).toISOString(), timeZone)?.day === today;
  const ops = (
    await history.refundOperationsBegunBetween(Date.parse(window.from), Date.parse(window.to), operatorId)
  ).filter(
    (op) =>
      same(op.operatorId, operatorId) && isToday(op.createdAt) && op.state !== 'failed' && op.state !== 'abandoned',
  );
  const ids = [...new Set(ops.flatMap((op) => (op.paymentId === undefined ? [] : [op.paymentId])))];
  const payments = new Map(
    (ids.length === 0 ? [] : await history.payments(ids)).map((payment) => [payment.id, payment] as const),
  );
  let cents = 0;
  for (const op of ops) {
    const payment = op.paymentId === undefined ? undefined : payments.get(op.paymentId);
    if (payment !== undefined && !same(payment.currency, currency)) continue;
    const made = op.resultId === undefined ? undefined : payment?.refunds.find((r) => r.id === op.resultId);
    if (made !== undefined && !countsAgainstRefundable(made.status)) continue;
    cents += made?.amountCents ?? askedCents(op, payment);
  }
  return cents;
}
