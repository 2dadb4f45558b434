// The desk's start through the bridge: where it stands (asked once, then kept current by main's `app:startup` events),
// read before anything else; until `ready` main refuses every other call as `starting`.
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { StartupStatus } from '../../../../shared/ipc';
import { ApiError } from '../../bridge/errors';
import { bridge, hasBridge, unwrap } from '../../bridge/client';

export const startupKeys = {
  status: ['app-startup'] as const,
};

/** Main's answer `starting`: the desk is not serving yet (a call made at the edge of `ready`); asked again, never shown. */
export const isStarting = (error: unknown): boolean => error instanceof ApiError && error.code === 'starting';

/** How often a read refused as `starting` is asked again (the `ready` event usually comes first). */
export const STARTING_RETRY_MS = 500;

/** Where the start stands; main's `app:startup` events replace it as it moves on. */
export function useStartupStatus(): UseQueryResult<StartupStatus> {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!hasBridge) return;
    return bridge().events.on('app:startup', (next) => queryClient.setQueryData(startupKeys.status, next));
  }, [queryClient]);
  return useQuery({
    queryKey: startupKeys.status,
    queryFn: () => unwrap(bridge().app.startup({})),
    enabled: hasBridge,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
