/**
 * "Abandon and use another card": a payment waiting for the cardholder (3-D Secure) or for a plan (MSI) is left to
 * expire on the service and recorded as abandoned, which frees its reservation for a new charge. Only once the
 * service, asked now, says it did not succeed: a succeeded payment is refused (it went through: no second charge),
 * one being charged right now too (its outcome is not known yet), and so is any payment the service could not be
 * asked about. A payment already over (failed, expired) needs nothing: it is answered as it is.
 */
import { z } from 'zod';
import { PaymentId, isFinalPayment } from '../../../shared/payments';
import type { PaymentView } from '../../../shared/ipc/views';
import type { RequestTrace } from '../client';
import { ServiceError } from '../errors';
import type { StoredPayment } from '../journal';
import type { PaymentContext } from './context';
import { checked, OperatorId } from './inputs';
import { ABANDONABLE } from './rules';

const AbandonInput = z.strictObject({ paymentId: PaymentId, operatorId: OperatorId });

export function abandon(
  ctx: PaymentContext,
  input: z.input<typeof AbandonInput>,
  trace: RequestTrace | undefined,
): Promise<PaymentView> {
  const { paymentId, operatorId } = checked(AbandonInput, input);
  return ctx.leases.exclusive(paymentId, operatorId, async () => {
    if (!(await ctx.journal.payment(paymentId)))
      throw new ServiceError('invalid_input', 'payment_not_on_desk', { param: 'paymentId' });
    let current: StoredPayment;
    try {
      current = await ctx.fetchAndStore(paymentId, trace);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      // Whether it went through is not known: not abandoned, and no new charge yet.
      throw new ServiceError(error.kind, 'abandon_outcome_unknown', { params: { paymentId } });
    }
    const amount = { amountCents: current.amountCents, currency: current.currency };
    if (current.status === 'succeeded') {
      await ctx.emit(paymentId);
      throw new ServiceError('invalid_input', 'payment_already_succeeded', { params: amount });
    }
    if (!ABANDONABLE.has(current.status) && !isFinalPayment(current.status)) {
      await ctx.emit(paymentId);
      throw new ServiceError('invalid_input', 'payment_being_charged', { params: amount });
    }
    // Kept: who abandoned it, where and when (a payment already over needs nothing).
    if (!isFinalPayment(current.status))
      await ctx.journal.abandonPayment(paymentId, operatorId, new Date(ctx.now()).toISOString());
    return ctx.emit(paymentId);
  });
}
