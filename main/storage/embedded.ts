/** The embedded backend: one SQLite file per store in the desk's data folder (training, and a center of one desk). */
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { DeskSqliteDialect } from './driver';
import { migrateSqliteStore } from './migrations';
import { openSqliteDatabase } from './sqlite';
import { checkDefinition, runTransaction, type Storage, type StoreDatabase, type StoreDefinition } from './store';

/** Another connection (a second process on the same file) waits this long for the write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/** Opens one store's file: created when missing, migrated (or adopted) on the spot. */
export async function openEmbeddedStore<DB>(dataDir: string, definition: StoreDefinition): Promise<StoreDatabase<DB>> {
  checkDefinition(definition);
  const file = join(dataDir, definition.sqlite.file);
  const raw = openSqliteDatabase(file, [...(definition.sqlite.pragmas ?? []), `busy_timeout = ${BUSY_TIMEOUT_MS}`]);
  const dialect = new DeskSqliteDialect(raw);
  const db = new Kysely<DB>({ dialect });
  let schemaVersion: number;
  try {
    schemaVersion = await migrateSqliteStore(db as Kysely<unknown>, raw, definition, file);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  let closed: Promise<void> | undefined;
  // Only in WAL, where NORMAL keeps the file consistent through a power cut (in a rollback journal it may not). Holding
  // Kysely's one connection, no other query of the store runs (nor commits) while the level is lowered; the level set
  // back is the one the file was opened at, never one read while lowered.
  const unsynced = raw.pragma('journal_mode', { simple: true }) === 'wal' ? unsyncedOn(raw, db) : undefined;
  return {
    backend: 'sqlite',
    definition,
    db,
    schemaVersion,
    transaction: (fn, options) =>
      options?.synced === false && unsynced !== undefined
        ? unsynced((connection) => runTransaction(connection, 'sqlite', fn, options))
        : runTransaction(db, 'sqlite', fn, options),
    prepare: (statement) => dialect.prepare(statement),
    ...(unsynced !== undefined && { unsynced }),
    close: () => (closed ??= db.destroy()),
  };
}

/**
 * Runs a function's writes at synchronous = NORMAL on the file's one connection, then at the level the file was opened
 * at (a transaction the function left open is rolled back first: SQLite keeps the level inside one).
 */
function unsyncedOn<DB>(raw: Database.Database, db: Kysely<DB>): StoreDatabase<DB>['unsynced'] {
  const opened = raw.pragma('synchronous', { simple: true }) as number;
  // Set through pragma(), which prepares it anew: SQLite sets this level as a statement is prepared, not as it runs.
  return <T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T> =>
    db.connection().execute(async (connection) => {
      if (raw.inTransaction) throw new Error('unsynced: the file is inside a transaction already');
      raw.pragma('synchronous = NORMAL');
      try {
        return await fn(connection);
      } finally {
        if (raw.inTransaction) raw.exec('ROLLBACK');
        raw.pragma(`synchronous = ${opened}`);
      }
    });
}

/** The data folder's files; each store opened once, all closed with it. */
export function embeddedStorage(dataDir: string): Storage {
  const opened = new Set<StoreDatabase<unknown>>();
  return {
    backend: 'sqlite',
    description: `the embedded files in ${dataDir}`,
    async open<DB>(definition: StoreDefinition): Promise<StoreDatabase<DB>> {
      const store = await openEmbeddedStore<DB>(dataDir, definition);
      opened.add(store as StoreDatabase<unknown>);
      return {
        ...store,
        close: async () => {
          opened.delete(store as StoreDatabase<unknown>);
          await store.close();
        },
      };
    },
    async close() {
      const stores = [...opened];
      opened.clear();
      await Promise.all(stores.map((store) => store.close()));
    },
  };
}
