// The query cache the features share: its defaults, and which queries follow a payment (marked stale when it changes),
// so that a feature announces a changed payment without knowing the other features' query keys.
import { QueryClient, type Query } from '@tanstack/react-query';

/**
 * What else a query's data is made of: when a payment changes (main's answer to a mutation, or a `payments:changed`
 * event), every query that follows it is marked stale and, if on screen, read again.
 */
export type Follows =
  /** Any payment (a search over payments). */
  | { payments: 'all' }
  /** One payment (its refund requests). */
  | { payment: string }
  /** The payments of one reservation (its overview). */
  | { reservation: string };

export type QueryMeta = Record<string, unknown> & { follows?: Follows };

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: QueryMeta;
  }
}

/** A query option: `useQuery({ ..., ...follows({ reservation: id }) })`. */
export const follows = (what: Follows): { meta: QueryMeta } => ({ meta: { follows: what } });

/** True when the query follows this payment. */
export function followsPayment(query: Pick<Query, 'meta'>, payment: { id: string; reservationId: string }): boolean {
  const what = query.meta?.follows;
  if (what === undefined) return false;
  if ('payments' in what) return true;
  if ('payment' in what) return what.payment === payment.id;
  return what.reservation === payment.reservationId;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Main is local: a failure is an answer to show, not a network blip to retry silently.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 },
      mutations: { retry: false },
    },
  });
}
