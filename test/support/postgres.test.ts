// The test PostgreSQL itself: a real server (not root's), passwords checked, TLS verifiable with its CA, restartable,
// and a clear failure when PostgreSQL is not installed.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testPostgres } from './pg';
import { findPostgresBin, type PostgresInfo } from './postgres';

const run = promisify(execFile);

let server: PostgresInfo;

beforeAll(async () => {
  server = await testPostgres();
}, 120_000);

async function query<R extends pg.QueryResultRow>(config: pg.ClientConfig, text: string): Promise<R[]> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('the test PostgreSQL', () => {
  it("is Debian's PostgreSQL on a port of its own, shared by every file of the run", async () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.port).not.toBe(5432);
    expect(existsSync(path.join(server.bin, 'initdb'))).toBe(true);
    const [row] = await query<{ version: string }>({ connectionString: server.url }, 'SELECT version()');
    expect(row?.version).toMatch(/^PostgreSQL \d+/);
    expect(await testPostgres()).toBe(server);
  });

  it('runs as the postgres user when the tests run as root (initdb refuses root)', async () => {
    const [row] = await query<{ data_directory: string }>({ connectionString: server.url }, 'SHOW data_directory');
    const owner = (await run('stat', ['-c', '%U', row?.data_directory ?? ''])).stdout.trim();
    expect(owner).toBe(process.getuid?.() === 0 ? 'postgres' : (await run('id', ['-un'])).stdout.trim());
  });

  it('checks passwords over TCP', async () => {
    await expect(
      query(
        { host: server.host, port: server.port, user: server.user, password: 'wrong', database: 'postgres' },
        'SELECT 1',
      ),
    ).rejects.toMatchObject({
      code: '28P01',
    });
  });

  it('speaks TLS that verifies with the test CA for 127.0.0.1, and is refused without that CA', async () => {
    const config = {
      host: server.host,
      port: server.port,
      user: server.user,
      password: server.password,
      database: 'postgres',
    };
    const [row] = await query<{ ssl: boolean }>(
      { ...config, ssl: { rejectUnauthorized: true, ca: server.caCertificatePem } },
      'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
    );
    expect(row?.ssl).toBe(true);
    await expect(query({ ...config, ssl: { rejectUnauthorized: true } }, 'SELECT 1')).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });
});

describe('without PostgreSQL', () => {
  const saved = process.env['POSTGRES_BIN'];
  afterEach(() => {
    if (saved === undefined) delete process.env['POSTGRES_BIN'];
    else process.env['POSTGRES_BIN'] = saved;
  });

  it('fails saying what to install, never skips', () => {
    process.env['POSTGRES_BIN'] = '/nonexistent';
    expect(() => findPostgresBin()).toThrow(/POSTGRES_BIN=\/nonexistent does not hold PostgreSQL's server programs/);
  });
});
