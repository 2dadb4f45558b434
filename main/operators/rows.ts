/** An operator's row as the directory reads it: the database it is read from, its public view, the form of its id. */
import type { Transaction } from 'kysely';
import type { OperatorView } from '../../shared/operators';
import type { StoreDatabase } from '../storage';
import type { OperatorsDB, OperatorsTable } from './store';

export type OperatorRecord = OperatorsTable;
/** An account as every desk reads it: all but its password hash (on the center a desk's login reads none). */
export type PublicRecord = Omit<OperatorsTable, 'password_hash'>;
export const PUBLIC_COLUMNS = [
  'id',
  'display_name',
  'role',
  'disabled',
  'failed_attempts',
  'locked_until',
  'override_failures',
  'override_paused_until',
  'created_at',
  'updated_at',
  'desk_id',
  'created_by',
] as const satisfies readonly (keyof PublicRecord)[];
/** The directory's database, or one of its transactions. */
export type Db = Transaction<OperatorsDB> | StoreDatabase<OperatorsDB>['db'];

export const toView = (row: Pick<OperatorRecord, 'id' | 'display_name' | 'role' | 'disabled'>): OperatorView => ({
  id: row.id,
  displayName: row.display_name,
  role: row.role,
  disabled: row.disabled === 1,
});

/** Ids are compared case-insensitively and stored in lower case. */
export const normalizeId = (id: string): string => id.trim().toLowerCase();
