// Data read through window.api with react-query: reservations and payments, kept current by the events main pushes.
import { QueryClient, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Output } from '../../../shared/ipc';
import type { PaymentView } from '../../../shared/ipc/views';
import type { ReservationView } from '../../../shared/reservations';
import { api, unwrap } from './client';

export const queryClient = new QueryClient({
  defaultOptions: {
    // Main is local: a failure is an answer to show, not a network blip to retry silently.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 },
    mutations: { retry: false },
  },
});

/** The bridge, or an error the screens show in words when the page runs outside the app. */
export function bridge(): NonNullable<typeof api> {
  if (!api) throw new Error('This page runs outside the app: the payment bridge is missing.');
  return api;
}

export const keys = {
  appInfo: ['app-info'] as const,
  search: (text: string) => ['reservations', 'search', text] as const,
  reservation: (id: string) => ['reservations', 'one', id] as const,
  overview: (id: string) => ['reservations', 'overview', id] as const,
  payment: (id: string) => ['payments', id] as const,
};

export function useAppInfo(): UseQueryResult<Output<'app:info'>> {
  return useQuery({ queryKey: keys.appInfo, queryFn: () => unwrap(bridge().app.info({})), staleTime: Number.POSITIVE_INFINITY });
}

export function useReservationSearch(text: string): UseQueryResult<ReservationView[]> {
  const trimmed = text.trim();
  return useQuery({
    queryKey: keys.search(trimmed),
    queryFn: async () => (await unwrap(bridge().reservations.search({ text: trimmed }))).reservations,
    enabled: trimmed.length >= 2,
  });
}

export function useReservation(id: string | undefined): UseQueryResult<ReservationView | undefined> {
  return useQuery({
    queryKey: keys.reservation(id ?? ''),
    queryFn: async () => (await unwrap(bridge().reservations.get({ reservationId: id ?? '' }))).reservation,
    enabled: id !== undefined,
  });
}

export function useOverview(id: string | undefined): UseQueryResult<Output<'reservations:overview'>> {
  return useQuery({
    queryKey: keys.overview(id ?? ''),
    queryFn: () => unwrap(bridge().reservations.overview({ reservationId: id ?? '' })),
    enabled: id !== undefined,
  });
}

/** A payment as main last reported it; main follows it and pushes every change. */
export function usePayment(id: string | undefined): UseQueryResult<PaymentView> {
  return useQuery({
    queryKey: keys.payment(id ?? ''),
    queryFn: () => unwrap(bridge().payments.get({ paymentId: id ?? '' })),
    enabled: id !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Puts a payment main answered or pushed into the cache, and marks its reservation's overview stale. */
export function storePayment(payment: PaymentView): void {
  queryClient.setQueryData(keys.payment(payment.id), payment);
  void queryClient.invalidateQueries({ queryKey: keys.overview(payment.reservationId) });
}

/** Subscribes the cache to main's `payments:changed` events while mounted. */
export function usePaymentEvents(): void {
  useEffect(() => {
    if (!api) return;
    return api.events.on('payments:changed', storePayment);
  }, []);
}
