// Versioned migrations per backend: an embedded file migrated, adopted from the SqliteFile era or refused when a newer
// app wrote it; the center migrated by its owner role (--migrate-center) with exactly the grants the store declares.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_STORE } from '../../../main/audit';
import { OPERATORS_STORE } from '../../../main/operators/store';
import {
  centerStorage,
  embeddedStorage,
  migrateCenter,
  SqliteFile,
  StorageError,
  type StoreDefinition,
} from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import type { PostgresInfo } from '../../support/postgres';
import { notesStore, type NotesDB } from './support/notes-store';

let folder: string;
let server: PostgresInfo;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cpd-migrations-'));
  server = await testPostgres();
}, 120_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

let counter = 0;
const newFolder = async (): Promise<string> => {
  const dir = path.join(folder, String(++counter));
  await mkdir(dir);
  return dir;
};

describe('an embedded file', () => {
  it('is created at the latest migration, recorded in kysely_migration and in user_version', async () => {
    const dir = await newFolder();
    const storage = embeddedStorage(dir);
    const store = await storage.open<NotesDB>(notesStore);
    expect(store.schemaVersion).toBe(2);
    await storage.close();
    const raw = new Database(path.join(dir, 'notes.db'));
    try {
      expect(raw.pragma('user_version', { simple: true })).toBe(2);
      expect(raw.prepare('SELECT name FROM kysely_migration ORDER BY name').all()).toEqual([
        { name: '0001_notes' },
        { name: '0002_pinned' },
      ]);
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('written by the SqliteFile era at user_version 1 is adopted: migration 1 not run again, migration 2 run, rows kept', async () => {
    const dir = await newFolder();
    const old = new SqliteFile(path.join(dir, 'notes.db'), {
      label: 'notes',
      migrations: [
        `CREATE TABLE notes (id TEXT PRIMARY KEY, desk TEXT NOT NULL, body TEXT NOT NULL, cents INTEGER NOT NULL, created_at TEXT NOT NULL);
         CREATE UNIQUE INDEX notes_desk_body ON notes (desk, body);`,
      ],
    });
    old.db.prepare(`INSERT INTO notes VALUES ('old', 'd', 'kept', 5, '2026-01-01T00:00:00.000Z')`).run();
    old.db.close();
    const storage = embeddedStorage(dir);
    try {
      const store = await storage.open<NotesDB>({
        ...notesStore,
        sqlite: { ...notesStore.sqlite, adoptsUserVersion: 1 },
      });
      expect(store.schemaVersion).toBe(2);
      expect(await store.db.selectFrom('notes').selectAll().execute()).toEqual([
        { id: 'old', desk: 'd', body: 'kept', cents: 5, created_at: '2026-01-01T00:00:00.000Z', pinned: 0 },
      ]);
    } finally {
      await storage.close();
    }
  });

  it('at a user_version this store cannot adopt is refused, untouched', async () => {
    const dir = await newFolder();
    const raw = new Database(path.join(dir, 'notes.db'));
    raw.exec('CREATE TABLE other (a TEXT)');
    raw.pragma('user_version = 1');
    raw.close();
    const storage = embeddedStorage(dir);
    await expect(storage.open(notesStore)).rejects.toMatchObject({
      code: 'store_migration_failed',
      message: expect.stringMatching(/not written by this app/) as unknown,
    });
    await storage.close();
  });

  it('written by a newer app (a migration this app does not know) is refused: update the app', async () => {
    const dir = await newFolder();
    const newer: StoreDefinition = {
      ...notesStore,
      sqlite: {
        ...notesStore.sqlite,
        migrations: { ...notesStore.sqlite.migrations, '0003_future': { up: () => Promise.resolve() } },
      },
    };
    const first = embeddedStorage(dir);
    await first.open(newer);
    await first.close();
    const storage = embeddedStorage(dir);
    const error: unknown = await storage.open(notesStore).catch((e: unknown) => e);
    await storage.close();
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'store_from_newer_app' });
    expect((error as Error).message).toMatch(/0003_future.*update the app/);
  });

  it('a failing migration writes nothing of its run and says which step', async () => {
    const dir = await newFolder();
    const first = embeddedStorage(dir);
    await first.open(notesStore);
    await first.close();
    const broken: StoreDefinition = {
      ...notesStore,
      sqlite: {
        ...notesStore.sqlite,
        migrations: {
          ...notesStore.sqlite.migrations,
          '0003_broken': {
            up: async (db) => {
              await db.schema.createTable('half').addColumn('a', 'text').execute();
              await sql`SELECT * FROM no_such_table`.execute(db);
            },
          },
        },
      },
    };
    const storage = embeddedStorage(dir);
    const error: unknown = await storage.open(broken).catch((e: unknown) => e);
    await storage.close();
    expect(error).toMatchObject({
      code: 'store_migration_failed',
      message: expect.stringMatching(/step 0003_broken/) as unknown,
    });
    const raw = new Database(path.join(dir, 'notes.db'));
    try {
      expect(raw.prepare(`SELECT name FROM sqlite_master WHERE name = 'half'`).get()).toBeUndefined();
      expect(raw.prepare('SELECT count(*) AS n FROM kysely_migration').get()).toEqual({ n: 2 });
      expect(raw.pragma('user_version', { simple: true })).toBe(2);
    } finally {
      raw.close();
    }
  });
});

describe('the center', () => {
  let center: TestCenter;

  beforeAll(async () => {
    center = await createCenter(server);
  }, 60_000);

  afterAll(async () => {
    await center.drop();
  });

  it('--migrate-center as the owner: the store schema made, the app role granted exactly what the store declares; a second run changes nothing', async () => {
    const [report] = await migrateCenter(center.owner, [notesStore]);
    expect(report).toMatchObject({ store: 'notes_test', from: 0, to: 2, applied: ['0001_notes', '0002_pinned'] });
    const grants = await center.query<{ grantee: string; privilege_type: string }>(
      `SELECT grantee, privilege_type FROM information_schema.role_table_grants WHERE table_schema = 'notes_test' AND table_name = 'notes' ORDER BY grantee, privilege_type`,
    );
    expect(grants.filter((g) => g.grantee === center.roles.app.name).map((g) => g.privilege_type)).toEqual([
      'INSERT',
      'SELECT',
      'UPDATE',
    ]);
    expect(grants.filter((g) => g.grantee === center.roles.auditor.name).map((g) => g.privilege_type)).toEqual([
      'SELECT',
    ]);
    const [owner] = await center.query<{ tableowner: string }>(
      `SELECT tableowner FROM pg_tables WHERE schemaname = 'notes_test' AND tablename = 'notes'`,
    );
    expect(owner?.tableowner).toBe(center.roles.owner.name);

    const [again] = await migrateCenter(center.owner, [notesStore]);
    expect(again).toMatchObject({ from: 2, to: 2, applied: [] });
  });

  /** A person granted the auditor role, signed in with a password of their own, as docs/IT.md has IT make them. */
  async function asAuditor<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const person = { name: `${center.database.name}_audits`, password: 'an auditor 42' };
    await center.query(
      `CREATE ROLE ${pg.escapeIdentifier(person.name)} LOGIN PASSWORD ${pg.escapeLiteral(person.password)}`,
    );
    await center.query(
      `GRANT ${pg.escapeIdentifier(center.roles.auditor.name)} TO ${pg.escapeIdentifier(person.name)}`,
    );
    const client = new pg.Client({
      host: server.host,
      port: server.port,
      database: center.database.name,
      user: person.name,
      password: person.password,
    });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
      await center.query(
        `DROP OWNED BY ${pg.escapeIdentifier(person.name)}; DROP ROLE ${pg.escapeIdentifier(person.name)}`,
      );
    }
  }

  it("the auditor and the desks read the trail and the operators' accounts, never a password hash or a session's key", async () => {
    await migrateCenter(center.owner, [OPERATORS_STORE, AUDIT_STORE]);
    await center.query(
      `INSERT INTO operators.operators (id, display_name, role, password_hash, created_at, updated_at) VALUES ('ana', 'Ana', 'agent', '$scrypt$secret', 1, 1);
       INSERT INTO operators.sessions (operator_id, session_id, desk_id, started_at, last_seen_at) VALUES ('ana', 'live-session', 'desk-a', 1, 1)`,
    );
    await asAuditor(async (client) => {
      await expect(client.query('SELECT password_hash FROM operators.operators')).rejects.toMatchObject({
        code: '42501',
      });
      await expect(client.query('SELECT * FROM operators.operators')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('SELECT session_id FROM operators.sessions')).rejects.toMatchObject({ code: '42501' });
      expect(
        (await client.query('SELECT id, role, failed_attempts, locked_until FROM operators.operators')).rows,
      ).toEqual([{ id: 'ana', role: 'agent', failed_attempts: 0, locked_until: null }]);
      expect((await client.query('SELECT operator_id, desk_id FROM operators.sessions')).rows).toEqual([
        { operator_id: 'ana', desk_id: 'desk-a' },
      ]);
      expect((await client.query('SELECT count(*)::int AS n FROM audit.audit')).rows).toEqual([{ n: 0 }]);
      await expect(client.query(`UPDATE operators.operators SET role = 'admin'`)).rejects.toMatchObject({
        code: '42501',
      });
    });
    const app = new pg.Client({
      host: server.host,
      port: server.port,
      database: center.database.name,
      user: center.roles.app.name,
      password: center.roles.app.password,
    });
    await app.connect();
    try {
      // Nor does a desk's login: only the center's functions compare a password's key with the hash.
      await expect(app.query('SELECT password_hash FROM operators.operators')).rejects.toMatchObject({ code: '42501' });
      await expect(app.query('SELECT session_id FROM operators.sessions')).rejects.toMatchObject({ code: '42501' });
      expect((await app.query('SELECT id, role FROM operators.operators')).rows).toEqual([
        { id: 'ana', role: 'agent' },
      ]);
    } finally {
      await app.end();
    }
    const grants = await center.query<{ table_name: string; privilege_type: string }>(
      `SELECT table_name, privilege_type FROM information_schema.role_table_grants WHERE table_schema = 'operators' AND grantee = $1`,
      [center.roles.auditor.name],
    );
    // No table-level grant on a table with a secret: it would reach every column.
    expect(grants.filter((g) => g.table_name === 'operators' || g.table_name === 'sessions')).toEqual([]);
    // setup.sql gives the auditor no default SELECT on the owner's new tables: --migrate-center grants it, table by table.
    const defaults = await center.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_default_acl d, aclexplode(d.defaclacl) a WHERE d.defaclobjtype = 'r' AND a.grantee = $1::regrole`,
      [center.roles.auditor.name],
    );
    expect(defaults).toEqual([{ n: 0 }]);
  });

  it("a column added by a later migration is the auditor's to read after --migrate-center; a secret column stays hidden; a secret column the table lacks is refused", async () => {
    const secret: StoreDefinition = {
      ...notesStore,
      name: 'notes_secret',
      postgres: { ...notesStore.postgres, secretColumns: { notes: ['body'] } },
    };
    await migrateCenter(center.owner, [secret]);
    const later: StoreDefinition = {
      ...secret,
      postgres: {
        ...secret.postgres,
        migrations: {
          ...secret.postgres.migrations,
          '0003_tag': {
            up: async (db) => void (await db.schema.alterTable('notes').addColumn('tag', 'text').execute()),
          },
        },
      },
    };
    const [report] = await migrateCenter(center.owner, [later]);
    expect(report?.auditor).toEqual({
      notes: { hidden: ['body'] },
      kysely_migration: 'all',
      kysely_migration_lock: 'all',
    });
    await asAuditor(async (client) => {
      expect((await client.query('SELECT id, desk, tag, pinned FROM notes_secret.notes')).rows).toEqual([]);
      await expect(client.query('SELECT body FROM notes_secret.notes')).rejects.toMatchObject({ code: '42501' });
    });
    const misspelt: StoreDefinition = {
      ...later,
      postgres: { ...later.postgres, secretColumns: { notes: ['bodyy'] } },
    };
    await expect(migrateCenter(center.owner, [misspelt])).rejects.toMatchObject({
      code: 'store_migration_failed',
      message: expect.stringMatching(/notes_secret\.notes does not have \(bodyy\)/) as unknown,
    });
    await asAuditor(async (client) => {
      await expect(client.query('SELECT body FROM notes_secret.notes')).rejects.toMatchObject({ code: '42501' });
    });
  });

  it('the app role cannot migrate: it is refused in words', async () => {
    const other = { ...notesStore, name: 'notes_by_app' };
    await expect(migrateCenter(center.app, [other])).rejects.toMatchObject({ code: 'center_permission_denied' });
  });

  it('a desk of an older app opens a store the center has migrated further (migrations only add)', async () => {
    await migrateCenter(center.owner, [notesStore]);
    const newer: StoreDefinition = {
      ...notesStore,
      postgres: {
        ...notesStore.postgres,
        migrations: { ...notesStore.postgres.migrations, '0003_future': { up: () => Promise.resolve() } },
      },
    };
    await migrateCenter(center.owner, [newer]);
    const storage = centerStorage(center.app);
    try {
      const store = await storage.open<NotesDB>(notesStore);
      expect(store.schemaVersion).toBe(3);
    } finally {
      await storage.close();
    }
    // …but --migrate-center of the older app refuses to touch it.
    await expect(migrateCenter(center.owner, [notesStore])).rejects.toMatchObject({ code: 'store_from_newer_app' });
  });

  it('a database setup.sql was not run on: center_not_ready, pointing at setup.sql', async () => {
    const bare = await createCenter(server, { setUp: false });
    try {
      await expect(
        migrateCenter({ ...bare.owner, user: server.user, password: () => Promise.resolve(server.password) }, [
          notesStore,
        ]),
      ).rejects.toMatchObject({
        code: 'center_not_ready',
        message: expect.stringMatching(/setup\.sql/) as unknown,
      });
    } finally {
      await bare.drop();
    }
  });
});
