// The admin's data through the bridge: the operators' accounts (list, create, change, reset a password) and the import of
// reservations from a CSV. Passwords travel in a Secret, emptied when the call is made (react-query keeps variables).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { Input, Output } from '../../../../shared/ipc';
import type { OperatorView, Role } from '../../../../shared/operators';
import type { CsvImportResult } from '../../../../shared/reservations';
import { bridge, unwrap } from '../../bridge/client';
import type { Secret } from '../../bridge/secret';
import { callKeys } from '../call';

export const adminKeys = {
  operators: ['operators'] as const,
};

export function useOperators(): UseQueryResult<OperatorView[]> {
  return useQuery({
    queryKey: adminKeys.operators,
    queryFn: async () => (await unwrap(bridge().operators.list({}))).operators,
    staleTime: 0,
  });
}

/** Every change to an account reads the list again. */
function useOperatorsChanged(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: adminKeys.operators });
}

export interface NewOperator {
  id: string;
  displayName: string;
  role: Role;
  password: Secret;
}

export function useCreateOperator(): UseMutationResult<Output<'operators:create'>, Error, NewOperator> {
  const changed = useOperatorsChanged();
  return useMutation({
    mutationFn: ({ password, ...operator }: NewOperator) =>
      unwrap(bridge().operators.create({ ...operator, password: password.take() })),
    onSuccess: changed,
  });
}

/** A new role, or enabled / disabled. */
export function useUpdateOperator(): UseMutationResult<Output<'operators:update'>, Error, Input<'operators:update'>> {
  const changed = useOperatorsChanged();
  return useMutation({
    mutationFn: (change: Input<'operators:update'>) => unwrap(bridge().operators.update(change)),
    onSuccess: changed,
  });
}

export function useResetPassword(): UseMutationResult<
  Output<'operators:resetPassword'>,
  Error,
  { id: string; password: Secret }
> {
  const changed = useOperatorsChanged();
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: Secret }) =>
      unwrap(bridge().operators.resetPassword({ id, password: password.take() })),
    onSuccess: changed,
  });
}

/** Every row of the hotel's CSV export, or none; once imported, every reservation read is stale. */
export function useImportReservations(): UseMutationResult<CsvImportResult, Error, { file: Blob }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file }: { file: Blob }) => unwrap(bridge().reservations.importCsv({ csv: await file.text() })),
    onSuccess: (answer) => {
      if (answer.ok) void queryClient.invalidateQueries({ queryKey: callKeys.all });
    },
  });
}
