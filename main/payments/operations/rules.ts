/** What the operations share of a payment's state, and the refusals more than one of them gives. */
import { isFinalPayment } from '../../../shared/payments';
import { ServiceError } from '../errors';
import type { StoredPayment } from '../journal';

/** Statuses in which a payment waits for someone (the cardholder's 3-D Secure, the agent's plan): it may be abandoned. */
export const ABANDONABLE: ReadonlySet<string> = new Set(['requires_action', 'pending_confirmation']);

/** A payment still in progress on the service, as last read: not over, and not abandoned while it waited for its cardholder. */
export const isLive = (p: StoredPayment): boolean =>
  !isFinalPayment(p.status) && (p.abandonedAt === undefined || !ABANDONABLE.has(p.status));

/** Abandoned: it is left to expire, and a new payment is taken instead. */
export const abandonedError = (): ServiceError =>
  new ServiceError('invalid_input', 'payment_abandoned', { param: 'paymentId' });

/*
 * The refusals below may close a refund request, which keeps the error's message as its `failure` and the queues show
 * it as it is: so they still have a sentence (the door sends only their code).
 */

export const refundInFlight = (): ServiceError =>
  new ServiceError(
    'invalid_input',
    'refund_in_flight',
    'Another refund of this payment is being sent right now (on this desk or another one): wait for its answer, then check what is left before refunding again.',
    { param: 'paymentId' },
  );

export const refundAmountUnknown = (): ServiceError =>
  new ServiceError(
    'invalid_input',
    'refund_amount_unknown',
    'The service lists a refund of this payment without its amount, so what is left to refund cannot be known. Open the payment again later, or check it with the service, before refunding.',
    { param: 'paymentId' },
  );
