/**
 * Update the amount (PATCH /payments/{id}, flow C): plans are recomputed by the service. Never re-sent blindly (the
 * client reads the payment after a lost answer); one change of a payment at a time across the center (its lease).
 */
import { z } from 'zod';
import { Cents, PaymentId, centsToWire } from '../../../shared/payments';
import type { PaymentView } from '../../../shared/ipc/views';
import type { RequestTrace } from '../client';
import { ServiceError } from '../errors';
import type { PaymentContext } from './context';
import { checked, OperatorId } from './inputs';

const UpdateAmountInput = z.strictObject({ paymentId: PaymentId, amountCents: Cents, operatorId: OperatorId });

export function updateAmount(
  ctx: PaymentContext,
  input: z.input<typeof UpdateAmountInput>,
  trace: RequestTrace | undefined,
): Promise<PaymentView> {
  const { paymentId, amountCents, operatorId } = checked(UpdateAmountInput, input);
  return ctx.leases.exclusive(paymentId, operatorId, async () => {
    const payment = (await ctx.client.updateAmount(paymentId, centsToWire(amountCents), trace)).value;
    // Kept: what the service holds now, whatever it is.
    const view = await ctx.store(payment);
    // No longer waiting for confirmation: its amount cannot change now.
    if (payment.status !== 'pending_confirmation') throw new ServiceError('http', 'invalid_state');
    return view;
  });
}
