/**
 * The agent's lookup also takes the short reference read to the guest ("9D21-F5A0", shared/payments shortReference):
 * the reservations of the payments it names come first, then what the text finds as a reservation search.
 */
import { shortReferenceKey } from '../../shared/payments';
import { MAX_SEARCH_RESULTS, type ReservationView } from '../../shared/reservations';
import type { ReservationSource } from './source';

/** The payments whose short reference has this key (lower case), from the journal: only their reservation is read. */
export type PaymentsByShortReference = (key: string) => Promise<readonly { reservationId: string }[]>;

export async function searchWithShortReference(
  source: ReservationSource,
  query: { text: string },
  payments: PaymentsByShortReference,
): Promise<ReservationView[]> {
  const found = await source.search(query);
  const key = shortReferenceKey(query.text);
  if (key === undefined) return found;
  const ids = [
    ...new Map(
      (await payments(key)).map((payment) => [payment.reservationId.toLowerCase(), payment.reservationId]),
    ).values(),
  ];
  const paid = (await Promise.all(ids.map((id) => source.get(id)))).filter(
    (view): view is ReservationView => view !== undefined,
  );
  const first = new Set(paid.map((view) => view.confirmationNumber.toLowerCase()));
  return [...paid, ...found.filter((view) => !first.has(view.confirmationNumber.toLowerCase()))].slice(
    0,
    MAX_SEARCH_RESULTS,
  );
}
