// A credential per desk, on a real PostgreSQL: each desk's login role made by docs/center/add-desk.sql as IT does. Its id
// is bound to its login at its first start; another desk's credential cannot register it, nor read or change the
// registry, nor end another desk's connections; an attacker holding one desk's password connects with `pg` directly.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeProblem } from '../../../main/cli/messages';
import { DESKS_STORE, deskIdentity, registerDesk } from '../../../main/center';
import { centerStorage, type CenterConnectionOptions, type Storage } from '../../../main/storage';
import { connectAs as connectCenter, createCenter, refused, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';

let center: TestCenter;
let folder: string;
let counter = 0;
const storages: Storage[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: [DESKS_STORE] });
  folder = await mkdtemp(path.join(tmpdir(), 'cpd-desk-credentials-'));
}, 120_000);

afterEach(async () => {
  await Promise.all(storages.splice(0).map((storage) => storage.close()));
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
});

afterAll(async () => {
  await center.drop();
  await rm(folder, { recursive: true, force: true });
});

const newFolder = (): string => path.join(folder, String(++counter));

/** A start of the desk of `dataDir` on the center, signing in with `credential`: its id, or what refused it. */
async function start(dataDir: string, credential: CenterConnectionOptions): Promise<string> {
  const identity = await deskIdentity(dataDir);
  const storage = centerStorage(credential);
  storages.push(storage);
  await registerDesk(storage, identity, dataDir, { host: 'PC' });
  return identity.deskId;
}

const outcome = (dataDir: string, credential: CenterConnectionOptions): Promise<unknown> =>
  start(dataDir, credential).then(
    () => 'started',
    (error: unknown) => error,
  );

const bound = async (deskId: string): Promise<string | null> =>
  (
    await center.query<{ login_role: string }>('SELECT login_role FROM center.desk_logins WHERE desk_id = $1', [deskId])
  )[0]?.login_role ?? null;

/** A connection as an attacker makes it, ended after the tests. */
async function connectAs(credential: CenterConnectionOptions): Promise<pg.Client> {
  const client = await connectCenter(credential);
  clients.push(client);
  return client;
}

describe('a credential per desk', () => {
  it('binds the desk id to its login at the first start; the next starts with it go on', async () => {
    const desk = await center.addDesk();
    const dir = newFolder();
    const deskId = await start(dir, desk);
    expect(await bound(deskId)).toBe(desk.role.name);
    expect(await start(dir, desk)).toBe(deskId);
  });

  it('another desk’s credential cannot register that id, and a credential registers one desk only: nothing written', async () => {
    const [a, b] = [await center.addDesk(), await center.addDesk()];
    const dirA = newFolder();
    const deskA = await start(dirA, a);
    const before = await center.query('SELECT * FROM desks.desks ORDER BY desk_id');
    const withB = await outcome(dirA, b);
    expect(withB).toMatchObject({ code: 'desk_credential_mismatch', params: { deskId: deskA, reason: 'desk_bound' } });
    expect(describeProblem(withB)).toContain('bound on the center to another desk');
    const other = await outcome(newFolder(), a);
    expect(other).toMatchObject({
      code: 'desk_credential_mismatch',
      params: { reason: 'login_bound', boundDesk: deskA },
    });
    expect(describeProblem(other)).toContain('docs/center/add-desk.sql');
    expect(await center.query('SELECT * FROM desks.desks ORDER BY desk_id')).toEqual(before);
  });

  it('a desk registered with the shared credential is adopted by its own, after which the shared one cannot register it', async () => {
    const dir = newFolder();
    const deskId = await start(dir, center.app);
    expect(await bound(deskId)).toBeNull();
    const own = await center.addDesk();
    expect(await start(dir, own)).toBe(deskId);
    expect(await bound(deskId)).toBe(own.role.name);
    expect(await outcome(dir, center.app)).toMatchObject({
      code: 'desk_credential_mismatch',
      params: { reason: 'desk_bound' },
    });
  });

  it('a row IT reset is taken again only by the login bound to it: an unbound one is refused and told to have it bound', async () => {
    const dir = newFolder();
    const deskId = await start(dir, center.app);
    await center.query('UPDATE desks.desks SET nonce = NULL WHERE desk_id = $1', [deskId]);
    const stranger = await center.addDesk();
    const refusal = await outcome(dir, stranger);
    expect(refusal).toMatchObject({ code: 'desk_credential_mismatch', params: { deskId, reason: 'reset_unbound' } });
    expect(describeProblem(refusal)).toContain(`-v desk_id=${deskId}`);
    expect(await bound(deskId)).toBeNull();
    const own = await center.addDesk({ deskId });
    expect(await start(dir, own)).toBe(deskId);
  });

  it('add-desk.sql binds a desk id before its first start: another credential is refused there', async () => {
    const dir = newFolder();
    const { deskId } = await deskIdentity(dir);
    const own = await center.addDesk({ deskId });
    const stranger = await center.addDesk();
    expect(await outcome(dir, stranger)).toMatchObject({
      code: 'desk_credential_mismatch',
      params: { reason: 'desk_bound' },
    });
    expect(await start(dir, own)).toBe(deskId);
  });
});

describe('one desk’s stolen credential, used with pg directly', () => {
  it('reads and changes no registry row, not even by its function or as the app role, and ends no other desk’s connection', async () => {
    const [a, b] = [await center.addDesk(), await center.addDesk()];
    const deskB = await start(newFolder(), b);
    const nonceB = (
      await center.query<{ nonce: string }>('SELECT nonce FROM desks.desks WHERE desk_id = $1', [deskB])
    )[0]?.nonce;
    const deskA = await start(newFolder(), a);
    const attacker = await connectAs(a);
    // The tables themselves: no privilege at all (42501), nonces and bindings included.
    expect(await refused(attacker.query("UPDATE center.desk_logins SET desk_id = 'x'"))).toBe('42501');
    expect(await refused(attacker.query('SELECT * FROM center.desk_logins'))).toBe('42501');
    expect(await refused(attacker.query('SELECT desk_id, nonce FROM desks.desks'))).toBe('42501');
    expect(await refused(attacker.query("UPDATE desks.desks SET nonce = 'x'"))).toBe('42501');
    expect(
      await refused(
        attacker.query("INSERT INTO desks.desks (desk_id, host) VALUES ('00000000-0000-4000-8000-000000000000', 'x')"),
      ),
    ).toBe('42501');
    // The function: desk B's id is bound to B; forged arguments change nothing.
    const forged = await attacker.query<{ outcome: string; held: string | null }>(
      `SELECT outcome, held FROM desks.register_desk($1, ARRAY['guess'], $2, 'EVIL')`,
      [deskB, 'n'.repeat(32)],
    );
    expect(forged.rows).toEqual([{ outcome: 'login_bound', held: null }]);
    // A credential not bound yet (provisioned for a desk not started): desk B's id is still not its to take.
    const fresh = await connectAs(await center.addDesk());
    const taken = await fresh.query<{ outcome: string }>(
      `SELECT outcome FROM desks.register_desk($1, ARRAY['guess'], $2, 'EVIL')`,
      [deskB, 'n'.repeat(32)],
    );
    expect(taken.rows).toEqual([{ outcome: 'desk_bound' }]);
    // Probing a desk on the shared credential: told it is in use, never by which computer.
    const legacy = await start(newFolder(), center.app);
    const probe = await fresh.query<{ outcome: string; host: string | null; last_started_at: string | null }>(
      `SELECT outcome, host, last_started_at FROM desks.register_desk($1, ARRAY['guess'], NULL, 'EVIL')`,
      [legacy],
    );
    expect(probe.rows).toEqual([{ outcome: 'in_use', host: null, last_started_at: null }]);
    // As the app role it is a member of: still itself (the session's login decides, never the current role).
    await attacker.query(`SET ROLE ${pg.escapeIdentifier(center.roles.app.name)}`);
    const asApp = await attacker.query<{ outcome: string }>(
      `SELECT outcome FROM desks.register_desk($1, ARRAY[]::text[], $2, 'EVIL')`,
      [deskB, 'n'.repeat(32)],
    );
    expect(asApp.rows).toEqual([{ outcome: 'login_bound' }]);
    expect(
      (
        await attacker.query<{ shared: boolean; desk: string }>(
          'SELECT center.shared_session() AS shared, center.current_desk() AS desk',
        )
      ).rows,
    ).toEqual([{ shared: false, desk: deskA }]);
    await attacker.query('RESET ROLE');
    expect(
      (
        await center.query<{ nonce: string; host: string }>('SELECT nonce, host FROM desks.desks WHERE desk_id = $1', [
          deskB,
        ])
      )[0],
    ).toEqual({ nonce: nonceB, host: 'PC' });
    // Another desk's connection: not this login's to end.
    const victim = await connectAs(b);
    const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    expect(await refused(attacker.query('SELECT pg_terminate_backend($1)', [pid]))).toBe('42501');
    expect((await victim.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    // Nor can it become someone else.
    expect(await refused(attacker.query(`SET SESSION AUTHORIZATION ${pg.escapeIdentifier(b.role.name)}`))).toBe(
      '42501',
    );
    expect(await refused(attacker.query(`SET ROLE ${pg.escapeIdentifier(b.role.name)}`))).toBe('42501');
  });
});
