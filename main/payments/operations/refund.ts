/**
 * Refund (POST /payments/{id}/refunds): over-refund is refused here, before any request. An earlier refund of the same
 * payment still unanswered is sent again first, with its own key, and the new one is refused so that the supervisor
 * sees what is left now.
 */
import type { z } from 'zod';
import { centsToWire, formatMoney, refundableCents } from '../../../shared/payments';
import type { PaymentView } from '../../../shared/ipc/views';
import type { RequestTrace } from '../client';
import { ServiceError } from '../errors';
import type { Journal, Operation } from '../journal';
import { isReconcile, reconcileError, type BeginCheck } from '../ledger';
import { isPastWindow } from '../window';
import type { PaymentContext } from './context';
import { checked, RefundBody, RefundInput } from './inputs';
import { checkRefundsAcknowledged } from './refunds-acknowledged';
import { refundAmountUnknown, refundInFlight } from './rules';

/**
 * `whenBegun` (the daily cap of main/refunds) runs inside the transaction that writes a new refund operation, after
 * its row: throwing there writes nothing. Two desks beginning at once cannot both pass it on what the other has not
 * written yet: the check takes its operator's turn, and the second reads after the first committed, its row included.
 */
export async function refund(
  ctx: PaymentContext,
  input: z.input<typeof RefundInput>,
  whenBegun: BeginCheck | undefined,
  trace: RequestTrace | undefined,
): Promise<PaymentView> {
  const { journal } = ctx;
  const { operationId, paymentId, amountCents, reason, operatorId, acknowledgedRefundIds } = checked(
    RefundInput,
    input,
  );
  // A retry of an operation already begun is not checked again: its own refund may be what is counted now.
  const begun = operationId === undefined ? undefined : await journal.operation(operationId);
  if (!begun) await finishEarlierRefunds(ctx, paymentId, operationId, trace);
  const known = (await journal.payment(paymentId)) ?? (await ctx.fetchAndStore(paymentId, trace));
  const left = refundableCents(known);
  // The refusals below may close a refund request, which records their sentence as its failure.
  if (known.status !== 'succeeded' && !begun) {
    throw new ServiceError('invalid_input', 'payment_not_refundable', 'Only a succeeded payment can be refunded.', {
      param: 'paymentId',
    });
  }
  if (!begun && left === undefined) throw refundAmountUnknown();
  if (!begun && left !== undefined && (amountCents !== undefined ? amountCents > left : left === 0)) {
    throw new ServiceError(
      'invalid_input',
      'refund_exceeds_remaining',
      `Only ${formatMoney(left, known.currency)} is left to refund on this payment.`,
      { param: 'amountCents', params: { leftCents: left, currency: known.currency } },
    );
  }
  const body = checked(RefundBody, {
    ...(amountCents === undefined ? {} : { amount: centsToWire(amountCents) }),
    reason,
  });
  // A new refund, in the transaction that writes it: every refund made of the payment was shown first, then the caller's rule.
  const check: BeginCheck = async (tx, id) => {
    if (acknowledgedRefundIds !== undefined) await checkRefundsAcknowledged(tx, paymentId, acknowledgedRefundIds);
    await whenBegun?.(tx, id);
  };
  const op = await ctx.ledger.beginOrResume(
    operationId,
    'refund',
    body,
    { reservationId: known.reservationId, operatorId, resendable: true, paymentId },
    check,
    begun ?? 'none',
  );
  if (op.state !== 'done') await sendRefund(ctx, op, known, trace);
  ctx.poller.restartSoon(paymentId);
  return ctx.emit(paymentId);
}

/**
 * An unanswered refund sent again by a path other than its operator's own call (the desk's start, a new refund of the
 * payment): only while its operator's caps allow it now (`mayResendRefund`); otherwise marked for reconciliation and
 * its payment read. `also`: written in the transaction of the answer (recover()'s notice for its operator).
 */
export async function resendRefund(
  ctx: PaymentContext,
  op: Operation,
  trace?: RequestTrace,
  also?: (journal: Journal, resultId: string) => Promise<void>,
): Promise<void> {
  const paymentId = op.paymentId;
  if (paymentId === undefined) return;
  if (ctx.deps.mayResendRefund !== undefined && !(await ctx.deps.mayResendRefund(op))) {
    await ctx.ledger.markForReconciliation(op, 'over_cap_now');
    await ctx.fetchAndStore(paymentId, trace).catch(() => undefined);
    throw reconcileError();
  }
  const known = (await ctx.journal.payment(paymentId)) ?? (await ctx.fetchAndStore(paymentId, trace));
  await sendRefund(ctx, op, known, trace, also);
  ctx.poller.restartSoon(paymentId);
}

/** Sends a refund operation with its key and body as first written; kept: the refund, with its payment. */
async function sendRefund(
  ctx: PaymentContext,
  op: Operation,
  payment: { id: string; currency: string; reservationId: string },
  trace: RequestTrace | undefined,
  also?: (journal: Journal, resultId: string) => Promise<void>,
): Promise<void> {
  const body = RefundBody.parse(op.payload);
  const { id, currency, reservationId } = payment;
  await ctx.ledger.run(
    op,
    (key) => ctx.client.createRefund(id, body, key, trace),
    async (r, journal) => {
      await journal.saveRefund(r, { id, currency, reservationId }, op.operatorId);
      await also?.(journal, r.id);
      return r.id;
    },
  );
}

/**
 * A new refund while an earlier one of the same payment is still unanswered (its screen was closed, the app
 * reloaded): the earlier one is sent again first, with its own key, and the new one is refused so the supervisor sees
 * what is left now. Two attempts in flight could otherwise both be made. One unanswered for 24 hours is never sent
 * again (the service may have forgotten its key): it is marked for reconciliation, the payment is read (its refunds
 * list shows whether it was made) and the new refund goes on against that.
 */
async function finishEarlierRefunds(
  ctx: PaymentContext,
  paymentId: string,
  operationId: string | undefined,
  trace: RequestTrace | undefined,
): Promise<void> {
  // On every desk: the journal holds one unanswered refund per payment, wherever it was begun.
  const earlier = (await ctx.journal.pendingRefundsOf(paymentId)).filter((op) => op.operationId !== operationId);
  if (earlier.length === 0) return;
  const fresh = earlier.filter((op) => !isPastWindow(op.createdAt, ctx.now()));
  for (const op of earlier) {
    if (!fresh.includes(op)) await ctx.ledger.markForReconciliation(op);
  }
  if (fresh.length === 0) {
    await ctx.fetchAndStore(paymentId, trace);
    await ctx.emit(paymentId);
    return;
  }
  // Another desk's refund is that desk's to send (now, or at its next start): this one is refused, nothing sent.
  if (fresh.some((op) => op.deskId !== ctx.journal.deskId)) throw refundInFlight();
  let resent = 0;
  for (const op of fresh) {
    try {
      await resendRefund(ctx, op, trace);
      resent++;
    } catch (error) {
      // Past the service's window by its clock: marked for reconciliation, not sent; the new refund goes on against what is read.
      if (!isReconcile(error)) throw error;
    }
  }
  await ctx.fetchAndStore(paymentId, trace);
  await ctx.emit(paymentId);
  if (resent === 0) return;
  throw new ServiceError(
    'invalid_input',
    'earlier_refund_completed',
    'An earlier refund of this payment had not been answered; it has now been sent again and answered. Check what is left before refunding again.',
  );
}
