// Both backends for a store's contract tests, as `describe.each(useStoreBackends([...]))`: the embedded SQLite files in a
// fresh temporary folder, and the center's real PostgreSQL (a database of its own set up by docs/center/setup.sql, the
// stores migrated by its owner as IT would, the desk connected as the app role). No mock database.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  centerStorage,
  embeddedStorage,
  type Backend,
  type Change,
  type Storage,
  type StoreDefinition,
} from '../../main/storage';
import { createCenter, type TestCenter } from './center';
import { testPostgres } from './pg';

export interface StoreBackend {
  name: Backend;
  /**
   * A fresh, empty place for the stores: a new folder, or the center's tables emptied. Closed after the test.
   */
  storage(): Promise<Storage>;
  /**
   * Another desk on the place the last `storage()` made: the same center (its own pool), or for SQLite the same folder
   * (a second process on the same files). Closed after the test.
   */
  anotherDesk(): Promise<Storage>;
  /** The center of this file (postgres only), to arrange what a test needs as the superuser. */
  center(): TestCenter;
}

/** Registers the hooks (one center per test file, migrated with `stores`) and returns both backends. */
export function useStoreBackends(stores: readonly StoreDefinition[]): StoreBackend[] {
  let folder = '';
  let center: TestCenter | undefined;
  let current = '';
  let counter = 0;
  const opened: Storage[] = [];
  const track = (storage: Storage): Storage => {
    opened.push(storage);
    return storage;
  };

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'cpd-stores-'));
    center = await createCenter(await testPostgres(), { stores });
  }, 120_000);

  afterEach(async () => {
    const storages = opened.splice(0);
    await Promise.all(storages.map((storage) => storage.close()));
  });

  afterAll(async () => {
    await center?.drop();
    await rm(folder, { recursive: true, force: true });
  });

  const theCenter = (): TestCenter => {
    if (center === undefined) throw new Error('The test center is not up (beforeAll failed).');
    return center;
  };

  /** Every table of the stores' schemas emptied, triggers (append-only rules) skipped as a superuser may. */
  async function emptyCenter(): Promise<void> {
    const schemas = stores.map((store) => store.name);
    const tables = await theCenter().query<{ schemaname: string; tablename: string }>(
      "SELECT schemaname, tablename FROM pg_tables WHERE schemaname = ANY($1) AND tablename <> 'kysely_migration' AND tablename <> 'kysely_migration_lock'",
      [schemas],
    );
    if (tables.length === 0) return;
    const list = tables
      .map((t) => `${pg.escapeIdentifier(t.schemaname)}.${pg.escapeIdentifier(t.tablename)}`)
      .join(', ');
    await theCenter().query(
      `SET session_replication_role = replica; TRUNCATE ${list} RESTART IDENTITY CASCADE; SET session_replication_role = origin`,
    );
  }

  return [
    {
      name: 'sqlite',
      storage: async () => {
        current = path.join(folder, String(++counter));
        await mkdir(current);
        return track(embeddedStorage(current));
      },
      anotherDesk: () => Promise.resolve(track(embeddedStorage(current))),
      center: theCenter,
    },
    {
      name: 'postgres',
      storage: async () => {
        await emptyCenter();
        return track(centerStorage(theCenter().app));
      },
      anotherDesk: () => Promise.resolve(track(centerStorage(theCenter().app))),
      center: theCenter,
    },
  ];
}

/** What another desk of the center hears while it listens (main/storage/changes.ts), for a store's notification tests. */
export interface Hearing {
  heard: Change[];
  /** Waits for `count` changes (5 s at most), then 250 ms more for any the writes might have sent after them. */
  settle(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Listens at `desk` until it listens; undefined on the embedded files, which have nobody to tell and nothing to listen with. */
export async function hearAt(desk: Storage): Promise<Hearing | undefined> {
  const heard: Change[] = [];
  const listener = desk.listen?.({ onChange: (change) => heard.push(change) });
  if (listener === undefined) return undefined;
  const release = listener.acquire();
  for (let i = 0; i < 200 && !listener.listening; i++) await sleep(25);
  return {
    heard,
    async settle(count) {
      for (let i = 0; i < 200 && heard.length < count; i++) await sleep(25);
      await sleep(250);
    },
    async close() {
      release();
      await listener.close();
    },
  };
}
