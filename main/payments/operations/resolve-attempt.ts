/**
 * A supervisor's word on an attempt past the service's window, found out with the service: not charged (closed, and
 * its reservation free for a new charge), or charged as `paymentId` — read from the service and taken only when it
 * is the payment this attempt would have made (its reservation, amount, currency and card).
 */
import { z } from 'zod';
import { PaymentId, centsFromWire } from '../../../shared/payments';
import type { RequestTrace } from '../client';
import { ServiceError } from '../errors';
import { reservationKey } from '../journal';
import type { PaymentContext } from './context';
import { checked, CreatePaymentBody } from './inputs';

export interface ResolveAttemptInput {
  operationId: string;
  outcome: 'not_charged' | 'charged';
  paymentId?: string | undefined;
  operatorId: string;
}

const notWaiting = (): ServiceError =>
  new ServiceError('invalid_input', 'attempt_not_to_reconcile', { param: 'operationId' });
const notThisOne = (): ServiceError =>
  new ServiceError('invalid_input', 'payment_does_not_match', { param: 'paymentId' });

export async function resolveAttempt(
  ctx: PaymentContext,
  input: ResolveAttemptInput,
  trace: RequestTrace | undefined,
): Promise<{ outcome: 'not_charged' | 'charged'; paymentId?: string }> {
  const { journal } = ctx;
  const op = await journal.operation(checked(z.uuid(), input.operationId));
  if (op?.kind !== 'create_payment' || op.state !== 'reconcile') throw notWaiting();
  // One word stands: another supervisor's, written since this one read the attempt, refuses this one (nothing written).
  if (input.outcome === 'not_charged') {
    if (!(await journal.resolve(op.key, { state: 'abandoned', errorCode: 'reconciled_not_charged' }, ctx.now())))
      throw notWaiting();
    return { outcome: 'not_charged' };
  }
  const paymentId = checked(PaymentId, input.paymentId);
  const body = CreatePaymentBody.parse(op.payload);
  // A payment the journal holds is another attempt's answer: never this one's (its own would stay hidden behind it).
  if ((await journal.payment(paymentId)) !== undefined) throw notThisOne();
  const payment = (await ctx.client.getPayment(paymentId, trace)).value;
  const same =
    reservationKey(payment.reservationId) === reservationKey(body.reservationId) &&
    centsFromWire(payment.originalAmount ?? payment.amount) === centsFromWire(body.amount) &&
    payment.currency === body.currency &&
    payment.methodId === body.methodId;
  if (!same) throw notThisOne();
  // Kept: the payment, and the attempt resolved as done, in one transaction.
  await journal.transaction(async (tx) => {
    await tx.savePayment(payment, { operatorId: op.operatorId });
    if (!(await tx.resolve(op.key, { state: 'done', resultId: payment.id, httpStatus: 200 }, ctx.now())))
      throw notWaiting();
  });
  ctx.poller.follow(payment.id, payment);
  await ctx.emit(payment.id);
  return { outcome: 'charged', paymentId: payment.id };
}
