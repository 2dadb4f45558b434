// The end-of-day report through the bridge: one day's totals, asked again each time the day is shown.
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { EndOfDayReport } from '../../../../shared/desk';
import { bridge, unwrap } from '../../bridge/client';

export const reportKeys = {
  endOfDay: (date: string) => ['report', date] as const,
};

export function useEndOfDay(date: string | undefined): UseQueryResult<EndOfDayReport> {
  return useQuery({
    queryKey: reportKeys.endOfDay(date ?? ''),
    queryFn: () => unwrap(bridge().reports.endOfDay({ date: date ?? '' })),
    enabled: date !== undefined,
    staleTime: 0,
  });
}
