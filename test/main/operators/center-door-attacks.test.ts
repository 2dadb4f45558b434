// What the operator directory's door on the center (main/operators/center-sql.ts) holds against one desk's stolen
// PostgreSQL credential used with `pg` directly: every guess counted by a statement of its own that no rollback takes
// back, no password oracle outside the counted sign-in, the same answers for ids that do not exist, setup and move-in
// decided from committed rows, nothing a desk holds open freezing other desks' sign-in, clean text only, bounded tables,
// only hashes main reads, and --check-center naming any grant beyond the store's.
import { createHmac, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCenter } from '../../../main/center';
import { DESKS_STORE } from '../../../main/center/registry';
import {
  LOCKOUT_MS,
  MAX_FAILED_ATTEMPTS,
  MIN_COST,
  OPERATORS_STORE,
  OVERRIDE_MAX_FAILURES,
  OperatorDirectory,
} from '../../../main/operators';
import { LOCK_WAIT_MS, MAX_UNKNOWN_IDS, OPERATOR_FUNCTIONS } from '../../../main/operators/center-sql';
import { deriveForParams, hashPassword } from '../../../main/operators/password';
import { DisplayName } from '../../../shared/operators';
import { centerStorage, migrateCenter, type CenterConnectionOptions, type Storage } from '../../../main/storage';
import { connectAs, createCenter, refused, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import type { PostgresInfo } from '../../support/postgres';
import { ADMIN, AGENT, SUPERVISOR, signedIn } from './helpers';

let server: PostgresInfo;
const centers: TestCenter[] = [];
const storages: Storage[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  server = await testPostgres();
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  await Promise.all(storages.map((storage) => storage.close().catch(() => undefined)));
  for (const center of centers) await center.drop().catch(() => undefined);
}, 120_000);

async function newCenter(): Promise<TestCenter> {
  const center = await createCenter(server, { stores: [DESKS_STORE, OPERATORS_STORE] });
  centers.push(center);
  return center;
}

interface Desk {
  deskId: string;
  credential: CenterConnectionOptions;
  directory: OperatorDirectory;
}

async function ownDesk(center: TestCenter): Promise<Desk> {
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

/** A seeded center: root (admin), ana (agent), sam (supervisor), made at desk A; the attacker is desk A's login. */
async function seededCenter(): Promise<{ center: TestCenter; a: Desk; attacker: pg.Client }> {
  const center = await newCenter();
  const a = await ownDesk(center);
  await a.directory.createFirstAdmin(ADMIN);
  const s = await signedIn(a.directory, ADMIN);
  await a.directory.createOperator(ADMIN.id, AGENT);
  await a.directory.createOperator(ADMIN.id, SUPERVISOR);
  if (s.ok) await a.directory.closeSession(s.sessionId);
  const attacker = await connect(a.credential);
  return { center, a, attacker };
}

const one = async <T>(client: pg.Client, text: string, values: unknown[] = []): Promise<T> =>
  (await client.query(text, values)).rows[0] as T;

/** What a desk derives for a password: the center's salt and cost, then scrypt on the desk. */
async function keyFor(client: pg.Client, id: string, password: string): Promise<{ params: string; key: string }> {
  const { p } = await one<{ p: string }>(client, `SELECT operators.password_params($1) AS p`, [id]);
  return { params: p, key: (await deriveForParams(password, p, MIN_COST)).key };
}

type Kind = 'sign_in' | 'override';

/** An attempt counted (in the client's transaction, or committed at once outside one): its token. */
async function begin(client: pg.Client, kind: Kind, id: string, key: string): Promise<string> {
  return (await one<{ a: string }>(client, `SELECT operators.begin_attempt($1, $2, $3, NULL) AS a`, [kind, id, key])).a;
}

interface Answer {
  outcome: string;
  wait_ms: string | null;
  ticket: string | null;
}

function compare(client: pg.Client, kind: Kind, attempt: string): Promise<Answer> {
  const fn = kind === 'sign_in' ? 'sign_in' : 'verify_override';
  return one<Answer>(client, `SELECT outcome, wait_ms, ticket FROM operators.${fn}($1, NULL)`, [attempt]);
}

/** The center's secret, as the superuser reads it (no desk's login nor the auditor can). */
async function centerSecret(center: TestCenter): Promise<Buffer> {
  const rows = await center.query<{ secret: Buffer }>('SELECT secret FROM operators.center_secret');
  if (rows[0] === undefined) throw new Error('the center has no secret');
  return rows[0].secret;
}

const lockState = async (center: TestCenter, id: string) =>
  (
    await center.query<{
      failed_attempts: number;
      locked_until: string | null;
      override_failures: number;
      override_paused_until: string | null;
      password_hash: string;
    }>(
      'SELECT failed_attempts, locked_until, override_failures, override_paused_until, password_hash FROM operators.operators WHERE id = $1',
      [id],
    )
  )[0];

describe('a guess is counted by a committed statement of its own: no rollback takes a failure back', () => {
  it('compared in the transaction that counted it, an attempt is refused unread: ROLLBACK learns nothing', async () => {
    const { center, attacker } = await seededCenter();
    for (const guess of [...Array.from({ length: 12 }, (_, i) => `wrong guess ${i}`), SUPERVISOR.password]) {
      const { key } = await keyFor(attacker, 'sam', guess);
      await attacker.query('BEGIN');
      const attempt = await begin(attacker, 'sign_in', 'sam', key);
      expect(await compare(attacker, 'sign_in', attempt)).toMatchObject({ outcome: 'no_attempt', ticket: null });
      await attacker.query('ROLLBACK');
    }
    expect(await lockState(center, 'sam')).toMatchObject({ failed_attempts: 0, locked_until: null });
    // So is one statement that counts and compares at once: its count is committed with it, its key never compared.
    const { key } = await keyFor(attacker, 'sam', SUPERVISOR.password);
    expect(
      await one(
        attacker,
        `SELECT outcome, ticket FROM operators.sign_in(operators.begin_attempt('sign_in', 'sam', $1, NULL), NULL)`,
        [key],
      ),
    ).toEqual({ outcome: 'no_attempt', ticket: null });
    expect(await lockState(center, 'sam')).toMatchObject({ failed_attempts: 1, locked_until: null });
  });

  it('committed attempts compared in transactions rolled back stay counted: the lock comes at the 10th, the right password is then refused', async () => {
    const { center, attacker } = await seededCenter();
    const outcomes: string[] = [];
    for (let i = 0; i < MAX_FAILED_ATTEMPTS + 2; i++) {
      const attempt = await begin(attacker, 'sign_in', 'sam', (await keyFor(attacker, 'sam', `wrong guess ${i}`)).key);
      await attacker.query('BEGIN');
      outcomes.push((await compare(attacker, 'sign_in', attempt)).outcome);
      await attacker.query('ROLLBACK');
    }
    expect(outcomes).toEqual([
      ...Array<string>(MAX_FAILED_ATTEMPTS - 1).fill('invalid_credentials'),
      'locked',
      'locked',
      'locked',
    ]);
    expect(await lockState(center, 'sam')).toMatchObject({ failed_attempts: MAX_FAILED_ATTEMPTS });
    expect((await lockState(center, 'sam'))?.locked_until).not.toBeNull();
    const right = await begin(attacker, 'sign_in', 'sam', (await keyFor(attacker, 'sam', SUPERVISOR.password)).key);
    expect(await compare(attacker, 'sign_in', right)).toMatchObject({ outcome: 'locked', ticket: null });
  });

  it('a comparison made to raise (autocommit, no BEGIN) leaves the committed count as it was', async () => {
    const { center, attacker } = await seededCenter();
    for (let i = 0; i < 4; i++) {
      const attempt = await begin(attacker, 'sign_in', 'sam', (await keyFor(attacker, 'sam', `wrong guess ${i}`)).key);
      const code = await refused(
        attacker.query(
          `SELECT CASE WHEN s.outcome = 'ok' THEN s.ticket ELSE (1 / 0)::text END FROM operators.sign_in($1, NULL) s`,
          [attempt],
        ),
      );
      expect(code).toBe('22012');
    }
    expect(await lockState(center, 'sam')).toMatchObject({ failed_attempts: 4, locked_until: null });
  });

  it('verify_override’s pause holds the same way: savepoints rolled back neither undo a count nor compare one counted in them', async () => {
    const { center, attacker } = await seededCenter();
    await attacker.query('BEGIN');
    for (let i = 0; i < 8; i++) {
      await attacker.query('SAVEPOINT g');
      const attempt = await begin(attacker, 'override', 'sam', (await keyFor(attacker, 'sam', `wrong guess ${i}`)).key);
      expect((await compare(attacker, 'override', attempt)).outcome).toBe('no_attempt');
      await attacker.query('ROLLBACK TO SAVEPOINT g');
    }
    await attacker.query('COMMIT');
    expect(await lockState(center, 'sam')).toMatchObject({ override_failures: 0, override_paused_until: null });

    const outcomes: string[] = [];
    for (let i = 0; i < OVERRIDE_MAX_FAILURES + 1; i++) {
      const attempt = await begin(attacker, 'override', 'sam', (await keyFor(attacker, 'sam', `wrong guess ${i}`)).key);
      await attacker.query('BEGIN');
      await attacker.query('SAVEPOINT g');
      outcomes.push((await compare(attacker, 'override', attempt)).outcome);
      await attacker.query('ROLLBACK TO SAVEPOINT g');
      await attacker.query('ROLLBACK');
    }
    // The pausing failure is answered as a wrong password, the next one as paused (as on a desk).
    expect(outcomes).toEqual([...Array<string>(OVERRIDE_MAX_FAILURES).fill('invalid_credentials'), 'override_paused']);
    expect((await lockState(center, 'sam'))?.override_paused_until).not.toBeNull();
  });

  it('an attempt is compared only at the desk that counted it, within its time, and a comparison asked again tells nothing new', async () => {
    const { center, a, attacker } = await seededCenter();
    const b = await ownDesk(center);
    const other = await connect(b.credential);
    const wrong = await begin(attacker, 'sign_in', 'ana', (await keyFor(attacker, 'ana', 'wrong guess 1')).key);
    expect((await compare(other, 'sign_in', wrong)).outcome).toBe('no_attempt');
    expect(await refused(other.query(`SELECT * FROM operators.sign_in($1, $2)`, [wrong, a.deskId]))).toBe('42501');
    // A sign-in's attempt is no override's.
    expect((await compare(attacker, 'override', wrong)).outcome).toBe('no_attempt');
    // Rolled back, the same attempt answers the same (its key was fixed when it was counted); once answered, gone.
    await attacker.query('BEGIN');
    expect((await compare(attacker, 'sign_in', wrong)).outcome).toBe('invalid_credentials');
    await attacker.query('ROLLBACK');
    expect((await compare(attacker, 'sign_in', wrong)).outcome).toBe('invalid_credentials');
    expect((await compare(attacker, 'sign_in', wrong)).outcome).toBe('no_attempt');
    const late = await begin(attacker, 'sign_in', 'ana', (await keyFor(attacker, 'ana', AGENT.password)).key);
    await center.query('UPDATE operators.attempts SET expires_at = 0');
    expect((await compare(attacker, 'sign_in', late)).outcome).toBe('no_attempt');
    expect(await lockState(center, 'ana')).toMatchObject({ failed_attempts: 2 });
    // The desk itself signs in as before, and the right password clears the count.
    expect((await a.directory.signIn(AGENT.id, AGENT.password)).ok).toBe(true);
    expect(await lockState(center, 'ana')).toMatchObject({ failed_attempts: 0, locked_until: null });
  });

  it('the desks’ attempts and the center’s tickets and attempts are not readable by a desk', async () => {
    const { attacker } = await seededCenter();
    for (const table of ['attempts', 'tickets', 'unknown_ids', 'setup', 'moved_in', 'center_secret'])
      expect(await refused(attacker.query(`SELECT * FROM operators.${table}`))).toBe('42501');
  });
});

describe('rehash: only with a sign-in’s ticket, once, for an enabled and unlocked account, to a hash main makes', () => {
  it('no key is compared (no oracle): made-up tickets raise nothing, and the old form of the call is refused', async () => {
    const { center, attacker } = await seededCenter();
    const before = (await lockState(center, 'sam'))?.password_hash;
    const attackerHash = await hashPassword('attacker chose 1', MIN_COST);
    for (let i = 0; i < 10; i++)
      expect(
        await one(attacker, `SELECT operators.rehash($1, $2, NULL) AS r`, [randomUUID() + randomUUID(), attackerHash]),
      ).toEqual({ r: false });
    const { key } = await keyFor(attacker, 'sam', SUPERVISOR.password);
    expect(await refused(attacker.query(`SELECT operators.rehash('sam', $1, $2)`, [key, attackerHash]))).not.toBe(
      'allowed',
    );
    expect((await lockState(center, 'sam'))?.password_hash).toBe(before);
  });

  it('with a ticket: refused while locked or disabled, never weaker nor out of bounds, and once', async () => {
    const { center, attacker } = await seededCenter();
    const ticketFor = async (id: string, password: string): Promise<string> => {
      const attempt = await begin(attacker, 'sign_in', id, (await keyFor(attacker, id, password)).key);
      const answer = await compare(attacker, 'sign_in', attempt);
      if (answer.ticket === null) throw new Error(`${id} did not sign in: ${answer.outcome}`);
      return answer.ticket;
    };
    const rehash = async (ticket: string, hash: string) =>
      (await one<{ r: boolean }>(attacker, `SELECT operators.rehash($1, $2, NULL) AS r`, [ticket, hash])).r;
    const stronger = await hashPassword(AGENT.password, { log2N: 15, r: 8, p: 1 });

    const whileLocked = await ticketFor('ana', AGENT.password);
    await center.query(`UPDATE operators.operators SET locked_until = 9e15 WHERE id = 'ana'`);
    expect(await rehash(whileLocked, stronger)).toBe(false);
    await center.query(`UPDATE operators.operators SET locked_until = NULL WHERE id = 'ana'`);

    const whileDisabled = await ticketFor('ana', AGENT.password);
    await center.query(`UPDATE operators.operators SET disabled = 1 WHERE id = 'ana'`);
    expect(await rehash(whileDisabled, stronger)).toBe(false);
    await center.query(`UPDATE operators.operators SET disabled = 0 WHERE id = 'ana'`);

    const ticket = await ticketFor('ana', AGENT.password);
    const tooCostly = stronger.replace('ln=15', 'ln=21');
    expect(await refused(attacker.query(`SELECT operators.rehash($1, $2, NULL)`, [ticket, tooCostly]))).toBe('22023');
    expect(
      await refused(
        attacker.query(`SELECT operators.rehash($1, $2, NULL)`, [ticket, stronger.replace('ln=15', 'ln=13')]),
      ),
    ).toBe('22023');
    // A hash below the stored one's cost is no raise.
    await center.query(`UPDATE operators.operators SET password_hash = $1 WHERE id = 'ana'`, [stronger]);
    expect(await rehash(ticket, await hashPassword(AGENT.password, MIN_COST))).toBe(false);
    const strongest = await hashPassword(AGENT.password, { log2N: 16, r: 8, p: 1 });
    const fresh = await ticketFor('ana', AGENT.password);
    expect(await rehash(fresh, strongest)).toBe(true);
    expect(await rehash(fresh, strongest)).toBe(false);
    expect((await lockState(center, 'ana'))?.password_hash).toBe(strongest);
    // The ticket still opens its one session.
    expect(
      await one(attacker, `SELECT outcome FROM operators.open_session($1, $2, true, NULL)`, [fresh, 'x'.repeat(40)]),
    ).toEqual({ outcome: 'ok' });
  }, 30_000);

  it('an admin’s reset takes away every ticket the old password won', async () => {
    const { a, attacker } = await seededCenter();
    const attempt = await begin(attacker, 'sign_in', 'sam', (await keyFor(attacker, 'sam', SUPERVISOR.password)).key);
    const { ticket } = await compare(attacker, 'sign_in', attempt);
    await signedIn(a.directory, ADMIN);
    await a.directory.resetPassword(ADMIN.id, 'sam', 'brand new pass 7');
    expect(
      await one(attacker, `SELECT operators.rehash($1, $2, NULL) AS r`, [
        ticket,
        await hashPassword('attacker chose 1', MIN_COST),
      ]),
    ).toEqual({ r: false });
    expect(
      await one(attacker, `SELECT outcome FROM operators.open_session($1, $2, true, NULL)`, [ticket, 'y'.repeat(40)]),
    ).toEqual({ outcome: 'no_ticket' });
  });
});

describe('move_in_operator compares no hash: an account the center has is "same" only for the desk that moved it in', () => {
  it('a guessed password built into a hash with the answered salt is told nothing', async () => {
    const { center, attacker } = await seededCenter();
    const { created_at } = await one<{ created_at: string }>(
      attacker,
      `SELECT created_at FROM operators.operators WHERE id = 'sam'`,
    );
    const probe = async (guess: string): Promise<string> => {
      const { params, key } = await keyFor(attacker, 'sam', guess);
      const hash = params.replace(/\$\d+$/, `$${key}`);
      return (
        await one<{ o: string }>(
          attacker,
          `SELECT operators.move_in_operator('sam', 'x', 'agent', 0, $1, $2, NULL, NULL) AS o`,
          [hash, created_at],
        )
      ).o;
    };
    for (let i = 0; i < 3; i++) expect(await probe(`wrong guess ${i}`)).toBe('conflict');
    expect(await probe(SUPERVISOR.password)).toBe('conflict');
    expect((await lockState(center, 'sam'))?.failed_attempts).toBe(0);
  });

  it('an account a desk moved in is "same" for that desk whatever hash is sent, "conflict" for any other', async () => {
    const center = await newCenter();
    const a = await ownDesk(center);
    const b = await ownDesk(center);
    const atA = await connect(a.credential);
    const atB = await connect(b.credential);
    const hash = await hashPassword('moved password 1', MIN_COST);
    const move = (client: pg.Client, id: string, role: string, movedHash: string) =>
      one<{ o: string }>(client, `SELECT operators.move_in_operator($1, 'Moved', $2, 0, $3, 1, NULL, NULL) AS o`, [
        id,
        role,
        movedHash,
      ]);
    expect(await move(atA, 'mia', 'admin', hash)).toEqual({ o: 'moved' });
    expect(await move(atA, 'mia', 'admin', await hashPassword('another one 12', MIN_COST))).toEqual({ o: 'same' });
    expect(await move(atB, 'mia', 'admin', hash)).toEqual({ o: 'conflict' });
  });
});

describe('whether a center has accounts of its own is decided from committed rows, never from what a transaction touched', () => {
  it('touching every row in the transaction first (one attempt each) still moves an admin in disabled', async () => {
    const { center, a, attacker } = await seededCenter();
    const hash = await hashPassword('eve password 12', MIN_COST);
    await attacker.query('BEGIN');
    const ids = (await attacker.query<{ id: string }>('SELECT id FROM operators.operators')).rows.map((r) => r.id);
    for (const id of ids) await begin(attacker, 'override', id, 'eA==');
    const moved = await one<{ o: string }>(
      attacker,
      `SELECT operators.move_in_operator('eve', 'Eve', 'admin', 0, $1, 1, NULL, NULL) AS o`,
      [hash],
    );
    await attacker.query('COMMIT');
    expect(moved).toEqual({ o: 'disabled' });
    expect(await center.query(`SELECT role, disabled FROM operators.operators WHERE id = 'eve'`)).toEqual([
      { role: 'admin', disabled: 1 },
    ]);
    expect(await a.directory.signIn('eve', 'eve password 12')).toEqual({ ok: false, reason: 'disabled' });
  });

  it('a center one desk’s move-in set up takes that desk’s accounts as they are until a password is proven there; another desk’s come disabled', async () => {
    const center = await newCenter();
    const a = await ownDesk(center);
    const b = await ownDesk(center);
    const atA = await connect(a.credential);
    const atB = await connect(b.credential);
    const hash = await hashPassword('moved password 1', MIN_COST);
    const move = (client: pg.Client, id: string) =>
      one<{ o: string }>(client, `SELECT operators.move_in_operator($1, 'Moved', 'admin', 0, $2, 1, NULL, NULL) AS o`, [
        id,
        hash,
      ]);
    expect(await move(atA, 'mia')).toEqual({ o: 'moved' });
    expect(await move(atA, 'max')).toEqual({ o: 'moved' });
    expect(await move(atB, 'bea')).toEqual({ o: 'disabled' });
    // Setup is over for a first admin.
    expect(await a.directory.createFirstAdmin(ADMIN).catch((error: { code?: string }) => error.code)).toBe(
      'setup_done',
    );
    // Once a password is proven at the center, desk A's move-in adds no enabled account either.
    expect((await a.directory.signIn('mia', 'moved password 1')).ok).toBe(true);
    expect(await move(atA, 'zed')).toEqual({ o: 'disabled' });
    expect(await center.query(`SELECT id, disabled FROM operators.operators ORDER BY id`)).toEqual([
      { id: 'bea', disabled: 1 },
      { id: 'max', disabled: 0 },
      { id: 'mia', disabled: 0 },
      { id: 'zed', disabled: 1 },
    ]);
  });
});

describe('ids that do not exist answer as accounts do', () => {
  it('password_params takes no cost: an unknown id gets the center’s usual cost and a salt that is the center’s HMAC of it', async () => {
    const { center, attacker } = await seededCenter();
    const ask = async (id: string) =>
      (await one<{ p: string }>(attacker, `SELECT operators.password_params($1) AS p`, [id])).p;
    expect(await ask('sam')).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}==\$32$/);
    expect(await ask('nobody')).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}==\$32$/);
    expect(await refused(attacker.query(`SELECT operators.password_params('nobody', 'ln=11,r=3,p=2')`))).toBe('42883');
    const secret = await centerSecret(center);
    const salt = createHmac('sha256', secret).update('salt:nobody').digest().subarray(0, 16).toString('base64');
    expect(await ask(' NoBody ')).toBe(`$scrypt$ln=14,r=8,p=1$${salt}$32`);
  });

  it('after a sign-in lock, verify_override answers "locked" for an account and an unknown id alike', async () => {
    const { attacker } = await seededCenter();
    for (const id of ['sam', 'nobody'])
      for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++)
        await compare(attacker, 'sign_in', await begin(attacker, 'sign_in', id, 'eA=='));
    const override = async (id: string) => {
      const answer = await compare(attacker, 'override', await begin(attacker, 'override', id, 'eA=='));
      return { outcome: answer.outcome, waits: Number(answer.wait_ms) > LOCKOUT_MS - 60_000 };
    };
    expect(await override('sam')).toEqual({ outcome: 'locked', waits: true });
    expect(await override('nobody')).toEqual({ outcome: 'locked', waits: true });
  });
});

describe('nothing a desk holds open freezes other desks’ sign-in', () => {
  it('create_first_admin inside an open transaction locks nothing: another desk signs in at once', async () => {
    const { center, attacker } = await seededCenter();
    const b = await ownDesk(center);
    await attacker.query('BEGIN');
    expect(await one(attacker, `SELECT operators.create_first_admin('zz', 'Z', 'junk', NULL) AS o`)).toEqual({
      o: 'setup_done',
    });
    const started = Date.now();
    const result = await b.directory.signIn(AGENT.id, AGENT.password);
    await attacker.query('ROLLBACK');
    expect(result.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(LOCK_WAIT_MS);
  });

  it('rows held by an open transaction (an account, a run-out ticket): other accounts sign in at once, the held one gives up after the lock wait', async () => {
    const { center, attacker } = await seededCenter();
    const b = await ownDesk(center);
    const victim = await connect(b.credential);
    const attempt = await begin(attacker, 'sign_in', 'ana', (await keyFor(attacker, 'ana', AGENT.password)).key);
    const { ticket } = await compare(attacker, 'sign_in', attempt);
    await center.query(
      `UPDATE operators.tickets SET expires_at = CAST(floor(extract(epoch FROM now()) * 1000) AS bigint) + 1000 WHERE operator_id = 'ana'`,
    );
    await attacker.query('BEGIN');
    expect(
      await one(attacker, `SELECT operators.rehash($1, $2, NULL) AS r`, [
        ticket,
        await hashPassword(AGENT.password, MIN_COST),
      ]),
    ).toEqual({ r: true });
    await begin(attacker, 'sign_in', 'sam', 'eA==');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    // The ticket has run out and is held: the next sign-in's ticket is issued without waiting for it.
    const started = Date.now();
    expect((await b.directory.signIn(ADMIN.id, ADMIN.password)).ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(LOCK_WAIT_MS);
    const { key } = await keyFor(victim, 'sam', SUPERVISOR.password);
    const held = Date.now();
    expect(await refused(victim.query(`SELECT operators.begin_attempt('sign_in', 'sam', $1, NULL)`, [key]))).toBe(
      '55P03',
    );
    expect(Date.now() - held).toBeLessThan(LOCK_WAIT_MS + 3_000);
    await attacker.query('ROLLBACK');
    expect((await b.directory.signIn(SUPERVISOR.id, SUPERVISOR.password)).ok).toBe(true);
  }, 30_000);
});

describe('move_in_operator stores only what main would', () => {
  it('a card number in full-width digits, a bidi override, a card number or a made-up creator: refused', async () => {
    const { center, attacker } = await seededCenter();
    const hash = await hashPassword('whatever pass 1', MIN_COST);
    const move = (name: string, createdBy: string | null) =>
      refused(
        attacker.query(`SELECT operators.move_in_operator('squat', $1, 'agent', 0, $2, 1, $3, NULL)`, [
          name,
          hash,
          createdBy,
        ]),
      );
    const fullWidth = 'Ana ４１１１ １１１１ １１１１ １１１１';
    const bidi = 'Ana \u202Eleve';
    expect(DisplayName.safeParse(fullWidth).success).toBe(false);
    expect(DisplayName.safeParse(bidi).success).toBe(false);
    expect(await move(fullWidth, null)).toBe('22023');
    expect(await move(bidi, null)).toBe('22023');
    expect(await move('Ana \u2066x\u2069', null)).toBe('22023');
    expect(await move('Ana', '4111111111111111')).toBe('22023');
    expect(await move('Ana', 'Root Admin')).toBe('22023');
    expect(await move('Ana López', 'root')).toBe('allowed');
    expect(await center.query(`SELECT display_name, created_by FROM operators.operators WHERE id = 'squat'`)).toEqual([
      { display_name: 'Ana López', created_by: 'root' },
    ]);
  });
});

describe('the center’s directory is set up once, whatever the isolation', () => {
  it('a desk whose REPEATABLE READ snapshot predates the setup makes no second first admin', async () => {
    const center = await newCenter();
    const a = await ownDesk(center);
    const attackerDesk = await ownDesk(center);
    const attacker = await connect(attackerDesk.credential);
    await attacker.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await attacker.query('SELECT count(*) FROM operators.operators');
    await a.directory.createFirstAdmin(ADMIN);
    const hash = await hashPassword('eve password 12', MIN_COST);
    const made = await attacker
      .query<{ o: string }>(`SELECT operators.create_first_admin('eve', 'Eve', $1, NULL) AS o`, [hash])
      .then(
        (result) => result.rows[0]?.o,
        (error: { code?: string }) => error.code,
      );
    await attacker.query('ROLLBACK');
    expect(['40001', '23505', 'setup_done']).toContain(made);
    expect(await center.query(`SELECT id, role, disabled FROM operators.operators ORDER BY id`)).toEqual([
      { id: 'root', role: 'admin', disabled: 0 },
    ]);
  });

  it('a move-in from a snapshot taken while the center was empty fails once another desk has set it up', async () => {
    const center = await newCenter();
    const a = await ownDesk(center);
    const attackerDesk = await ownDesk(center);
    const attacker = await connect(attackerDesk.credential);
    await attacker.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await attacker.query('SELECT count(*) FROM operators.operators');
    await a.directory.createFirstAdmin(ADMIN);
    const hash = await hashPassword('eve password 12', MIN_COST);
    const moved = await refused(
      attacker.query(`SELECT operators.move_in_operator('eve', 'Eve', 'admin', 0, $1, 1, NULL, NULL)`, [hash]),
    );
    await attacker.query('ROLLBACK');
    expect(moved).toBe('40001');
    expect(await center.query(`SELECT id FROM operators.operators ORDER BY id`)).toEqual([{ id: 'root' }]);
  });
});

describe('--check-center names every grant beyond the store’s, and --migrate-center takes it away', () => {
  it('UPDATE (role) and EXECUTE on issue_ticket granted to the app role: problems; after --migrate-center, refused', async () => {
    const { center, a, attacker } = await seededCenter();
    const app = pg.escapeIdentifier(center.roles.app.name);
    await center.query(`GRANT UPDATE (role) ON operators.operators TO ${app}`);
    await center.query(`GRANT EXECUTE ON FUNCTION operators.issue_ticket(text, text, text) TO ${app}`);
    const report = await checkCenter({ ...a.credential, tls: { mode: 'require' } }, [DESKS_STORE, OPERATORS_STORE]);
    expect(report.ok).toBe(false);
    expect(report.lines.find((line) => line.check === 'grants operators.operators')).toMatchObject({
      status: 'problem',
      detail: expect.stringMatching(/may also UPDATE \(of some columns\), which it must not/) as unknown,
    });
    expect(report.lines.find((line) => line.check === 'functions operators')).toMatchObject({
      status: 'problem',
      detail: expect.stringMatching(/may also call operators\.issue_ticket\(text, text, text\)/) as unknown,
    });
    await migrateCenter(center.owner, [DESKS_STORE, OPERATORS_STORE]);
    expect((await checkCenter({ ...a.credential, tls: { mode: 'require' } }, [DESKS_STORE, OPERATORS_STORE])).ok).toBe(
      true,
    );
    expect(await refused(attacker.query(`UPDATE operators.operators SET role = 'admin' WHERE id = 'ana'`))).toBe(
      '42501',
    );
    expect(await refused(attacker.query(`SELECT operators.issue_ticket('sign_in', 'ana', $1)`, [a.deskId]))).toBe(
      '42501',
    );
  });
});

describe('operators.unknown_ids is bounded and keyed by the center’s HMAC', () => {
  it('thousands of made-up ids from one statement keep at most MAX_UNKNOWN_IDS rows; a count untouched for the lock window goes', async () => {
    const { center, attacker } = await seededCenter();
    await attacker.query(
      `SELECT count(*) FROM (SELECT operators.begin_attempt('sign_in', 'junk' || g, 'eA==', NULL)
         FROM generate_series(1, ${MAX_UNKNOWN_IDS + 1500}) g) x`,
    );
    const count = async (): Promise<number> =>
      Number((await center.query<{ n: string }>('SELECT count(*) AS n FROM operators.unknown_ids'))[0]?.n);
    expect(await count()).toBeLessThanOrEqual(MAX_UNKNOWN_IDS);
    expect(
      Number((await center.query<{ n: string }>('SELECT count(*) AS n FROM operators.attempts'))[0]?.n),
    ).toBeLessThanOrEqual(16);
    // Not the plain SHA-256 of the id: the center's HMAC.
    const secret = await centerSecret(center);
    const last = `junk${MAX_UNKNOWN_IDS + 1500}`;
    const keys = (await center.query<{ id_key: string }>('SELECT id_key FROM operators.unknown_ids')).map(
      (r) => r.id_key,
    );
    expect(keys).toContain(createHmac('sha256', secret).update(`id:${last}`).digest('hex'));
    await center.query(`UPDATE operators.unknown_ids SET touched_at = touched_at - ${LOCKOUT_MS + 1}`);
    await begin(attacker, 'sign_in', 'one-more', 'eA==');
    expect(await count()).toBe(1);
  }, 120_000);
});

describe('only a hash of the shape and bounds main reads ever matches', () => {
  it('a stored "$scrypt$x" or a hash without its key matches no key, the empty one included', async () => {
    const { center, attacker } = await seededCenter();
    for (const stored of [
      '$scrypt$x',
      '$scrypt$ln=14,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$',
      '$scrypt$ln=14,r=8,p=1$c2FsdA==$eA==',
    ]) {
      await center.query(`UPDATE operators.operators SET password_hash = $1 WHERE id = 'sam'`, [stored]);
      // Answered as an unknown id's (the center's cost, a salt of its own), so a desk derives as it always does.
      expect((await keyFor(attacker, 'sam', 'x')).params).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}==\$32$/);
      for (const key of ['', 'eA==', stored.split('$')[5] ?? '']) {
        const answer = await compare(attacker, 'sign_in', await begin(attacker, 'sign_in', 'sam', key));
        expect(answer).toMatchObject({ ticket: null });
        expect(answer.outcome).not.toBe('ok');
      }
    }
  });
});

describe('what a desk’s login may reach at all', () => {
  it('no TEMP, no CREATE on any schema, only the listed functions callable; the auditor reads no secret', async () => {
    const { center, attacker } = await seededCenter();
    const privileges = await one<{ temp: boolean; creates: string[] | null }>(
      attacker,
      `SELECT has_database_privilege(current_database(), 'TEMP') AS temp,
              (SELECT array_agg(nspname) FROM pg_namespace WHERE has_schema_privilege(oid, 'CREATE')) AS creates`,
    );
    expect(privileges).toEqual({ temp: false, creates: null });
    const callable = (
      await attacker.query<{ f: string }>(
        `SELECT p.proname || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')' AS f
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'operators' AND has_function_privilege(p.oid, 'EXECUTE') ORDER BY 1`,
      )
    ).rows.map((r) => r.f);
    expect(callable).toEqual([...OPERATOR_FUNCTIONS].sort());
    const auditor = pg.escapeLiteral(center.roles.auditor.name);
    const reads = await center.query<{ t: string; c: string }>(
      `SELECT c.relname AS t, a.attname AS c FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE n.nspname = 'operators' AND has_column_privilege(${auditor}, c.oid, a.attnum, 'SELECT')
          AND (a.attname IN ('password_hash', 'session_id', 'ticket_key', 'attempt_key', 'key_mac', 'secret'))`,
    );
    expect(reads).toEqual([]);
    const auditorFns = await center.query(
      `SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'operators' AND has_function_privilege(${auditor}, p.oid, 'EXECUTE')`,
    );
    expect(auditorFns).toEqual([]);
  });

  it('a ticket is one-use, bound to its desk; two racing open_session calls open one session', async () => {
    const { center, a, attacker } = await seededCenter();
    const b = await ownDesk(center);
    const other = await connect(b.credential);
    const second = await connect(a.credential);
    const attempt = await begin(attacker, 'sign_in', 'ana', (await keyFor(attacker, 'ana', AGENT.password)).key);
    const { ticket } = await compare(attacker, 'sign_in', attempt);
    expect(
      await one(other, `SELECT outcome FROM operators.open_session($1, $2, true, NULL)`, [ticket, 'x'.repeat(40)]),
    ).toEqual({ outcome: 'no_ticket' });
    const results = await Promise.all(
      [attacker, second].map((client, i) =>
        one<{ outcome: string }>(client, `SELECT outcome FROM operators.open_session($1, $2, true, NULL)`, [
          ticket,
          `${i}`.repeat(40),
        ]),
      ),
    );
    expect(results.map((r) => r.outcome).sort()).toEqual(['no_ticket', 'ok']);
    expect(await refused(other.query(`SELECT operators.close_desk_sessions($1)`, [a.deskId]))).toBe('42501');
  });

  it('two desks disabling the two last admins at once: one gets last_admin', async () => {
    const { center, a } = await seededCenter();
    const b = await ownDesk(center);
    await signedIn(a.directory, ADMIN);
    await a.directory.createOperator(ADMIN.id, {
      id: 'boss',
      displayName: 'Boss',
      role: 'admin',
      password: 'boss password 12',
    });
    const rootAtA = a.directory.actingSession(ADMIN.id);
    const bossAtB = await signedIn(b.directory, { id: 'boss', password: 'boss password 12' });
    if (!bossAtB.ok || rootAtA === undefined) throw new Error('no sessions');
    const ca = await connect(a.credential);
    const cb = await connect(b.credential);
    await ca.query('BEGIN');
    expect(await one(ca, `SELECT operators.set_disabled($1, 'boss', true, NULL) AS o`, [rootAtA])).toEqual({ o: 'ok' });
    const pending = one<{ o: string }>(cb, `SELECT operators.set_disabled($1, 'root', true, NULL) AS o`, [
      bossAtB.sessionId,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ca.query('COMMIT');
    expect(await pending).toEqual({ o: 'last_admin' });
  });
});
