// The center backend against a real PostgreSQL: how a desk connects (TLS modes, the password asked for), and every way
// it can fail said in words (StorageError codes) — the server down, the sign-in refused, no database, a lost connection.
import { createServer, type Server } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageError, centerStorage, type CenterConnectionOptions } from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import type { PostgresInfo } from '../../support/postgres';
import { notesStore, type NotesDB } from './support/notes-store';

let server: PostgresInfo;
let center: TestCenter;

beforeAll(async () => {
  server = await testPostgres();
  center = await createCenter(server, { stores: [notesStore] });
}, 120_000);

afterAll(async () => {
  await center.drop();
});

/** Opens the notes store with these options and runs one query; answers the error, or undefined. */
async function attempt(options: CenterConnectionOptions): Promise<unknown> {
  const storage = centerStorage({ ...options, connectTimeoutMs: options.connectTimeoutMs ?? 3000 });
  try {
    const store = await storage.open<NotesDB>(notesStore);
    await store.db.selectFrom('notes').select('id').execute();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await storage.close();
  }
}

async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

describe('connecting', () => {
  it('works with TLS off, required, and verified against the CA IT gives', async () => {
    expect(await attempt(center.app)).toBeUndefined();
    expect(await attempt({ ...center.app, tls: { mode: 'require' } })).toBeUndefined();
    expect(
      await attempt({ ...center.app, tls: { mode: 'verify-full', caCertificatePem: server.caCertificatePem } }),
    ).toBeUndefined();
  });

  it('uses TLS when asked: the server sees an encrypted connection', async () => {
    const storage = centerStorage({
      ...center.app,
      tls: { mode: 'verify-full', caCertificatePem: server.caCertificatePem },
    });
    try {
      const client = await storage.pool.connect();
      try {
        const { rows } = await client.query<{ ssl: boolean }>(
          'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
        );
        expect(rows[0]?.ssl).toBe(true);
      } finally {
        client.release();
      }
    } finally {
      await storage.close();
    }
  });

  it('refuses a server whose certificate does not chain to the CA (verify-full without it): center_tls_failed', async () => {
    const error = await attempt({ ...center.app, tls: { mode: 'verify-full' } });
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'center_tls_failed' });
    expect((error as Error).message).toMatch(/sslrootcert/);
  });
});

describe('the center unreachable or refusing', () => {
  it('nothing listening: center_unavailable, naming the server and who acts', async () => {
    const port = await unusedPort();
    const error = await attempt({ ...center.app, port });
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'center_unavailable', params: { center: `127.0.0.1:${port}` } });
    expect((error as Error).message).toMatch(/cannot be reached: it refused the connection.*tell IT/);
  });

  it('a server that never answers: center_unavailable after the connect timeout', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const started = Date.now();
      const error = await attempt({ ...center.app, port, connectTimeoutMs: 500 });
      expect(error).toMatchObject({ code: 'center_unavailable' });
      expect((error as Error).message).toMatch(/did not answer in time/);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.close();
    }
  });

  it('a wrong password: center_login_refused, and the password is in no message', async () => {
    const password = 'not-the-password-9f3a';
    const error = await attempt({ ...center.app, password: () => Promise.resolve(password) });
    expect(error).toMatchObject({ code: 'center_login_refused' });
    expect((error as Error).message).toMatch(/centerPassword/);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(password);
    expect((error as Error).message).not.toContain(center.roles.app.password);
  });

  it('no password stored on the desk: center_login_refused, telling IT how to provision it', async () => {
    const error = await attempt({ ...center.app, password: () => Promise.resolve(undefined) });
    expect(error).toMatchObject({ code: 'center_login_refused' });
    expect((error as Error).message).toMatch(/--provision-secret --secret-name=centerPassword/);
  });

  it('no such database: center_not_ready, pointing at setup.sql', async () => {
    const error = await attempt({ ...center.app, database: 'no_such_database' });
    expect(error).toMatchObject({ code: 'center_not_ready' });
    expect((error as Error).message).toMatch(/no database "no_such_database".*setup\.sql/);
  });

  it('a connection cut under the desk (the server restarting): center_unavailable, then the next query works', async () => {
    const idle: unknown[] = [];
    const storage = centerStorage({ ...center.app, maxConnections: 1, onIdleError: (error) => idle.push(error) });
    try {
      const store = await storage.open<NotesDB>(notesStore);
      await store.db.selectFrom('notes').select('id').execute();
      const client = await storage.pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      client.release();
      await center.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      // The pool may notice the idle connection die (onIdleError) before the next query; either way the desk is told.
      const error: unknown = await store.db
        .selectFrom('notes')
        .select('id')
        .execute()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      const seen = error ?? idle[0];
      expect(seen).toBeInstanceOf(StorageError);
      expect(seen).toMatchObject({ code: 'center_unavailable' });
      expect(await store.db.selectFrom('notes').select('id').execute()).toEqual([]);
    } finally {
      await storage.close();
    }
  });
  it('a connection cut in the middle of a statement: that statement fails as center_unavailable, the very next one works', async () => {
    const storage = centerStorage({ ...center.app, maxConnections: 1, onIdleError: () => undefined });
    try {
      const store = await storage.open<NotesDB>(notesStore);
      const client = await storage.pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      client.release();
      // The server ends the connection while a statement runs on it: the error answer and the socket's close come apart,
      // and the connection used to go back to the pool between the two, so the next statement went to a dead socket.
      const running = sql`SELECT pg_sleep(5)`.execute(store.db).then(
        () => undefined,
        (e: unknown) => e,
      );
      await waitFor(
        async () =>
          (await center.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'`, [rows[0]?.pid]))
            .length === 1,
      );
      await center.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      expect(await running).toMatchObject({ code: 'center_unavailable' });
      expect(await store.db.selectFrom('notes').select('id').execute()).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});

async function waitFor(ready: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the statement never started');
}

describe('one pooled connection per desk (at most 2 with the LISTEN one)', () => {
  it('the pool holds 1 connection; a transaction, the statements queued behind it and a transaction nested in place all finish', async () => {
    const applicationName = `cpd-pool-${Date.now()}`;
    const storage = centerStorage({ ...center.app, applicationName, connectTimeoutMs: 3000 });
    try {
      expect(storage.pool.options.max).toBe(1);
      const store = await storage.open<NotesDB>(notesStore);
      const inside = store.transaction(async (trx) => {
        await trx
          .insertInto('notes')
          .values({
            id: 'pool-1',
            desk: 'a',
            body: 'first',
            cents: 1,
            created_at: '2026-11-24T00:00:00.000Z',
            pinned: 0,
          })
          .execute();
        // Another store's statements wait for the one connection; the transaction itself never waits on them.
        await new Promise((resolve) => setTimeout(resolve, 100));
        // A store's "nested" transaction runs on the open one (as Journal.transaction does), never asking the pool again.
        await trx
          .insertInto('notes')
          .values({
            id: 'pool-2',
            desk: 'a',
            body: 'second',
            cents: 2,
            created_at: '2026-11-24T00:00:00.000Z',
            pinned: 0,
          })
          .execute();
        return (await trx.selectFrom('notes').select('id').where('id', 'in', ['pool-1', 'pool-2']).execute()).length;
      });
      const queued = Promise.all([1, 2, 3].map(() => store.db.selectFrom('notes').select('id').execute()));
      expect(await inside).toBe(2);
      await queued;
      const held = await center.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      expect(held.length).toBe(1);
    } finally {
      await storage.close();
    }
  });
});
