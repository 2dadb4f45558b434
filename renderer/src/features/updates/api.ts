// Updates through the bridge: main's update status (kept current by its events, asked again when a payment changes and,
// while a ready update waits for a payment, every 15 s) and the restart that installs it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Output, UpdateStatus } from '../../../../shared/ipc';
import { bridge, hasBridge, unwrap } from '../../bridge/client';

/** While a ready update waits for a payment, the status is asked again this often (besides after each payment event). */
const BLOCKED_RECHECK_MS = 15_000;

export const updateKeys = {
  status: ['updates', 'status'] as const,
};

const blocked = (status: UpdateStatus | undefined): boolean =>
  status?.state === 'ready' && status.blockedBy === 'payment_in_progress';

/** The update status; undefined while main has not said (the banner is a courtesy: a failed ask leaves it as it was). */
export function useUpdateStatus(): UseQueryResult<UpdateStatus> {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!hasBridge) return;
    const offChanged = bridge().events.on('updates:changed', (next) =>
      queryClient.setQueryData(updateKeys.status, next),
    );
    // A payment reaching its result can unblock a ready update.
    const offPayments = bridge().events.on(
      'payments:changed',
      () => void queryClient.invalidateQueries({ queryKey: updateKeys.status }),
    );
    return () => {
      offChanged();
      offPayments();
    };
  }, [queryClient]);
  return useQuery({
    queryKey: updateKeys.status,
    queryFn: () => unwrap(bridge().updates.status({})),
    enabled: hasBridge,
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (query) => (blocked(query.state.data) ? BLOCKED_RECHECK_MS : false),
  });
}

/** Quits to install the ready update; main refuses while a payment is in progress (`payment_in_progress`). */
export function useRestartToUpdate(): UseMutationResult<Output<'updates:restart'>, Error, void> {
  return useMutation({ mutationFn: () => unwrap(bridge().updates.restart({})) });
}
