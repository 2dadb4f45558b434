/**
 * What became of a refund request, told to the desk where it was asked (its agent hears it live, wherever the
 * supervisor decided): approved (the refund on its way), made, rejected with the note, or failed.
 */
import type { EventPayload } from '../../shared/ipc';
import { VOID_REFUND_STATUSES } from '../../shared/payments';
import type { StoredRequest } from './requests';

export type RefundOutcome = EventPayload<'refunds:outcome'>;

/**
 * The outcome of `request` for the desk `deskId`, from the request and its payment as the journal holds it now;
 * undefined while it is pending, when it was asked at another desk, or when there is nothing to tell: an approval signed
 * on the agent's own screen (manager override) is told only once its refund is made or failed.
 */
export function refundOutcome(
  request: StoredRequest,
  payment:
    | { reservationId: string; refunds: readonly { id: string; status: string; amountCents?: number | undefined }[] }
    | undefined,
  deskId: string,
): RefundOutcome | undefined {
  if (request.status === 'pending' || request.deskId !== deskId || payment === undefined) return undefined;
  const refund = request.refundId === undefined ? undefined : payment.refunds.find((r) => r.id === request.refundId);
  let outcome: RefundOutcome['outcome'];
  if (request.status === 'rejected') outcome = 'rejected';
  else if (
    request.status === 'failed' ||
    (refund !== undefined && (VOID_REFUND_STATUSES as readonly string[]).includes(refund.status))
  )
    outcome = 'failed';
  else if (refund?.status === 'succeeded') outcome = 'made';
  else if (request.override) return undefined;
  else outcome = 'approved';
  const amountCents = refund?.amountCents ?? request.amountCents;
  return {
    requestId: request.id,
    paymentId: request.paymentId,
    reservationId: payment.reservationId,
    outcome,
    ...(amountCents === undefined ? {} : { amountCents }),
    currency: request.currency,
    reason: request.reason,
    requestedBy: request.requestedBy,
    ...(request.decidedBy === undefined ? {} : { decidedBy: request.decidedBy }),
    ...(request.decisionNote === undefined ? {} : { decisionNote: request.decisionNote }),
  };
}
