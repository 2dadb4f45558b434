/**
 * "Check again": an unanswered payment attempt is sent again with its own key and payload (or, answered already, its
 * payment is read). Says what the service did: the payment, still no answer, a refusal, or reconciliation.
 */
import { z } from 'zod';
import type { PaymentCheck } from '../../../shared/ipc/views';
import type { RequestTrace } from '../client';
import { ServiceError } from '../errors';
import { amountOf, pendingView, unansweredMessage } from './attempt-view';
import type { PaymentContext } from './context';
import { sendPayment } from './create-payment';
import { checked } from './inputs';

export async function checkAgain(
  ctx: PaymentContext,
  operationId: string,
  trace: RequestTrace | undefined,
): Promise<PaymentCheck> {
  const { journal } = ctx;
  const id = checked(z.uuid({ error: 'This is not a payment attempt id.' }), operationId);
  const op = await journal.operation(id);
  if (op?.kind !== 'create_payment')
    throw new ServiceError('invalid_input', 'attempt_not_found', { param: 'operationId' });
  if (op.state === 'pending') {
    // Past the service's window it is not sent (run marks it for reconciliation): what the journal says is answered.
    await sendPayment(ctx, op, trace).catch((error: unknown) => {
      if (!(error instanceof ServiceError)) throw error;
    });
  }
  const now = (await journal.operation(id)) ?? op;
  if (now.state === 'done' && now.resultId) {
    const resultId = now.resultId;
    const payment = await ctx
      .fetchAndStore(resultId, trace)
      .then((stored) => ctx.told(stored))
      .catch(() => ctx.emit(resultId));
    return { state: 'answered', payment };
  }
  if (now.state === 'pending')
    return {
      state: 'unanswered',
      attempt: await pendingView(journal, now, ctx.now()),
      message: unansweredMessage(now),
    };
  if (now.state === 'reconcile') {
    return {
      state: 'reconcile',
      attempt: await pendingView(journal, now, ctx.now()),
      message: `The payment of ${amountOf(now)} was never answered in 24 hours. It is not sent again: a supervisor must find out with the service whether it was charged.`,
    };
  }
  return {
    state: 'refused',
    code: now.errorCode ?? 'refused',
    message: `The service refused the payment of ${amountOf(now)}: nothing was charged.`,
  };
}
