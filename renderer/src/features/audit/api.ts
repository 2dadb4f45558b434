// The audit trail through the bridge: its rows a page at a time, the chain's verification and the CSV export.
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import type { InfiniteData, UseInfiniteQueryResult, UseMutationResult } from '@tanstack/react-query';
import type { AuditQuery, AuditVerification } from '../../../../shared/desk';
import type { Output } from '../../../../shared/ipc';
import { bridge, unwrap } from '../../bridge/client';

export const auditKeys = {
  all: ['audit'] as const,
  rows: (query: AuditQuery) => ['audit', query] as const,
};

/** The audit trail, newest first, a page at a time ("Older" asks for the rows before the last one shown). */
export function useAuditRows(
  query: AuditQuery | undefined,
): UseInfiniteQueryResult<InfiniteData<Output<'audit:list'>, number | undefined>> {
  return useInfiniteQuery({
    queryKey: auditKeys.rows(query ?? {}),
    queryFn: ({ pageParam }) =>
      unwrap(bridge().audit.list({ ...query, limit: 50, ...(pageParam === undefined ? {} : { beforeId: pageParam }) })),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBeforeId,
    enabled: query !== undefined,
    staleTime: 0,
  });
}

/** Main checks the whole chain of audit rows. */
export function useVerifyAudit(): UseMutationResult<AuditVerification, Error, void> {
  return useMutation({ mutationFn: () => unwrap(bridge().audit.verify({})) });
}

export type AuditFilters = Omit<AuditQuery, 'beforeId' | 'limit'>;

/** Every row matching the filters, as CSV. */
export function useExportAudit(): UseMutationResult<Output<'audit:exportCsv'>, Error, AuditFilters> {
  return useMutation({ mutationFn: (filters: AuditFilters) => unwrap(bridge().audit.exportCsv(filters)) });
}
