/**
 * Recovery at start-up: unanswered operations younger than 24 h are re-sent with their original key and payload; older
 * ones are marked for reconciliation, never re-sent with a new key. A tokenization cannot be re-sent (the card was not
 * kept) and is closed: it charged nothing. Payments that may still change are followed again.
 */
import type { Journal, Operation } from '../journal';
import { isReconcile } from '../ledger';
import { isPastWindow } from '../window';
import type { PaymentContext } from './context';
import { sendPayment } from './create-payment';
import { resendRefund } from './refund';

/**
 * How far recover() is: `total`, the unanswered operations it completes this time (re-sent, closed or marked for
 * reconciliation), said before the first; then after each, `done` of them.
 */
export interface RecoveryProgress {
  onProgress?(done: number, total: number): void;
}

export interface RecoveryReport {
  resent: string[];
  failed: string[];
  abandoned: string[];
  reconcile: string[];
  following: string[];
}

export async function recover(ctx: PaymentContext, progress: RecoveryProgress): Promise<RecoveryReport> {
  const report: RecoveryReport = { resent: [], failed: [], abandoned: [], reconcile: [], following: [] };
  await ctx.clock.sync(true);
  // This desk's own operations only: another desk's are that desk's to recover (each at its own start).
  const pending = await ctx.journal.pendingOperations();
  let done = 0;
  progress.onProgress?.(done, pending.length);
  for (const op of pending) {
    // Closed meanwhile (the app is quitting, the agent chose so): nothing more is sent; the rest stays pending, with its
    // key, for the next start.
    if (ctx.closed) break;
    await recoverOne(ctx, op, report);
    done += 1;
    progress.onProgress?.(done, pending.length);
  }
  for (const id of await ctx.journal.unsettledPaymentIds()) {
    ctx.poller.follow(id);
    report.following.push(id);
  }
  // What an update asks before restarting: known from the start, written or not.
  await ctx.desk.read();
  ctx.deps.logger?.info(
    { ...Object.fromEntries(Object.entries(report).map(([k, v]) => [k, (v as string[]).length])) },
    'recovery',
  );
  return report;
}

/** One unanswered operation completed: re-sent with its key, closed, or marked for reconciliation (in `report`). */
async function recoverOne(ctx: PaymentContext, op: Operation, report: RecoveryReport): Promise<void> {
  if (isPastWindow(op.createdAt, ctx.now())) {
    await ctx.ledger.markForReconciliation(op);
    report.reconcile.push(op.operationId);
    if (op.paymentId) await ctx.fetchAndStore(op.paymentId).catch(() => undefined);
    return;
  }
  if (!op.resendable) {
    await ctx.ledger.abandon(op, 'card_not_kept');
    report.abandoned.push(op.operationId);
    return;
  }
  try {
    // What it made is noted for its operator in the transaction that writes the answer: both are written, or neither.
    const notice = (journal: Journal, resultId: string): Promise<void> => noticeRecovered(ctx, op, resultId, journal);
    if (op.kind === 'create_payment') await sendPayment(ctx, op, undefined, notice);
    else if (op.kind === 'refund') await resendRefund(ctx, op, undefined, notice);
    report.resent.push(op.operationId);
  } catch (error) {
    if (!isReconcile(error)) {
      report.failed.push(op.operationId);
      return;
    }
    // The service's clock says what the desk's did not: past the window, marked for reconciliation, not sent.
    report.reconcile.push(op.operationId);
    if (op.paymentId) await ctx.fetchAndStore(op.paymentId).catch(() => undefined);
  }
}

/**
 * What recover() made of an operation the agent never got the answer to (a payment, a refund) is written as a notice for
 * the operator who began it: told first at their next sign-in, on any desk, until they acknowledge it.
 */
async function noticeRecovered(ctx: PaymentContext, op: Operation, resultId: string, journal: Journal): Promise<void> {
  const paymentId = op.kind === 'create_payment' ? resultId : op.paymentId;
  if (paymentId === undefined || op.kind === 'tokenize') return;
  const payment = await journal.payment(paymentId);
  if (payment === undefined) return;
  const refund = op.kind === 'refund' ? payment.refunds.find((r) => r.id === resultId) : undefined;
  if (op.kind === 'refund' && refund === undefined) return;
  const base = {
    id: op.operationId,
    operatorId: op.operatorId,
    reservationId: payment.reservationId,
    paymentId,
    takenAt: op.createdAt,
    completedAt: ctx.now(),
  };
  await journal.addRecovered(
    refund === undefined
      ? {
          ...base,
          kind: 'payment',
          refundId: undefined,
          amountCents: payment.amountCents,
          currency: payment.currency,
          status: payment.status,
        }
      : {
          ...base,
          kind: 'refund',
          refundId: refund.id,
          amountCents: refund.amountCents,
          currency: refund.currency,
          status: refund.status,
        },
  );
}
