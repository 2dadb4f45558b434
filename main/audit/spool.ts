/**
 * The rows of a desk on a center that the center could not take (it was down, or the desk stopped before it was back):
 * kept on the desk, in the order they were asked for, in a SQLite file of its data folder (audit-spool.db), until the
 * trail writes them to the center, each removed once it is written. Never opened on the center. A row is scrubbed (card
 * numbers, CVVs, secrets) before it is kept, as before it is written anywhere; it gets its place in the desk's chain (its
 * number and hashes) only when it is written to the center.
 */
import { sql, type Generated, type Kysely } from 'kysely';
import { openEmbeddedStore, type StoreDatabase, type StoreDefinition } from '../storage';

export const AUDIT_SPOOL_FILE = 'audit-spool.db';

/** A row's content as it is kept: every column of the center's row but its place in the desk's chain. */
export interface SpooledContent {
  desk_id: string;
  at: string;
  actor: string;
  action: string;
  outcome: string;
  resource: string | null;
  request_id: string | null;
  details: string;
}

export interface SpooledRow {
  id: number;
  content: SpooledContent;
  /** Written only when the trail has no row of its action and resource yet (AppendOptions.once). */
  once: boolean;
}

interface SpoolTable extends SpooledContent {
  id: Generated<number>;
  once: number;
}

interface SpoolDB {
  spool: SpoolTable;
}

export const AUDIT_SPOOL_STORE: StoreDefinition = {
  name: 'audit_spool',
  label: 'audit rows kept on the desk',
  sqlite: {
    file: AUDIT_SPOOL_FILE,
    // A row written to the center is removed here: nothing of it is left in the file's free pages.
    pragmas: ['secure_delete = ON'],
    migrations: {
      '0001_spool': {
        up: async (db: Kysely<unknown>) => {
          // AUTOINCREMENT: a number is never given again, so the order of the rows is the order they were kept in.
          await sql`CREATE TABLE spool (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     desk_id TEXT NOT NULL,
     at TEXT NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     outcome TEXT NOT NULL,
     resource TEXT,
     request_id TEXT,
     details TEXT NOT NULL,
     once INTEGER NOT NULL CHECK (once IN (0, 1))
   )`.execute(db);
        },
      },
    },
  },
  // The desk's own file only: there is nothing of it on the center.
  postgres: { migrations: {}, grants: {} },
};

export class AuditSpool {
  private constructor(private readonly store: StoreDatabase<SpoolDB>) {}

  /** The spool of the data folder: created when missing. */
  static async open(dataDir: string): Promise<AuditSpool> {
    return new AuditSpool(await openEmbeddedStore<SpoolDB>(dataDir, AUDIT_SPOOL_STORE));
  }

  async count(): Promise<number> {
    const row = await this.store.db
      .selectFrom('spool')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Keeps a row after every row kept before it; resolves once it is on disk. */
  async keep(content: SpooledContent, once: boolean): Promise<void> {
    await this.store.db
      .insertInto('spool')
      .values({ ...content, once: once ? 1 : 0 })
      .execute();
  }

  /** The oldest rows kept, in order. */
  async oldest(limit: number): Promise<SpooledRow[]> {
    const rows = await this.store.db.selectFrom('spool').selectAll().orderBy('id').limit(limit).execute();
    return rows.map(({ id, once, ...content }) => ({ id, once: once === 1, content }));
  }

  /** A row written to the center. */
  async remove(id: number): Promise<void> {
    await this.store.db.deleteFrom('spool').where('id', '=', id).execute();
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
