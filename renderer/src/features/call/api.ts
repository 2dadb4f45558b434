// The call's data through the bridge: the reservations the lookup finds, the one on the call, and its overview (its
// payments, saved cards and unanswered attempts), which follows every change of the reservation's payments.
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { Output } from '../../../../shared/ipc';
import type { ReservationView } from '../../../../shared/reservations';
import { follows } from '../../bridge/cache';
import { bridge, unwrap } from '../../bridge/client';
import { useLiveEvent, useLiveWatch } from '../live';

export const callKeys = {
  /** Everything read about reservations (an import of reservations marks it all stale). */
  all: ['reservations'] as const,
  search: (text: string) => ['reservations', 'search', text] as const,
  reservation: (id: string) => ['reservations', 'one', id] as const,
  overview: (id: string) => ['reservations', 'overview', id] as const,
};

/** The lookup: confirmation number, guest name, phone or e-mail (two characters at least). */
export function useReservationSearch(text: string): UseQueryResult<ReservationView[]> {
  const trimmed = text.trim();
  return useQuery({
    queryKey: callKeys.search(trimmed),
    queryFn: async () => (await unwrap(bridge().reservations.search({ text: trimmed }))).reservations,
    enabled: trimmed.length >= 2,
  });
}

export function useReservation(id: string | undefined): UseQueryResult<ReservationView | undefined> {
  return useQuery({
    queryKey: callKeys.reservation(id ?? ''),
    queryFn: async () => (await unwrap(bridge().reservations.get({ reservationId: id ?? '' }))).reservation,
    enabled: id !== undefined,
  });
}

/**
 * The reservation's payments, saved cards and unanswered attempts; read again whenever one of its payments changes, each
 * time the reservation is opened, and when another desk of the center begins or answers an attempt on it (pushed by main
 * while it is open here) or the center's live feed is back after a loss.
 */
export function useOverview(id: string | undefined): UseQueryResult<Output<'reservations:overview'>> {
  const queryClient = useQueryClient();
  useLiveWatch({ reservation: id });
  const readAgain = (): void => void queryClient.invalidateQueries({ queryKey: callKeys.overview(id ?? '') });
  useLiveEvent('reservations:changed', (change) => {
    if (change.reservationId === id) readAgain();
  });
  useLiveEvent('live:resync', readAgain);
  return useQuery({
    queryKey: callKeys.overview(id ?? ''),
    queryFn: () => unwrap(bridge().reservations.overview({ reservationId: id ?? '' })),
    enabled: id !== undefined,
    staleTime: 0,
    ...follows({ reservation: id ?? '' }),
  });
}
