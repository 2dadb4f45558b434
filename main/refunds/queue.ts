/** The supervisors' queue: each request with what approving it now refunds, its payment, guest and who asked and decided. */
import { refundableCents } from '../../shared/payments';
import type { RefundQueueItem } from '../../shared/ipc/views';
import { requestView, type StoredRequest } from './requests';

/** A payment as main's records hold it (the journal: every desk's on the center), for the queue. */
export interface QueuePayment {
  id: string;
  reservationId: string;
  status: string;
  amountCents: number;
  currency: string;
  createdAt: string;
  /** Its card as the journal holds it: brand and last 4, never more. */
  brand: string | undefined;
  last4: string | undefined;
  refunds: readonly {
    id: string;
    amountCents: number | undefined;
    currency: string;
    reason: string | undefined;
    status: string;
    createdAt: string | undefined;
  }[];
}

/** Main's records the queue reads, each once per queue whatever the number of requests naming it. */
export interface QueueRecords {
  payments(ids: readonly string[]): Promise<readonly QueuePayment[]>;
  guestName(reservationId: string): Promise<string | undefined>;
  /** The display names of these operators, in one read (an id no one has is left out). */
  operatorNames(operatorIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/**
 * The queue's items: every request, each naming its desk, with what approving it now refunds, its payment (card as
 * brand and last 4), guest and reservation, and who asked and decided by name, from main's records read once.
 */
export async function queueItems(
  requests: readonly StoredRequest[],
  records: QueueRecords,
): Promise<RefundQueueItem[]> {
  const payments = new Map(
    (await records.payments([...new Set(requests.map((r) => r.paymentId))])).map((p) => [p.id, p]),
  );
  const once = <T>(read: (key: string) => Promise<T>): ((key: string) => Promise<T>) => {
    const reads = new Map<string, Promise<T>>();
    return (key) => {
      let found = reads.get(key);
      if (found === undefined) reads.set(key, (found = read(key)));
      return found;
    };
  };
  const guestName = once((reservationId) => records.guestName(reservationId));
  const names = await records.operatorNames([
    ...new Set(requests.flatMap((r) => (r.decidedBy === undefined ? [r.requestedBy] : [r.requestedBy, r.decidedBy]))),
  ]);
  return Promise.all(
    requests.map(async (request): Promise<RefundQueueItem> => {
      const payment = payments.get(request.paymentId);
      const guest = payment && (await guestName(payment.reservationId));
      const requestedByName = names.get(request.requestedBy);
      const decidedByName = request.decidedBy === undefined ? undefined : names.get(request.decidedBy);
      // All that is left: now while pending; once approved, what its refund took.
      const allLeft =
        request.status === 'pending'
          ? payment && refundableCents(payment)
          : payment?.refunds.find((r) => r.id === request.refundId)?.amountCents;
      const refundCents = request.amountCents ?? allLeft;
      return {
        ...requestView(request),
        ...(refundCents === undefined ? {} : { refundCents }),
        ...(payment === undefined
          ? {}
          : {
              payment: {
                reservationId: payment.reservationId,
                amountCents: payment.amountCents,
                currency: payment.currency,
                status: payment.status,
                createdAt: payment.createdAt,
                ...(payment.brand === undefined || payment.last4 === undefined
                  ? {}
                  : { brand: payment.brand, last4: payment.last4 }),
                refunds: payment.refunds.map((r) => ({
                  id: r.id,
                  ...(r.amountCents === undefined ? {} : { amountCents: r.amountCents }),
                  currency: r.currency,
                  ...(r.reason === undefined ? {} : { reason: r.reason }),
                  status: r.status,
                  ...(r.createdAt === undefined ? {} : { createdAt: r.createdAt }),
                })),
              },
            }),
        ...(guest === undefined ? {} : { guestName: guest }),
        ...(requestedByName === undefined ? {} : { requestedByName }),
        ...(decidedByName === undefined ? {} : { decidedByName }),
      };
    }),
  );
}
