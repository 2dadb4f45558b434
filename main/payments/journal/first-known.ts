/** A value an upsert of the journal learns once: the first one written stands, and a row without one takes it later. */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

type Table = 'payments' | 'refunds';

/** In an upsert's SET: the row's value of `column` when it has one, else the one arriving. */
export const keptValue = <T>(table: Table, column: string): RawBuilder<T> =>
  sql<T>`coalesce(${sql.ref(`${table}.${column}`)}, ${sql.ref(`excluded.${column}`)})`;

/** In an upsert's WHERE: the row has no value of `column` and the one arriving has one (something new to write). */
export const valueLearnt = (table: Table, column: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.ref(`${table}.${column}`)} is null and ${sql.ref(`excluded.${column}`)} is not null)`;
