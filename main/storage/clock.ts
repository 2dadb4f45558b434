// The database's clock as an SQL expression: what several desks compare (lockouts, the age of an operation) is timed
// by it, never by one desk's clock.
import { sql, type RawBuilder } from 'kysely';
import type { Backend } from './store';

/**
 * The database's clock, in ms since the epoch, as an SQL expression: lockouts, override pauses and the age of operations
 * are written and compared by it, never by a desk's clock (a desk running ahead would ignore every lock, and one behind
 * would write locks already over). PostgreSQL's `now()` (the transaction's start: one value however often a statement uses it); the embedded file's
 * SQLite reads the desk's own system clock (one machine), the same value within a statement.
 */
export const databaseNowMs = (backend: Backend): RawBuilder<number> =>
  backend === 'postgres'
    ? sql<number>`CAST(floor(extract(epoch FROM now()) * 1000) AS BIGINT)`
    : sql<number>`CAST(round(unixepoch('subsec') * 1000) AS INTEGER)`;
