// The supervisor's payments through the bridge: the journal's search, and one payment asked of the service again each
// time it is opened. Both follow payment changes (main's answers and events) through the shared cache.
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { PaymentQuery } from '../../../../shared/desk';
import type { Output } from '../../../../shared/ipc';
import type { PaymentView } from '../../../../shared/ipc/views';
import { follows } from '../../bridge/cache';
import { bridge, unwrap } from '../../bridge/client';
import { paymentKeys } from '../payment';

export const paymentsKeys = {
  search: (query: PaymentQuery) => ['payment-search', query] as const,
};

/** The journal's payments matching a supervisor's search (undefined: no search yet); read again when any payment changes. */
export function usePaymentSearch(
  query: PaymentQuery | undefined,
): UseQueryResult<Output<'payments:search'>['payments']> {
  return useQuery({
    queryKey: paymentsKeys.search(query ?? {}),
    queryFn: async () => (await unwrap(bridge().payments.search(query ?? {}))).payments,
    enabled: query !== undefined,
    staleTime: 0,
    ...follows({ payments: 'all' }),
  });
}

/** Opening a payment on the supervisor desk: asked of the service again (GET /payments/{id}) each time it is opened. */
export function useFreshPayment(id: string | undefined): UseQueryResult<PaymentView> {
  return useQuery({
    queryKey: paymentKeys.detail(id ?? ''),
    queryFn: () => unwrap(bridge().payments.get({ paymentId: id ?? '' })),
    enabled: id !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: 'always',
  });
}
