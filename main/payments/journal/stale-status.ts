/** A status that must not overwrite a final one: how an upsert of the journal keeps a final status final. */
import { sql, type SqlBool } from 'kysely';

/**
 * In an upsert: the row's status is final and the word arriving is one the payment or refund passes through before it
 * ends. Such a word is stale (a read made before the end, answered after another desk wrote it), and a final status is
 * never taken back by it. A status this app does not know is taken: it may have moved money (shared/payments/status.ts).
 */
export const staleStatus = (table: 'payments' | 'refunds', finals: readonly string[], inProgress: readonly string[]) =>
  sql<SqlBool>`(${sql.ref(`${table}.status`)} in (${sql.join(finals)}) and ${sql.ref('excluded.status')} in (${sql.join(inProgress)}))`;
