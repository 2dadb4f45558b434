/** The embedded backend: one SQLite file per store in the desk's data folder (training, and a center of one desk). */
import { join } from 'node:path';
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
  return {
    backend: 'sqlite',
    definition,
    db,
    schemaVersion,
    transaction: (fn, options) => runTransaction(db, 'sqlite', fn, options),
    prepare: (statement) => dialect.prepare(statement),
    // Only in WAL, where NORMAL keeps the file consistent through a power cut (in a rollback journal it may not). Holding
    // Kysely's one connection, no other query of the store runs (nor commits) while the level is lowered.
    ...(raw.pragma('journal_mode', { simple: true }) === 'wal' && {
      unsynced: <T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T> =>
        db.connection().execute(async (connection) => {
          const level = raw.pragma('synchronous', { simple: true }) as number;
          raw.pragma('synchronous = NORMAL');
          try {
            return await fn(connection);
          } finally {
            raw.pragma(`synchronous = ${level}`);
          }
        }),
    }),
    close: () => (closed ??= db.destroy()),
  };
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
