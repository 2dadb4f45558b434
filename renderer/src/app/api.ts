// The shell's data through the bridge: the app's environment, version and language (read before the first screen), and
// the desk's language preference saved in main.
import { useMutation, useQuery, useQueryClient, type UseMutationResult, type UseQueryResult } from '@tanstack/react-query';
import type { Output } from '../../../shared/ipc';
import type { Language } from '../../../shared/language';
import { bridge, hasBridge, unwrap } from '../bridge/client';

export { hasBridge };

export const appKeys = {
  info: ['app-info'] as const,
};

export function useAppInfo(): UseQueryResult<Output<'app:info'>> {
  return useQuery({ queryKey: appKeys.info, queryFn: () => unwrap(bridge().app.info({})), enabled: hasBridge, staleTime: Number.POSITIVE_INFINITY });
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
