/**
 * Confirm (POST /payments/{id}/confirmation), with a plan or for a single payment, holding the payment's lease (no
 * desk's amount update lands meanwhile). The payment is read first: the amount the service holds must be the amount the
 * agent saw, or nothing is confirmed. A service that still charges another amount (changed by a client outside the
 * center) is refused with both amounts, and the difference charged over what the agent saw goes to the supervisors'
 * queue.
 */
import { z } from 'zod';
import { Cents, PaymentId, centsFromWire, centsToWire } from '../../../shared/payments';
import type { PaymentView } from '../../../shared/ipc/views';
import type { RequestTrace } from '../client';
import { ServiceError } from '../errors';
import type { PaymentContext } from './context';
import { checked, OperatorId } from './inputs';
import { abandonedError } from './rules';

const ConfirmInput = z.strictObject({
  paymentId: PaymentId,
  installmentsCount: z.number().int().min(1).max(48).optional(),
  expectedAmountCents: Cents,
  operatorId: OperatorId,
});

export function confirm(
  ctx: PaymentContext,
  input: z.input<typeof ConfirmInput>,
  trace: RequestTrace | undefined,
): Promise<PaymentView> {
  const { paymentId, installmentsCount, expectedAmountCents, operatorId } = checked(ConfirmInput, input);
  return ctx.leases.exclusive(paymentId, operatorId, async () => {
    const current = await ctx.fetchAndStore(paymentId, trace);
    if (current.abandonedAt !== undefined) throw abandonedError();
    const amountChanged = (heldCents: number): ServiceError =>
      new ServiceError('invalid_input', 'amount_changed', {
        param: 'expectedAmountCents',
        params: { heldCents, expectedCents: expectedAmountCents, currency: current.currency },
      });
    if (current.amountCents !== expectedAmountCents) {
      await ctx.emit(paymentId);
      throw amountChanged(current.amountCents);
    }
    // After a lost answer the confirmation is sent again only while the payment still holds the amount the agent saw.
    const payment = (await ctx.client.confirm(paymentId, installmentsCount, trace, centsToWire(expectedAmountCents)))
      .value;
    const view = await ctx.store(payment);
    if (payment.status === 'pending_confirmation') throw amountChanged(centsFromWire(payment.amount));
    ctx.poller.restartSoon(paymentId);
    const chargedCents = centsFromWire(payment.amount);
    if (chargedCents === expectedAmountCents) return view;
    ctx.deps.logger?.warn(
      { paymentId, status: payment.status },
      'confirmed amount differs from the amount the agent saw',
    );
    if (chargedCents > expectedAmountCents) {
      // The agent is told of the amount whatever became of the request (the log says it for IT).
      await ctx
        .refundNeeded?.({
          origin: 'confirmed_amount_differs',
          paymentId,
          reservationId: view.reservationId,
          amountCents: chargedCents - expectedAmountCents,
          currency: view.currency,
          operatorId,
        })
        .catch((error: unknown) => {
          ctx.deps.logger?.warn(
            { paymentId, code: error instanceof Error ? error.name : 'unknown' },
            'the difference confirmed could not be queued for a refund',
          );
        });
    }
    // Over what the agent saw, a refund of the difference is in the supervisors' queue; under it, nothing more was charged.
    throw new ServiceError('unexpected_response', 'confirmed_amount_differs', {
      param: 'expectedAmountCents',
      params: { expectedCents: expectedAmountCents, chargedCents, currency: view.currency },
    });
  });
}
