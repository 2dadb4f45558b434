// Data read through window.api with react-query: reservations and payments, kept current by the events main pushes.
import { QueryClient, useInfiniteQuery, useQuery, type UseInfiniteQueryResult, type InfiniteData, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Output } from '../../../shared/ipc';
import type { PaymentView } from '../../../shared/ipc/views';
import type { ReservationView } from '../../../shared/reservations';
import type { AuditQuery, EndOfDayReport, PaymentQuery, RefundLimitView, RefundRequestView } from '../../../shared/desk';
import type { OperatorView } from '../../../shared/operators';
import { api, unwrap } from '../bridge/client';

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
  paymentSearch: (query: PaymentQuery) => ['payment-search', query] as const,
  refundQueue: (status: 'pending' | 'all') => ['refund-requests', 'queue', status] as const,
  requestsFor: (paymentId: string) => ['refund-requests', 'for', paymentId] as const,
  refundLimits: ['refund-limits'] as const,
  audit: (query: AuditQuery) => ['audit', query] as const,
  report: (date: string) => ['report', date] as const,
  operators: ['operators'] as const,
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
  void queryClient.invalidateQueries({ queryKey: ['payment-search'] });
  void queryClient.invalidateQueries({ queryKey: keys.requestsFor(payment.id) });
}

/** Subscribes the cache to main's `payments:changed` events while mounted. */
export function usePaymentEvents(): void {
  useEffect(() => {
    if (!api) return;
    return api.events.on('payments:changed', storePayment);
  }, []);
}

/** Opening a payment on the supervisor desk: asked of the service again (GET /payments/{id}) each time it is opened. */
export function useFreshPayment(id: string | undefined): UseQueryResult<PaymentView> {
  return useQuery({
    queryKey: keys.payment(id ?? ''),
    queryFn: () => unwrap(bridge().payments.get({ paymentId: id ?? '' })),
    enabled: id !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: 'always',
  });
}

/** The journal's payments matching a supervisor's search (undefined: no search yet). */
export function usePaymentSearch(query: PaymentQuery | undefined): UseQueryResult<Output<'payments:search'>['payments']> {
  return useQuery({
    queryKey: keys.paymentSearch(query ?? {}),
    queryFn: async () => (await unwrap(bridge().payments.search(query ?? {}))).payments,
    enabled: query !== undefined,
    staleTime: 0,
  });
}

export function useRefundQueue(status: 'pending' | 'all'): UseQueryResult<RefundRequestView[]> {
  return useQuery({
    queryKey: keys.refundQueue(status),
    queryFn: async () => (await unwrap(bridge().refunds.queue({ status }))).requests,
    staleTime: 0,
    refetchInterval: 10_000,
  });
}

/** The refund requests made for a payment, and what became of them. */
export function useRequestsFor(paymentId: string | undefined): UseQueryResult<RefundRequestView[]> {
  return useQuery({
    queryKey: keys.requestsFor(paymentId ?? ''),
    queryFn: async () => (await unwrap(bridge().refunds.requestsFor({ paymentId: paymentId ?? '' }))).requests,
    enabled: paymentId !== undefined,
    staleTime: 0,
  });
}

export function useRefundLimits(): UseQueryResult<RefundLimitView[]> {
  return useQuery({ queryKey: keys.refundLimits, queryFn: async () => (await unwrap(bridge().refunds.limits({}))).limits, staleTime: 60_000 });
}

/** The audit trail, newest first, a page at a time ("Older" asks for the rows before the last one shown). */
export function useAuditRows(query: AuditQuery | undefined): UseInfiniteQueryResult<InfiniteData<Output<'audit:list'>, number | undefined>> {
  return useInfiniteQuery({
    queryKey: keys.audit(query ?? {}),
    queryFn: ({ pageParam }) => unwrap(bridge().audit.list({ ...query, limit: 50, ...(pageParam === undefined ? {} : { beforeSeq: pageParam }) })),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBeforeSeq,
    enabled: query !== undefined,
    staleTime: 0,
  });
}

export function useEndOfDay(date: string | undefined): UseQueryResult<EndOfDayReport> {
  return useQuery({ queryKey: keys.report(date ?? ''), queryFn: () => unwrap(bridge().reports.endOfDay({ date: date ?? '' })), enabled: date !== undefined, staleTime: 0 });
}

export function useOperators(): UseQueryResult<OperatorView[]> {
  return useQuery({ queryKey: keys.operators, queryFn: async () => (await unwrap(bridge().operators.list({}))).operators, staleTime: 0 });
}
