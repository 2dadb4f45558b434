// The storage layer's contract on both backends: the embedded SQLite file and the center's real PostgreSQL (the app role,
// as a desk connects): the same store definition, the same Kysely queries, the same answers and errors.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  StorageError,
  TransactionConflictError,
  UniqueViolationError,
  centerStorage,
  embeddedStorage,
  type Storage,
  type StoreDatabase,
} from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { notesStore, type NotesDB } from './support/notes-store';

interface Backend {
  name: 'sqlite' | 'postgres';
  storage(): Promise<Storage>;
}

let center: TestCenter | undefined;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cpd-storage-'));
  center = await createCenter(await testPostgres(), { stores: [notesStore] });
}, 120_000);

afterAll(async () => {
  await center?.drop();
  await rm(folder, { recursive: true, force: true });
});

let counter = 0;
const backends: Backend[] = [
  {
    name: 'sqlite',
    storage: async () => {
      const dir = path.join(folder, String(++counter));
      await mkdir(dir);
      return embeddedStorage(dir);
    },
  },
  {
    name: 'postgres',
    storage: async () => {
      if (center === undefined) throw new Error('no center');
      await center.query('TRUNCATE notes_test.notes');
      return centerStorage(center.app);
    },
  },
];

describe.each(backends)('a store on $name', (backend) => {
  let storage: Storage;
  let store: StoreDatabase<NotesDB>;

  afterEach(async () => {
    await storage.close();
  });

  async function open(): Promise<StoreDatabase<NotesDB>> {
    storage = await backend.storage();
    store = await storage.open<NotesDB>(notesStore);
    return store;
  }

  it('opens at its latest migration and says where it is', async () => {
    await open();
    expect(store.backend).toBe(backend.name);
    expect(storage.backend).toBe(backend.name);
    expect(store.schemaVersion).toBe(2);
    expect(storage.description).toMatch(
      backend.name === 'sqlite' ? /^the embedded files in / : /^the center at 127\.0\.0\.1:\d+\//,
    );
  });

  it('writes and reads rows with the same types on both backends (cents as numbers, times as ISO text)', async () => {
    await open();
    const createdAt = '2026-11-24T01:30:00.000Z';
    await store.db
      .insertInto('notes')
      .values({ id: 'n1', desk: 'desk-a', body: 'hello', cents: 2_000_000_000_00, created_at: createdAt, pinned: 0 })
      .execute();
    const row = await store.db.selectFrom('notes').selectAll().where('id', '=', 'n1').executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: 'n1',
      desk: 'desk-a',
      body: 'hello',
      cents: 2_000_000_000_00,
      created_at: createdAt,
      pinned: 0,
    });
    expect(typeof row.cents).toBe('number');
  });

  it('writes all of a transaction or nothing', async () => {
    await open();
    const at = new Date().toISOString();
    await expect(
      store.transaction(async (trx) => {
        await trx
          .insertInto('notes')
          .values({ id: 'a', desk: 'd', body: 'one', cents: 1, created_at: at, pinned: 0 })
          .execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await store.db.selectFrom('notes').select('id').execute()).toEqual([]);
    const id = await store.transaction(async (trx) => {
      await trx
        .insertInto('notes')
        .values({ id: 'b', desk: 'd', body: 'two', cents: 2, created_at: at, pinned: 0 })
        .execute();
      return 'b';
    });
    expect(id).toBe('b');
    expect(await store.db.selectFrom('notes').select('id').execute()).toEqual([{ id: 'b' }]);
  });

  it('types a unique violation, and the transaction that hit it writes nothing', async () => {
    await open();
    const at = new Date().toISOString();
    await store.db
      .insertInto('notes')
      .values({ id: 'x', desk: 'd', body: 'same', cents: 1, created_at: at, pinned: 0 })
      .execute();
    const error: unknown = await store
      .transaction(async (trx) => {
        await trx
          .insertInto('notes')
          .values({ id: 'y', desk: 'd', body: 'other', cents: 1, created_at: at, pinned: 0 })
          .execute();
        await trx
          .insertInto('notes')
          .values({ id: 'z', desk: 'd', body: 'same', cents: 1, created_at: at, pinned: 0 })
          .execute();
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UniqueViolationError);
    expect((error as UniqueViolationError).constraint).toMatch(
      backend.name === 'sqlite' ? /notes\.desk, notes\.body/ : /notes_desk_body/,
    );
    expect((await store.db.selectFrom('notes').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['x']);
  });

  it('lets an ordinary query error through unchanged (a bug in a query is not the center being down)', async () => {
    await open();
    const error: unknown = await store.db
      .selectFrom('notes')
      // @ts-expect-error a column that does not exist
      .select('no_such_column')
      .execute()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(StorageError);
  });
});

describe('the center, as the app role', () => {
  it('may do only what the store granted: a DELETE is refused in words for IT', async () => {
    if (center === undefined) throw new Error('no center');
    const storage = centerStorage(center.app);
    try {
      const store = await storage.open<NotesDB>(notesStore);
      const error: unknown = await store.db
        .deleteFrom('notes')
        .execute()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: 'center_permission_denied' });
      expect((error as Error).message).toMatch(/--migrate-center/);
    } finally {
      await storage.close();
    }
  });

  it('cannot create tables, in the store schema or public', async () => {
    if (center === undefined) throw new Error('no center');
    const storage = centerStorage(center.app);
    try {
      const store = await storage.open<NotesDB>(notesStore);
      await expect(store.db.schema.createTable('mine').addColumn('a', 'text').execute()).rejects.toMatchObject({
        code: 'center_permission_denied',
      });
      await expect(
        store.db.schema.withSchema('public').createTable('mine').addColumn('a', 'text').execute(),
      ).rejects.toMatchObject({
        code: 'center_permission_denied',
      });
    } finally {
      await storage.close();
    }
  });

  it('refuses to open a store the center has not been migrated for, asking IT to run --migrate-center', async () => {
    if (center === undefined) throw new Error('no center');
    const storage = centerStorage(center.app);
    try {
      const other = { ...notesStore, name: 'notes_unmigrated' };
      await expect(storage.open(other)).rejects.toMatchObject({
        code: 'center_not_ready',
        message: expect.stringMatching(/--migrate-center/) as unknown,
      });
    } finally {
      await storage.close();
    }
  });
});

describe('two desks in one read-check-write on the center (serializable)', () => {
  /** Each desk reads whether desk "x" has a note, waits for the other to read too, then writes one if none: write skew. */
  async function race(retries: number): Promise<{ results: PromiseSettledResult<string>[]; rows: number }> {
    if (center === undefined) throw new Error('no center');
    await center.query('TRUNCATE notes_test.notes');
    const a = centerStorage(center.app);
    const b = centerStorage(center.app);
    try {
      const [storeA, storeB] = [await a.open<NotesDB>(notesStore), await b.open<NotesDB>(notesStore)];
      let arrived = 0;
      let release: () => void = () => undefined;
      const bothRead = new Promise<void>((resolve) => (release = resolve));
      const attempt = (store: StoreDatabase<NotesDB>, id: string): Promise<string> =>
        store.transaction(
          async (trx) => {
            const existing = await trx.selectFrom('notes').select('id').where('desk', '=', 'x').execute();
            if (++arrived === 2) release();
            await bothRead;
            if (existing.length > 0) return `saw ${existing[0]?.id}`;
            await trx
              .insertInto('notes')
              .values({ id, desk: 'x', body: id, cents: 0, created_at: new Date().toISOString(), pinned: 0 })
              .execute();
            return `wrote ${id}`;
          },
          { isolation: 'serializable', retries },
        );
      const results = await Promise.allSettled([attempt(storeA, 'a'), attempt(storeB, 'b')]);
      const rows = (await center.query<{ n: string }>(`SELECT count(*) AS n FROM notes_test.notes WHERE desk = 'x'`))[0]
        ?.n;
      return { results, rows: Number(rows) };
    } finally {
      await a.close();
      await b.close();
    }
  }

  it('without retries: one writes, the other is rolled back with TransactionConflictError, nothing of it written', async () => {
    const { results, rows } = await race(0);
    expect(rows).toBe(1);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected');
    expect(rejected?.reason).toBeInstanceOf(TransactionConflictError);
  });

  it("with a retry: the loser runs again, sees the winner's row and writes nothing", async () => {
    const { results, rows } = await race(1);
    expect(rows).toBe(1);
    const values = results.map((r) => (r.status === 'fulfilled' ? r.value : `rejected ${String(r.reason)}`)).sort();
    expect(values).toHaveLength(2);
    expect(values.filter((v) => v.startsWith('wrote '))).toHaveLength(1);
    expect(values.filter((v) => v.startsWith('saw '))).toHaveLength(1);
  });
});

describe("the embedded file's unsynced writes (a log nothing is decided from)", () => {
  let storage: Storage;
  let store: StoreDatabase<NotesDB>;
  let dir: string;

  beforeAll(async () => {
    dir = path.join(folder, `unsynced-${++counter}`);
    await mkdir(dir);
    storage = embeddedStorage(dir);
    store = await storage.open<NotesDB>(notesStore);
  });

  afterAll(async () => {
    await storage.close();
  });

  const level = async (db: Kysely<NotesDB> = store.db): Promise<number> =>
    (await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]?.synchronous ?? -1;
  const note = (id: string) => ({
    id,
    desk: 'desk-a',
    body: id,
    cents: 1,
    created_at: '2026-12-02T00:00:00.000Z',
    pinned: 0,
  });

  it('commits without waiting for the disk while it runs, is read at once by another connection, then syncs again', async () => {
    expect(await level()).toBe(2);
    const inside = await store.unsynced?.(async (db) => {
      await db.insertInto('notes').values(note('u1')).execute();
      return level(db);
    });
    expect(inside).toBe(1);
    expect(await level()).toBe(2);
    const other = new Database(path.join(dir, 'notes.db'), { readonly: true });
    try {
      expect(other.prepare('SELECT body FROM notes WHERE id = ?').get('u1')).toEqual({ body: 'u1' });
    } finally {
      other.close();
    }
  });

  it('sets the level back, having rolled back what its function left open (SQLite keeps the level inside one)', async () => {
    await store.unsynced?.(async (db) => {
      await sql`BEGIN`.execute(db);
      await db.insertInto('notes').values(note('left-open')).execute();
    });
    expect(await level()).toBe(2);
    expect(await store.db.selectFrom('notes').select('id').where('id', '=', 'left-open').execute()).toEqual([]);
  });

  it('syncs again when its function throws', async () => {
    await expect(store.unsynced?.(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await level()).toBe(2);
  });

  it('holds the connection: a transaction asked for meanwhile runs after it, and commits synced', async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const log = store.unsynced?.(async (db) => {
      await db.insertInto('notes').values(note('u2')).execute();
      await gate;
      order.push('log done');
    });
    const write = store.transaction(async (trx) => {
      order.push(`transaction at ${await level(trx)}`);
      await trx.insertInto('notes').values(note('t1')).execute();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    release();
    await Promise.all([log, write]);
    expect(order).toEqual(['log done', 'transaction at 2']);
  });

  it('runs a transaction asked for unsynced at NORMAL, all of it or none, and a transaction not asked so at FULL', async () => {
    const inside = await store.transaction(
      async (trx) => {
        await trx.insertInto('notes').values(note('u3')).execute();
        return level(trx);
      },
      { synced: false },
    );
    expect(inside).toBe(1);
    expect(await level()).toBe(2);
    await expect(
      store.transaction(
        async (trx) => {
          await trx.insertInto('notes').values(note('u4')).execute();
          throw new Error('refused');
        },
        { synced: false },
      ),
    ).rejects.toThrow('refused');
    expect(await level()).toBe(2);
    const ids = await store.db.selectFrom('notes').select('id').where('id', 'in', ['u3', 'u4']).execute();
    expect(ids).toEqual([{ id: 'u3' }]);
    expect(await store.transaction((trx) => level(trx))).toBe(2);
  });

  it('is not offered on a file that is not in WAL (NORMAL would not keep a rollback journal consistent)', async () => {
    const other = embeddedStorage(dir);
    try {
      const rollback = await other.open<NotesDB>({
        ...notesStore,
        sqlite: { ...notesStore.sqlite, file: 'rollback.db', pragmas: ['journal_mode = DELETE'] },
      });
      expect('unsynced' in rollback).toBe(false);
      const at = await rollback.transaction(
        async (trx) => (await sql<{ synchronous: number }>`pragma synchronous`.execute(trx)).rows[0]?.synchronous,
        { synced: false },
      );
      expect(at).toBe(2);
      expect('unsynced' in store).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('is the embedded file only: the center commits as it always does', async () => {
    if (center === undefined) throw new Error('no center');
    const centerStorageOf = centerStorage(center.app);
    try {
      const onCenter = await centerStorageOf.open<NotesDB>(notesStore);
      expect('unsynced' in onCenter).toBe(false);
      const setting = async (db: Kysely<NotesDB>): Promise<string | undefined> =>
        (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]?.synchronous_commit;
      // The server's own setting (the tests' cluster may not wait for its disk either), not changed for the transaction.
      const outside = await setting(onCenter.db);
      expect(outside).toBeDefined();
      expect(await onCenter.transaction((trx) => setting(trx), { synced: false })).toBe(outside);
    } finally {
      await centerStorageOf.close();
    }
  });
});
