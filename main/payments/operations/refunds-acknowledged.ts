/** A payment's refunds the operator must have been shown before another refund. */
import { countsAgainstRefundable } from '../../../shared/payments';
import { ServiceError } from '../errors';
import type { Journal } from '../journal';

/** Refuses a new refund while a refund made of the payment (pending or succeeded) is not among those the operator was shown. */
export async function checkRefundsAcknowledged(
  journal: Journal,
  paymentId: string,
  acknowledged: readonly string[],
): Promise<void> {
  const shown = new Set(acknowledged);
  const payment = await journal.payment(paymentId);
  const unseen = (payment?.refunds ?? [])
    .filter((r) => countsAgainstRefundable(r.status) && !shown.has(r.id))
    .reverse();
  const [newest] = unseen;
  if (newest === undefined) return;
  throw new ServiceError('invalid_input', 'refunds_not_acknowledged', {
    param: 'acknowledgedRefundIds',
    params: {
      count: unseen.length,
      amountCents: newest.amountCents ?? 0,
      currency: newest.currency,
      at: newest.createdAt ?? '',
    },
  });
}
