/** What a store declares (its migrations per backend, its grants) and what it gets back: a Kysely instance, a transaction helper. */
import type { CreateTableBuilder, Kysely, Transaction } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { ChangeListener, ChangeListenerOptions } from './changes';
import { isTransactionConflict } from './errors';

export type Backend = 'sqlite' | 'postgres';

/** What the app's role may do on a table of the center; anything not listed is revoked by --migrate-center. */
export const TABLE_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;
export type TablePrivilege = (typeof TABLE_PRIVILEGES)[number];

/** Name → migration, applied in the order of the names ("0001_desks", "0002_…"); a name, once released, never changes. */
export type Migrations = Readonly<Record<string, Migration>>;

/**
 * A migration that creates one table with Kysely's schema builder (`columns` adds its columns and constraints), then runs
 * `then` on the same database (its indexes, triggers): most stores' first PostgreSQL migration.
 */
export function createTableMigration(
  table: string,
  columns: (builder: CreateTableBuilder<string>) => { execute(): Promise<void> },
  then: (db: Kysely<unknown>) => Promise<void> = () => Promise.resolve(),
): Migration {
  return {
    up: async (db: Kysely<unknown>) => {
      await columns(db.schema.createTable(table)).execute();
      await then(db);
    },
  };
}

/**
 * One store's storage, for both backends. Phase 2 writes one per store (journal, operators, refund requests, audit trail,
 * messaging deliveries, reservations, and the desk registry of main/center/registry.ts).
 */
export interface StoreDefinition {
  /**
   * Stable name, lower case: the PostgreSQL schema that holds its tables (and its `kysely_migration` table), and how
   * --check-center and --migrate-center name it. Never "center" or "public".
   */
  readonly name: string;
  /** In sentences: "desk registry", "journal". */
  readonly label: string;
  readonly sqlite: {
    /** Its file in the data folder ("journal.db"). */
    readonly file: string;
    /** Extra pragmas (foreign_keys, secure_delete…); WAL, full sync and a busy timeout are always set. */
    readonly pragmas?: readonly string[];
    readonly migrations: Migrations;
    /**
     * For a file the app wrote before this layer (main/storage/sqlite.ts SqliteFile, its version in PRAGMA user_version):
     * how many of the first migrations are those, each equal to the old one of the same rank. A file at user_version N
     * (N ≤ this) is adopted: migrations 1…N are recorded as done without running, the rest run. Default 0 (a new store).
     */
    readonly adoptsUserVersion?: number;
  };
  readonly postgres: {
    /** Each migration gets a Kysely whose unqualified tables are in the store's schema. */
    readonly migrations: Migrations;
    /** Per table of the schema: exactly what the app's role may do (the owner runs the migrations; the app only these). */
    readonly grants: Readonly<Record<string, readonly TablePrivilege[]>>;
    /**
     * Per table: the columns that hold a secret (a password hash, a session's key) that only the schema's own functions
     * read: neither the app role (a desk's login) nor the auditor. Both read every other column, as their grants allow:
     * --migrate-center lists the table's columns from the catalogue at each run and grants SELECT on those not listed
     * here (a column added by a later migration is granted by the run that adds it); tables without an entry are read
     * whole. A migration that adds a secret column lists it here in the same change, or it is read.
     */
    readonly secretColumns?: Readonly<Record<string, readonly string[]>>;
    /**
     * The functions of the schema the app role may call, by their signature ("register_desk(text, text[], text, text)"):
     * the door to shared state a desk may not write row by row. Each runs as the schema's owner (SECURITY DEFINER) and
     * takes who is calling from the session, never from its arguments. --migrate-center grants EXECUTE on each, to no
     * one else.
     */
    readonly functions?: readonly string[];
  };
}

export interface TransactionOptions {
  /**
   * PostgreSQL's isolation level (default read committed): `serializable` for a read-check-write that must not be
   * overtaken by another desk. SQLite is always serializable (one writer, BEGIN IMMEDIATE).
   */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  /** How many times the whole function runs again after a TransactionConflictError (default 0: the caller decides). */
  retries?: number;
  /**
   * False: the commit need not wait for the disk (StoreDatabase.unsynced, where the store has it; the center always
   * waits). Only for what the service would answer again, by a key or an id a synced commit wrote before the request
   * was sent: a power cut may take the last such commits, never out of order (any synced commit after one keeps it).
   */
  synced?: boolean;
}

/** A store's database, whichever the backend: what phase 2's stores are written against. */
export interface StoreDatabase<DB> {
  readonly backend: Backend;
  readonly definition: StoreDefinition;
  /** Typed queries; on PostgreSQL, unqualified tables are the store's schema. Inside a transaction use its `trx` only. */
  readonly db: Kysely<DB>;
  /** The number of migrations applied (the center may be ahead of this app: see Storage.open). */
  readonly schemaVersion: number;
  /**
   * The embedded file only: prepares a statement of the store's (its SQL as Kysely compiles it) now, at the store's
   * opening, so that its first run does not. The center's statements are prepared by PostgreSQL on each connection.
   */
  prepare?(sql: string): void;
  /**
   * The embedded file in WAL only: runs `fn`'s writes without waiting for the disk at their commit, for a log nothing
   * is decided from (the journal's attempts) or what the service answers again (`TransactionOptions.synced`). They are read at once and outlive the process; a power cut may take the
   * last of them, never the file's consistency (synchronous = NORMAL on the file's one connection while `fn` runs). Not
   * inside a transaction of the store: it waits for the connection that transaction holds.
   */
  unsynced?<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /** All of `fn` is written, or none: rolled back when it throws (its error is rethrown). */
  transaction<T>(fn: (trx: Transaction<DB>) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Closes an embedded file; on the center, the shared pool closes with the Storage. */
  close(): Promise<void>;
}

/** Where the stores live: the embedded files of the data folder, or the center's PostgreSQL. */
export interface Storage {
  readonly backend: Backend;
  /** For logs and messages: "the embedded files in <folder>", "the center at <host>:<port>/<database>". */
  readonly description: string;
  /**
   * The store, ready: an embedded file is created or migrated on the spot (adopting a file of the SqliteFile era); on the
   * center the app never migrates (its role cannot): the store's schema must be at this app's version or ahead, else a
   * StorageError `center_not_ready` asks IT to run --migrate-center.
   */
  open<DB>(definition: StoreDefinition): Promise<StoreDatabase<DB>>;
  /**
   * The center only: the desk's one LISTEN connection (changes.ts), opened while acquired. The embedded files have no
   * other desk: their writers are this process, which tells its windows itself.
   */
  listen?(options: Omit<ChangeListenerOptions, 'connect'>): ChangeListener;
  close(): Promise<void>;
}

/** Runs `fn` in one transaction of `db`, again after a conflict when asked. */
export async function runTransaction<DB, T>(
  db: Kysely<DB>,
  backend: Backend,
  fn: (trx: Transaction<DB>) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const retries = options.retries ?? 0;
  for (let attempt = 0; ; attempt++) {
    try {
      const builder = db.transaction();
      const isolation = options.isolation;
      return await (
        backend === 'postgres' && isolation !== undefined ? builder.setIsolationLevel(isolation) : builder
      ).execute(fn);
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= retries) throw error;
    }
  }
}

const STORE_NAME = /^[a-z][a-z0-9_]{0,62}$/;
/** A function's name and its arguments' types, the only text --migrate-center puts in a GRANT EXECUTE. */
const FUNCTION_SIGNATURE = /^[a-z][a-z0-9_]{0,62}\((?:[a-z][a-z0-9_ ]*(?:\[\])?(?:, [a-z][a-z0-9_ ]*(?:\[\])?)*)?\)$/;
const RESERVED = new Set(['center', 'public', 'pg_catalog', 'information_schema']);

/** Refuses a definition that could not be stored safely on both backends. */
export function checkDefinition(definition: StoreDefinition): void {
  if (!STORE_NAME.test(definition.name) || RESERVED.has(definition.name) || definition.name.startsWith('pg_')) {
    throw new Error(
      `Store name "${definition.name}" must be lower case letters, digits and underscores, and not a reserved schema.`,
    );
  }
  for (const [table, privileges] of Object.entries(definition.postgres.grants)) {
    const unknown = privileges.filter((privilege) => !(TABLE_PRIVILEGES as readonly string[]).includes(privilege));
    if (!STORE_NAME.test(table) || unknown.length > 0)
      throw new Error(`The ${definition.label}'s grants on "${table}" are not valid: ${unknown.join(', ')}.`);
  }
  for (const [table, columns] of Object.entries(definition.postgres.secretColumns ?? {})) {
    const invalid = columns.filter((column) => !STORE_NAME.test(column));
    if (!STORE_NAME.test(table) || columns.length === 0 || invalid.length > 0) {
      throw new Error(
        `The ${definition.label}'s secret columns of "${table}" are not valid: ${invalid.join(', ') || 'none listed'}.`,
      );
    }
  }
  for (const signature of definition.postgres.functions ?? []) {
    if (!FUNCTION_SIGNATURE.test(signature))
      throw new Error(`The ${definition.label}'s function "${signature}" is not a valid signature.`);
  }
  const adopted = definition.sqlite.adoptsUserVersion ?? 0;
  if (adopted > Object.keys(definition.sqlite.migrations).length) {
    throw new Error(`The ${definition.label} adopts user_version ${adopted} but has fewer SQLite migrations.`);
  }
}
