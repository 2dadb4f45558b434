/** What every repository of the journal works in: the store, where it writes now (a transaction or not), this desk. */
import type { InsertQueryBuilder, Kysely } from 'kysely';
import { notificationIn, notifyChange, type Change, type StoreDatabase, type TransactionOptions } from '../../storage';
import type { Statement } from './statement';
import type { JournalDB, JournalExecutor } from './tables';

export interface JournalContext {
  readonly store: StoreDatabase<JournalDB>;
  /** The store's database, or the transaction this context writes in. */
  readonly db: JournalExecutor;
  /** This desk: every record it writes names it. */
  readonly deskId: string;
  /** Tells the journal's listeners that it wrote (after the write). */
  changed(): void;
  /** Runs `fn` in one transaction (the context it is given writes in it); inside one already, in that one. */
  transaction<T>(fn: (context: JournalContext) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

/** Runs a statement of a fixed shape in the context. */
export function run<V extends object, R>(context: JournalContext, statement: Statement<V, R>, values: V) {
  return statement.execute(context.store, context.db, values);
}

/**
 * A write the other desks of the center are told of: its NOTIFY goes in the write's transaction (sent when it commits,
 * never for a write rolled back). On the embedded file there is nobody else to tell: the write runs as it is.
 */
export async function announced<T>(
  context: JournalContext,
  write: (context: JournalContext) => Promise<{ value: T; changes: readonly Change[] }>,
): Promise<T> {
  if (context.store.backend !== 'postgres') return (await write(context)).value;
  return context.transaction(async (inner) => {
    const { value, changes } = await write(inner);
    for (const change of changes) await notifyChange(inner.db, 'postgres', change);
    return value;
  });
}

/**
 * Writes an upsert that returns the id of the row it wrote (none when the row said nothing new), and tells the other
 * desks of the center only when it wrote: there its NOTIFY goes in the upsert's own statement (one round trip). On the
 * embedded file it runs as `statement`, the same upsert compiled once.
 */
export async function upsertAnnounced<V extends object, T extends keyof JournalDB>(
  context: JournalContext,
  upsert: (db: Kysely<JournalDB>, values: V) => InsertQueryBuilder<JournalDB, T, { id: string }>,
  statement: Statement<V, { id: string }>,
  values: V,
  change: Change,
): Promise<void> {
  if (context.store.backend === 'postgres') {
    await context.db
      .with('w', () => upsert(context.db, values))
      .selectFrom('w')
      .select(notificationIn(change).as('notified'))
      .execute();
  } else {
    await run(context, statement, values);
  }
}
