/**
 * A journal query of a fixed shape, compiled once per store: each call binds its values to the SQL Kysely wrote the first
 * time, instead of building and compiling the same query again (a payment runs the same few queries all day).
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { StoreDatabase } from '../../storage';
import type { JournalDB, JournalExecutor } from './tables';

/** Stands for a value given at each call while the query is compiled: a text no value of the journal holds. */
const MARK = '\u0000journal-value:';

/** Where a parameter's value comes from at each call: the call's value of that name, or the constant compiled in. */
type Binding = { name: string } | { constant: unknown };

interface Compiled {
  readonly query: CompiledQuery;
  readonly bindings: readonly Binding[];
}

/** The values a query is built with, each a marker; the query's shape must not depend on them. */
const markers: object = new Proxy(
  {},
  { get: (_target, name) => (typeof name === 'string' ? `${MARK}${name}` : undefined) },
);

/** A statement the journal compiles when it opens. */
export interface Preparable {
  prepare(store: StoreDatabase<JournalDB>): void;
}

export class Statement<V extends object, R> implements Preparable {
  private readonly compiled = new WeakMap<StoreDatabase<JournalDB>, Compiled>();

  /** `build` makes the query from `values` used as values only (never in its SQL text, nor choosing its shape). */
  constructor(private readonly build: (db: Kysely<JournalDB>, values: V) => Compilable<R>) {}

  /** Compiles the query for this store now (at the journal's opening), so that no call pays for it. */
  prepare(store: StoreDatabase<JournalDB>): void {
    if (this.compiled.has(store)) return;
    const query = this.build(store.db, markers as V).compile();
    if (query.sql.includes(MARK)) throw new Error('journal: a value was written into a statement');
    const bindings = query.parameters.map(
      (parameter): Binding =>
        typeof parameter === 'string' && parameter.startsWith(MARK)
          ? { name: parameter.slice(MARK.length) }
          : { constant: parameter },
    );
    this.compiled.set(store, { query, bindings });
    store.prepare?.(query.sql);
  }

  /** Runs it on `db` (the store's database or a transaction of it) with these values. */
  execute(store: StoreDatabase<JournalDB>, db: JournalExecutor, values: V): Promise<QueryResult<R>> {
    this.prepare(store);
    const compiled = this.compiled.get(store);
    if (compiled === undefined) throw new Error('journal: statement not compiled');
    const parameters = compiled.bindings.map((binding) =>
      'name' in binding ? (values as Record<string, unknown>)[binding.name] : binding.constant,
    );
    return db.executeQuery<R>({ ...compiled.query, parameters });
  }
}
