/**
 * Kysely's SQLite and PostgreSQL dialects with the storage layer's rules on top: every error a query, a connection or a
 * transaction raises goes through the backend's mapper (errors.ts), SQLite writes start with BEGIN IMMEDIATE, SQLite
 * statements are prepared once per file, and a migration's multi-statement script runs on SQLite as it does on PostgreSQL.
 */
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  type DialectAdapter,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
  type TransactionSettings,
} from 'kysely';
import { fromPostgresError, fromSqliteError, type CenterTarget } from './errors';

type MapError = (error: unknown) => unknown;

async function mapped<T>(map: MapError, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw map(error);
  }
}

/** A connection whose query errors are mapped; everything else is the driver's own connection. */
class MappedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly map: MapError,
  ) {}

  executeQuery<R>(
    compiledQuery: CompiledQuery,
    options?: Parameters<DatabaseConnection['executeQuery']>[1],
  ): Promise<QueryResult<R>> {
    return mapped(this.map, () => this.inner.executeQuery<R>(compiledQuery, options));
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize: number,
    options?: Parameters<DatabaseConnection['streamQuery']>[2],
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize, options);
    } catch (error) {
      throw this.map(error);
    }
  }
}

/** Delegates to Kysely's own driver, mapping errors; `begin` replaces how a transaction starts (SQLite: IMMEDIATE). */
class MappingDriver implements Driver {
  /** One wrapper per connection, so that Kysely sees a stable object for each. */
  private readonly wrappers = new WeakMap<DatabaseConnection, MappedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly map: MapError,
    private readonly begin?: (settings: TransactionSettings) => CompiledQuery,
  ) {}

  private unwrap(connection: DatabaseConnection): DatabaseConnection {
    return connection instanceof MappedConnection ? connection.inner : connection;
  }

  init(options?: Parameters<Driver['init']>[0]): Promise<void> {
    return mapped(this.map, () => this.inner.init(options));
  }

  async acquireConnection(options?: Parameters<Driver['acquireConnection']>[0]): Promise<DatabaseConnection> {
    const connection = await mapped(this.map, () => this.inner.acquireConnection(options));
    let wrapper = this.wrappers.get(connection);
    if (wrapper === undefined) {
      wrapper = new MappedConnection(connection, this.map);
      this.wrappers.set(connection, wrapper);
    }
    return wrapper;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const inner = this.unwrap(connection);
    const begin = this.begin;
    if (begin !== undefined) return mapped(this.map, async () => void (await inner.executeQuery(begin(settings))));
    return mapped(this.map, () => this.inner.beginTransaction(inner, settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return mapped(this.map, () => this.inner.commitTransaction(this.unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return mapped(this.map, () => this.inner.rollbackTransaction(this.unwrap(connection)));
  }

  savepoint(
    connection: DatabaseConnection,
    savepointName: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.atSavepoint('savepoint', connection, savepointName, compileQuery);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    savepointName: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.atSavepoint('rollbackToSavepoint', connection, savepointName, compileQuery);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    savepointName: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.atSavepoint('releaseSavepoint', connection, savepointName, compileQuery);
  }

  /** A savepoint's step on the inner driver (none when it has no savepoints), its errors mapped. */
  private atSavepoint(
    step: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint',
    connection: DatabaseConnection,
    savepointName: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return mapped(
      this.map,
      () => this.inner[step]?.(this.unwrap(connection), savepointName, compileQuery) ?? Promise.resolve(),
    );
  }

  releaseConnection(
    connection: DatabaseConnection,
    options?: Parameters<Driver['releaseConnection']>[1],
  ): Promise<void> {
    return this.inner.releaseConnection(this.unwrap(connection), options);
  }

  destroy(options?: Parameters<Driver['destroy']>[0]): Promise<void> {
    return this.inner.destroy(options);
  }
}

/** better-sqlite3 refuses to prepare a string of several statements; a migration's script is run whole instead. */
function isMultiStatement(error: unknown): boolean {
  return error instanceof RangeError && /more than one statement/i.test(error.message);
}

/** A migration's script (several statements, no parameters) as a statement Kysely can run. */
function scriptStatement(db: Database.Database, script: string): SqliteStatement {
  const run = (parameters: readonly unknown[]): { changes: number; lastInsertRowid: number } => {
    if (parameters.length > 0) throw new RangeError('A script of several statements takes no parameters.');
    db.exec(script);
    return { changes: 0, lastInsertRowid: 0 };
  };
  return {
    reader: false,
    run,
    all: (parameters) => {
      run(parameters);
      return [];
    },
    iterate: (parameters) => {
      run(parameters);
      return [][Symbol.iterator]();
    },
  };
}

/** Prepared statements kept per file (the app's stores run the same few queries all day). */
const STATEMENT_CACHE_SIZE = 256;

function cachedDatabase(db: Database.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached !== undefined) return cached;
      let statement: SqliteStatement;
      try {
        statement = db.prepare(sql);
      } catch (error) {
        if (isMultiStatement(error)) return scriptStatement(db, sql);
        throw error;
      }
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/**
 * SQLite rolls DDL back with the rest of a transaction, which Kysely's adapter does not claim: claiming it makes Kysely's
 * Migrator run a file's pending migrations and their records in one transaction (BEGIN IMMEDIATE, so a second process
 * on the same file waits, then finds them done), as it does on PostgreSQL. A failed migration leaves nothing behind.
 */
class DeskSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** An embedded SQLite file (opened by main/storage/sqlite.ts with its pragmas) behind Kysely. */
export class DeskSqliteDialect extends SqliteDialect {
  private readonly statements: SqliteDatabase;

  constructor(database: Database.Database) {
    const statements = cachedDatabase(database);
    super({ database: statements });
    this.statements = statements;
  }

  /** Prepares a statement now and keeps it with the file's others: its first run does not prepare it. */
  prepare(sql: string): void {
    this.statements.prepare(sql);
  }

  override createAdapter(): DialectAdapter {
    return new DeskSqliteAdapter();
  }

  override createDriver(): Driver {
    // IMMEDIATE takes the write lock at BEGIN: a transaction never fails half-way for want of it (SQLITE_BUSY on upgrade).
    return new MappingDriver(super.createDriver(), fromSqliteError, () => CompiledQuery.raw('begin immediate'));
  }
}

/** The center's PostgreSQL behind Kysely, its errors said in words for the desk (errors.ts). */
export class CenterPostgresDialect extends PostgresDialect {
  private readonly target: CenterTarget;

  constructor(config: PostgresDialectConfig, target: CenterTarget) {
    super(config);
    this.target = target;
  }

  override createDriver(): Driver {
    const target = this.target;
    return new MappingDriver(super.createDriver(), (error) => fromPostgresError(error, target));
  }
}
