// The operator directory's door on the center (main/operators/center-sql.ts), on a real PostgreSQL: one desk's stolen
// credential, used with `pg` directly as an attacker would, cannot promote anyone, read or copy a password hash, read a
// session's key, open a session without the password, act through another desk's session or pose as another desk; its
// guesses are counted as the screen's are; and the desk itself goes on signing people in through the directory.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKS_STORE } from '../../../main/center/registry';
import { MAX_FAILED_ATTEMPTS, MIN_COST, OPERATORS_STORE, OperatorDirectory } from '../../../main/operators';
import { centerStorage, type CenterConnectionOptions, type Storage } from '../../../main/storage';
import { connectAs, createCenter, refused, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { ADMIN, AGENT, SUPERVISOR, signedIn } from './helpers';

let center: TestCenter;
const storages: Storage[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: [DESKS_STORE, OPERATORS_STORE] });
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  await Promise.all(storages.map((storage) => storage.close()));
  await center.drop();
});

interface OwnDesk {
  deskId: string;
  credential: CenterConnectionOptions;
  directory: OperatorDirectory;
}

/** A desk on its own login, bound to its id, with its directory open there. */
async function ownDesk(): Promise<OwnDesk> {
  const deskId = randomUUID();
  const credential = await center.addDesk({ deskId });
  const storage = centerStorage(credential);
  storages.push(storage);
  const directory = await OperatorDirectory.open(storage, { deskId }, { cost: MIN_COST });
  return { deskId, credential, directory };
}

async function connect(credential: CenterConnectionOptions): Promise<pg.Client> {
  const client = await connectAs(credential);
  clients.push(client);
  return client;
}

const one = async <T>(client: pg.Client, text: string, values: unknown[]): Promise<T> => {
  const result = await client.query(text, values);
  return result.rows[0] as T;
};

describe('the operator directory on the center, through its functions only', () => {
  it('a desk’s stolen credential cannot promote, read a hash or a session key, or act without a proven password', async () => {
    const a = await ownDesk();
    const b = await ownDesk();
    await a.directory.createFirstAdmin(ADMIN);
    await signedIn(a.directory, ADMIN);
    await a.directory.createOperator(ADMIN.id, AGENT);
    await a.directory.createOperator(ADMIN.id, SUPERVISOR);
    // The admin is signed in at desk B too (another session of the center: the last one opened holds).
    const adminAtB = await signedIn(b.directory, ADMIN, { takeOver: true });
    if (!adminAtB.ok) throw new Error('the admin could not sign in at desk B');
    const before = await center.query('SELECT id, role, disabled, password_hash FROM operators.operators ORDER BY id');

    const attacker = await connect(a.credential);
    // Row by row: nothing written, no secret read.
    expect(await refused(attacker.query(`UPDATE operators.operators SET role = 'admin' WHERE id = 'ana'`))).toBe(
      '42501',
    );
    expect(
      await refused(
        attacker.query(
          `INSERT INTO operators.operators (id, display_name, role, password_hash, created_at, updated_at)
             VALUES ('eve', 'Eve', 'admin', '$scrypt$ln=14,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=', 1, 1)`,
        ),
      ),
    ).toBe('42501');
    expect(await refused(attacker.query('SELECT password_hash FROM operators.operators'))).toBe('42501');
    expect(await refused(attacker.query('SELECT session_id FROM operators.sessions'))).toBe('42501');
    expect(await refused(attacker.query('SELECT * FROM operators.tickets'))).toBe('42501');
    expect(await refused(attacker.query('SELECT * FROM operators.center_secret'))).toBe('42501');
    expect(await refused(attacker.query(`DELETE FROM operators.sessions`))).toBe('42501');
    // The functions other schemas use are not the desks' to call.
    expect(await refused(attacker.query(`SELECT * FROM operators.acting_operator('x', NULL)`))).toBe('42501');
    expect(await refused(attacker.query(`SELECT * FROM operators.consume_override('x', NULL)`))).toBe('42501');
    expect(await refused(attacker.query(`SELECT operators.issue_ticket('sign_in', 'ada', $1)`, [a.deskId]))).toBe(
      '42501',
    );

    // Through the door with forged arguments: a made-up session, another desk's real session, another desk's id.
    const madeUp = randomUUID() + randomUUID();
    expect(await one(attacker, `SELECT operators.set_role($1, 'ana', 'admin', NULL) AS outcome`, [madeUp])).toEqual({
      outcome: 'forbidden',
    });
    expect(
      await one(attacker, `SELECT operators.set_role($1, 'ana', 'admin', NULL) AS outcome`, [adminAtB.sessionId]),
    ).toEqual({ outcome: 'forbidden' });
    expect(
      await refused(
        attacker.query(`SELECT operators.set_role($1, 'ana', 'admin', $2)`, [adminAtB.sessionId, b.deskId]),
      ),
    ).toBe('42501');
    expect(
      await one(
        attacker,
        `SELECT operators.reset_password($1, 'sam', '$scrypt$ln=14,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=', NULL) AS outcome`,
        [madeUp],
      ),
    ).toEqual({ outcome: 'forbidden' });
    // A session without a proven password: no ticket, no session.
    expect(
      await one(attacker, `SELECT * FROM operators.open_session($1, $2, true, NULL)`, [madeUp, randomUUID() + 'x']),
    ).toMatchObject({ outcome: 'no_ticket' });
    // Setup is over: no second first admin.
    expect(
      await one(
        attacker,
        `SELECT operators.create_first_admin('eve', 'Eve', '$scrypt$ln=14,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=', NULL) AS outcome`,
        [],
      ),
    ).toEqual({ outcome: 'setup_done' });
    // An account moved in from "a desk's file" comes disabled into a center that has accounts of its own.
    expect(
      await one(
        attacker,
        `SELECT operators.move_in_operator('eve', 'Eve', 'admin', 0, '$scrypt$ln=14,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=', 1, NULL, NULL) AS outcome`,
        [],
      ),
    ).toEqual({ outcome: 'disabled' });
    expect(await center.query(`SELECT role, disabled FROM operators.operators WHERE id = 'eve'`)).toEqual([
      { role: 'admin', disabled: 1 },
    ]);
    expect((await a.directory.signIn('eve', 'any password 1')).ok).toBe(false);
    // Nothing else of the accounts changed.
    expect(
      await center.query(
        `SELECT id, role, disabled, password_hash FROM operators.operators WHERE id <> 'eve' ORDER BY id`,
      ),
    ).toEqual(before);

    // The desk itself goes on: the agent signs in through the directory, and the admin's changes at desk A still hold.
    expect(await a.directory.signIn(AGENT.id, AGENT.password)).toMatchObject({ ok: true });
    expect(await b.directory.setRole(ADMIN.id, SUPERVISOR.id, 'supervisor')).toMatchObject({ role: 'supervisor' });
  });

  it('guesses through the door are counted as the screen’s are; unknown ids answer as accounts do', async () => {
    const a = await ownDesk();
    const attacker = await connect(a.credential);
    const existing = await center.query<{ id: string }>(`SELECT id FROM operators.operators WHERE id = 'sam'`);
    if (existing.length === 0) throw new Error('the first test seeds sam');
    // The salt and cost are what a desk needs to derive a key: an unknown id gets a salt of its own, the same each time.
    const params = async (id: string): Promise<string> =>
      (await one<{ p: string }>(attacker, `SELECT operators.password_params($1) AS p`, [id])).p;
    expect(await params('sam')).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}==\$32$/);
    expect(await params('nobody')).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}==\$32$/);
    expect(await params('nobody')).toBe(await params('NOBODY'));
    expect(await params('nobody')).not.toBe(await params('nobody2'));

    // Each guess is counted first (a committed statement of its own), then compared.
    const guess = async (id: string) => {
      const { attempt } = await one<{ attempt: string }>(
        attacker,
        `SELECT operators.begin_attempt('sign_in', $1, 'd3JvbmcgZ3Vlc3M=', NULL) AS attempt`,
        [id],
      );
      return one<{ outcome: string }>(attacker, `SELECT outcome FROM operators.sign_in($1, NULL)`, [attempt]);
    };
    for (let i = 1; i < MAX_FAILED_ATTEMPTS; i++) {
      expect(await guess('sam')).toEqual({ outcome: 'invalid_credentials' });
      expect(await guess('nobody')).toEqual({ outcome: 'invalid_credentials' });
    }
    expect(await guess('sam')).toEqual({ outcome: 'locked' });
    expect(await guess('nobody')).toEqual({ outcome: 'locked' });
    // The lock holds for the screen too, even with the right password.
    expect(await a.directory.signIn(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({ ok: false, reason: 'locked' });
    await center.query(`UPDATE operators.operators SET locked_until = NULL, failed_attempts = 0 WHERE id = 'sam'`);
    expect(await a.directory.signIn(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({ ok: true });
  });
});
