// The shell's data through the bridge: the app's environment, version and language (read once the start is over), and
// the desk's language preference saved in main.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { Output } from '../../../shared/ipc';
import type { Language } from '../../../shared/language';
import { bridge, hasBridge, unwrap } from '../bridge/client';
import { isStarting, STARTING_RETRY_MS } from '../features/startup';

export { hasBridge };

export const appKeys = {
  info: ['app-info'] as const,
};

/** How many times a read refused as `starting` is asked again before the refusal stands. */
const STARTING_RETRIES = 20;

/**
 * The app's environment, version and language, asked once the start is over (`enabled`: the start-up status says
 * `ready`); a refusal `starting` at the edge of ready is asked again, never shown.
 */
export function useAppInfo(enabled = true): UseQueryResult<Output<'app:info'>> {
  return useQuery({
    queryKey: appKeys.info,
    queryFn: () => unwrap(bridge().app.info({})),
    enabled: hasBridge && enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: (failures, error) => isStarting(error) && failures < STARTING_RETRIES,
    retryDelay: STARTING_RETRY_MS,
  });
}

/** Saves the desk's language (main refuses when IT locked it: the language then stays the one asked for on screen). */
export function useSetLanguage(): UseMutationResult<Output<'app:setLanguage'>, Error, Language> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: Language) => unwrap(bridge().app.setLanguage({ language })).catch(() => ({ language })),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: appKeys.info });
    },
  });
}
