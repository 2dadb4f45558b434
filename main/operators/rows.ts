/** An operator's row as the directory reads it: the database it is read from, its public view, the form of its id. */
import type { Transaction } from 'kysely';
import type { OperatorView } from '../../shared/operators';
import type { StoreDatabase } from '../storage';
import type { OperatorsDB, OperatorsTable } from './store';

export type OperatorRecord = OperatorsTable;
/** The directory's database, or one of its transactions. */
export type Db = Transaction<OperatorsDB> | StoreDatabase<OperatorsDB>['db'];

export const toView = (row: OperatorRecord): OperatorView => ({
  id: row.id,
  displayName: row.display_name,
  role: row.role,
  disabled: row.disabled === 1,
});

/** Ids are compared case-insensitively and stored in lower case. */
export const normalizeId = (id: string): string => id.trim().toLowerCase();
