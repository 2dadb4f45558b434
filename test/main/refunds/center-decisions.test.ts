// A refund request's decision is the center's to check: connected with one desk's own login, as an attacker holding
// that desk's credential would with `pg`, no request is written row by row, and the functions take the decider from a
// session open at that desk (or a manager override's ticket the center issued there), never from an argument. Each
// refusal leaves the request as it was; a supervisor's real session at that desk approves, stamped with them and the
// desk. On the center's real PostgreSQL, nothing mocked.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS_STORE, type OperatorDirectory } from '../../../main/operators';
import { REFUND_REQUESTS_STORE, RefundRequests, systemRequestId, type StoredRequest } from '../../../main/refunds';
import { centerStorage, type CenterConnectionOptions, type Storage } from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { STAFF, seatedAt } from './center-operators';

const DESK_A = { deskId: '2c4e6a80-1b3d-4f5a-8c7e-9d0f1a2b3c4d' };
const DESK_B = { deskId: '7e9a1c3e-5f7b-4d9f-8a1c-3e5f7b9d1f3a' };
const CARD = '4242 4242 4242 4242';

let center: TestCenter;
let loginA: CenterConnectionOptions;
let loginB: CenterConnectionOptions;
const opened: Storage[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: [OPERATORS_STORE, REFUND_REQUESTS_STORE] });
  loginA = await center.addDesk(DESK_A);
  loginB = await center.addDesk(DESK_B);
}, 120_000);

afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
  for (const storage of opened.splice(0)) await storage.close();
  await center.query(
    'TRUNCATE refund_requests.requests, operators.operators, operators.sessions, operators.tickets, operators.unknown_ids',
  );
});

afterAll(async () => {
  await center?.drop();
});

/** A desk of the center on its own login, as the app opens it. */
function storageOf(login: CenterConnectionOptions): Storage {
  const storage = centerStorage(login);
  opened.push(storage);
  return storage;
}

/** What an attacker holding the desk's credential types: `pg` on that login. */
async function attackerAs(login: CenterConnectionOptions): Promise<pg.Client> {
  const client = new pg.Client({
    host: login.host,
    port: login.port,
    database: login.database,
    user: login.user,
    password: await login.password(),
  });
  await client.connect();
  clients.push(client);
  return client;
}

/** The SQLSTATE a statement is refused with ('' when it is not). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
    return '';
  } catch (error) {
    return (error as { code?: string }).code ?? 'no code';
  }
}

/** The request's row as the center holds it (read as the superuser). */
async function rowOf(id: string): Promise<Record<string, unknown> | undefined> {
  return (await center.query('SELECT * FROM refund_requests.requests WHERE id = $1', [id]))[0];
}

const asking = (requestedBy: string) => ({
  id: randomUUID(),
  paymentId: `pay_${randomUUID().replaceAll('-', '')}`,
  amountCents: 1_500,
  currency: 'usd' as const,
  reason: 'duplicate' as const,
  note: 'charged twice',
  requestedBy,
  requestedAt: new Date().toISOString(),
});

/** The outcome of one of the decision functions called directly, and the row it answered. */
async function call(client: pg.Client, text: string, values: unknown[]): Promise<{ outcome: string; id: unknown }> {
  const rows = (await client.query<{ outcome: string; id: unknown }>(text, values)).rows;
  expect(rows).toHaveLength(1);
  return rows[0] as { outcome: string; id: unknown };
}
const DECIDE = 'SELECT f.outcome, (f.request).id FROM refund_requests.decide($1, $2, $3, $4, $5) f';
const OVERRIDE = 'SELECT f.outcome, (f.request).id FROM refund_requests.decide_override($1, $2, $3, $4) f';

describe("a refund request's decision on the center, as one desk's own login", () => {
  /** Desk A with Ana (agent), Abe (agent) and Sam (supervisor) signed in; desk B with Sue (supervisor). */
  async function desks(): Promise<{
    a: OperatorDirectory;
    b: OperatorDirectory;
    requestsA: RefundRequests;
    requestsB: RefundRequests;
  }> {
    const storageA = storageOf(loginA);
    const storageB = storageOf(loginB);
    const a = await seatedAt(storageA, DESK_A, ['ana', 'abe', 'sam']);
    const b = await seatedAt(storageB, DESK_B, ['sue']);
    return {
      a,
      b,
      requestsA: await RefundRequests.open(storageA, DESK_A, a),
      requestsB: await RefundRequests.open(storageB, DESK_B, b),
    };
  }

  it('refuses every write of a request row by row, to its own desk too', async () => {
    const { requestsA } = await desks();
    const asked = await requestsA.add(asking('ana'));
    const attacker = await attackerAs(loginA);
    const before = await rowOf(asked.id);
    expect(
      await refusal(
        attacker.query(
          `INSERT INTO refund_requests.requests (id, payment_id, currency, reason, status, requested_by, requested_at, desk_id,
             decided_by, decided_desk_id)
           VALUES ($1, 'pay_forged', 'usd', 'duplicate', 'approved', 'ana', now(), $2, 'sam', $2)`,
          [randomUUID(), DESK_A.deskId],
        ),
      ),
    ).toBe('42501');
    expect(
      await refusal(
        attacker.query(
          `UPDATE refund_requests.requests SET status = 'approved', decided_by = 'sam', decided_at = now(),
             decided_desk_id = $2 WHERE id = $1`,
          [asked.id, DESK_A.deskId],
        ),
      ),
    ).toBe('42501');
    expect(await refusal(attacker.query('DELETE FROM refund_requests.requests WHERE id = $1', [asked.id]))).toBe(
      '42501',
    );
    // Nor through the functions' helpers, which are the owner's alone.
    expect(
      await refusal(
        attacker.query("SELECT * FROM refund_requests.decided($1, 'sam', 'supervisor', 'approved', NULL, false, $2)", [
          asked.id,
          DESK_A.deskId,
        ]),
      ),
    ).toBe('42501');
    expect(await rowOf(asked.id)).toEqual(before);
  });

  it('refuses a decision through any session but an approver’s own at the calling desk, and any used, run-out or other desk’s ticket; a supervisor’s session approves', async () => {
    const { a, b, requestsA } = await desks();
    const byAna = await requestsA.add(asking('ana'));
    const bySam = await requestsA.add(asking('sam'));
    const attacker = await attackerAs(loginA);
    const session = (directory: OperatorDirectory, id: string): string => {
      const found = directory.actingSession(id);
      if (found === undefined) throw new Error(`${id} has no session`);
      return found;
    };
    const samAtA = session(a, 'sam');
    const anaAtA = session(a, 'ana');
    const sueAtB = session(b, 'sue');
    const untouched = async (): Promise<void> => {
      expect(await rowOf(byAna.id)).toEqual(ana);
      expect(await rowOf(bySam.id)).toEqual(sam);
    };
    const ana = await rowOf(byAna.id);
    const sam = await rowOf(bySam.id);
    expect(ana).toMatchObject({ status: 'pending', requested_by: 'ana', desk_id: DESK_A.deskId });

    // A made-up session; another desk's (Sue's, open at desk B); desk B named outright.
    expect(
      await call(attacker, DECIDE, ['made-up-session-id-of-32-characters!', byAna.id, 'approved', null, null]),
    ).toEqual({ outcome: 'forbidden', id: null });
    expect(await call(attacker, DECIDE, [sueAtB, byAna.id, 'approved', null, null])).toEqual({
      outcome: 'forbidden',
      id: null,
    });
    expect(await refusal(attacker.query(DECIDE, [sueAtB, byAna.id, 'approved', null, DESK_B.deskId]))).toBe('42501');
    // The requester's own session (Sam asked), an agent's (Ana's, on Sam's request and on her own).
    expect(await call(attacker, DECIDE, [samAtA, bySam.id, 'approved', null, null])).toEqual({
      outcome: 'same_person',
      id: null,
    });
    expect(await call(attacker, DECIDE, [anaAtA, bySam.id, 'approved', null, null])).toEqual({
      outcome: 'approver_not_allowed',
      id: null,
    });
    expect(await call(attacker, DECIDE, [anaAtA, byAna.id, 'rejected', 'no', null])).toEqual({
      outcome: 'approver_not_allowed',
      id: null,
    });
    // Sam's session while his desk is locked (the idle lock).
    await attacker.query('SELECT operators.mark_session($1, true, NULL)', [samAtA]);
    expect(await call(attacker, DECIDE, [samAtA, byAna.id, 'approved', null, null])).toEqual({
      outcome: 'forbidden',
      id: null,
    });
    await attacker.query('SELECT operators.mark_session($1, false, NULL)', [samAtA]);
    // A rejection whose note holds a card number, however spaced.
    for (const note of [`card ${CARD}`, 'card 4242-4242-4242-4242', 'card\n4242\n4242\n4242\n4242'])
      expect(await refusal(attacker.query(DECIDE, [samAtA, byAna.id, 'rejected', note, null]))).toBe('22023');
    await untouched();

    // Manager override: a made-up ticket; a ticket used up once (by the decision it was for); one run out; one proven at
    // desk B; a real ticket on the screen of someone who is not the requester.
    expect(await call(attacker, OVERRIDE, [anaAtA, 'made-up-ticket', byAna.id, null])).toEqual({
      outcome: 'no_ticket',
      id: null,
    });
    const ticketOf = async (directory: OperatorDirectory): Promise<string> => {
      const proven = await directory.verifyOverride('sue', STAFF.sue.password);
      if (!proven.ok || proven.ticket === undefined) throw new Error('no override ticket');
      return proven.ticket;
    };
    const third = await requestsA.add(asking('ana'));
    const used = await ticketOf(a);
    expect(await call(attacker, OVERRIDE, [anaAtA, used, third.id, null])).toEqual({ outcome: 'ok', id: third.id });
    expect(await rowOf(third.id)).toMatchObject({
      status: 'approved',
      decided_by: 'sue',
      decided_desk_id: DESK_A.deskId,
      override: 1,
    });
    expect(await call(attacker, OVERRIDE, [anaAtA, used, byAna.id, null])).toEqual({ outcome: 'no_ticket', id: null });
    const runOut = await ticketOf(a);
    await center.query("UPDATE operators.tickets SET expires_at = 0 WHERE kind = 'override'");
    expect(await call(attacker, OVERRIDE, [anaAtA, runOut, byAna.id, null])).toEqual({
      outcome: 'no_ticket',
      id: null,
    });
    const atB = await ticketOf(b);
    expect(await call(attacker, OVERRIDE, [anaAtA, atB, byAna.id, null])).toEqual({ outcome: 'no_ticket', id: null });
    const real = await ticketOf(a);
    expect(await call(attacker, OVERRIDE, [session(a, 'abe'), real, byAna.id, null])).toEqual({
      outcome: 'not_found',
      id: null,
    });
    expect(await call(attacker, OVERRIDE, [samAtA, real, byAna.id, null])).toEqual({
      outcome: 'not_found',
      id: null,
    });
    await untouched();

    // Sam's real session at desk A approves Ana's request: stamped with him, the desk and the center's time.
    const started = Date.now();
    expect(await call(attacker, DECIDE, [samAtA, byAna.id, 'approved', null, null])).toEqual({
      outcome: 'ok',
      id: byAna.id,
    });
    const approved = await rowOf(byAna.id);
    expect(approved).toMatchObject({
      status: 'approved',
      requested_by: 'ana',
      decided_by: 'sam',
      decided_desk_id: DESK_A.deskId,
      desk_id: DESK_A.deskId,
      override: 0,
      decision_note: null,
    });
    expect(Math.abs((approved?.['decided_at'] as Date).getTime() - started)).toBeLessThan(60_000);
    // Decided once: another approver is told it is closed.
    expect(await call(attacker, DECIDE, [samAtA, byAna.id, 'rejected', 'too late', null])).toEqual({
      outcome: 'closed',
      id: null,
    });
    expect(await rowOf(byAna.id)).toEqual(approved);
  });

  it('takes the requester from the session, checks what is asked, and lets only the approving desk settle', async () => {
    const { a, requestsA, requestsB } = await desks();
    const attacker = await attackerAs(loginA);
    const anaAtA = a.actingSession('ana');
    const add = 'SELECT f.outcome, (f.request).id FROM refund_requests.add_request($1, $2, $3, $4, $5, $6, $7, $8) f';
    const pay = `pay_${randomUUID().replaceAll('-', '')}`;
    // No session, no request; the session's operator is the requester, whatever the desk sends.
    expect(await call(attacker, add, ['made-up', randomUUID(), pay, 100, 'usd', 'duplicate', null, null])).toEqual({
      outcome: 'forbidden',
      id: null,
    });
    const id = randomUUID();
    expect(await call(attacker, add, [anaAtA, id, pay, 100, 'usd', 'duplicate', null, null])).toEqual({
      outcome: 'ok',
      id,
    });
    expect(await rowOf(id)).toMatchObject({ requested_by: 'ana', desk_id: DESK_A.deskId, status: 'pending' });
    // Amounts are positive whole cents; notes hold no card number; the currency and reason are the app's.
    for (const [amount, currency, reason, note] of [
      [0, 'usd', 'duplicate', null],
      [-500, 'usd', 'duplicate', null],
      [100, 'eur', 'duplicate', null],
      [100, 'usd', 'because', null],
      [100, 'usd', 'duplicate', `guest read ${CARD}`],
      [100, 'usd', 'duplicate', '4242424242424242'],
    ] as const)
      expect(
        await refusal(attacker.query(add, [anaAtA, randomUUID(), pay, amount, currency, reason, note, null])),
        `${amount} ${currency} ${reason} ${note ?? ''}`,
      ).toBe('22023');
    expect(await refusal(attacker.query(add, [anaAtA, randomUUID(), pay, 1.5, 'usd', 'duplicate', null, null]))).toBe(
      '22P02',
    );
    // A note with numbers that are not a card (a phone, a date, an amount, a CLABE) is kept.
    const kept = randomUUID();
    const note = 'Call +52 998 123 4567 on 2026-11-24 about 1,234.50 MXN; CLABE 127180100000000266';
    expect(await call(attacker, add, [anaAtA, kept, pay, 100, 'usd', 'duplicate', note, null])).toEqual({
      outcome: 'ok',
      id: kept,
    });

    // A request the app makes has the id of its origin and payment, once.
    const system =
      'SELECT f.outcome FROM refund_requests.add_system_request($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) f';
    const late = systemRequestId('late_success', pay);
    expect(
      await refusal(
        attacker.query(system, [randomUUID(), pay, 100, 'usd', 'duplicate', 'ana', 'late_success', null, null, null]),
      ),
    ).toBe('22023');
    expect(
      await refusal(
        attacker.query(system, [late, pay, 100, 'usd', 'fraudulent', 'ana', 'late_success', null, null, null]),
      ),
    ).toBe('22023');
    const args = [late, pay, 100, 'usd', 'duplicate', 'ana', 'late_success', null, DESK_B.deskId, null];
    expect((await attacker.query(system, args)).rows).toEqual([{ outcome: 'ok' }]);
    expect((await attacker.query(system, args)).rows).toEqual([{ outcome: 'exists' }]);

    // Desk A's approval is settled by desk A alone, once.
    await requestsA.decide(id, { status: 'approved', by: 'sam', at: new Date().toISOString(), override: false });
    const settle = 'SELECT f.outcome FROM refund_requests.settle($1, $2, $3, $4) f';
    await expect(requestsB.settle(id, { refundId: 're_forged' })).rejects.toThrow(/not_approved/);
    const attackerB = await attackerAs(loginB);
    expect((await attackerB.query(settle, [id, 're_forged', null, null])).rows).toEqual([{ outcome: 'not_approved' }]);
    expect(await refusal(attacker.query(settle, [id, null, `refused: ${CARD}`, null]))).toBe('22023');
    const settled: StoredRequest = await requestsA.settle(id, { refundId: 're_real' });
    expect(settled).toMatchObject({ status: 'approved', refundId: 're_real', decidedBy: 'sam' });
    expect((await attacker.query(settle, [id, 're_other', null, null])).rows).toEqual([{ outcome: 'settled' }]);
    expect((await attacker.query(settle, [id, null, 'it failed', null])).rows).toEqual([{ outcome: 'settled' }]);
    // A pending request is no approval to settle.
    expect((await attacker.query(settle, [kept, 're_x', null, null])).rows).toEqual([{ outcome: 'not_approved' }]);

    // Moving in brings only the calling desk's own requests.
    const moved = {
      id: randomUUID(),
      payment_id: pay,
      amount_cents: 100,
      currency: 'usd',
      reason: 'duplicate',
      note: null,
      status: 'approved',
      requested_by: 'ana',
      requested_at: new Date().toISOString(),
      decided_by: 'sam',
      decided_at: new Date().toISOString(),
      decision_note: null,
      override: 0,
      refund_id: null,
      failure: null,
      desk_id: DESK_B.deskId,
      decided_desk_id: DESK_B.deskId,
    };
    const moveIn = 'SELECT refund_requests.move_in_request($1::jsonb, NULL) AS outcome';
    expect(await refusal(attacker.query(moveIn, [JSON.stringify(moved)]))).toBe('42501');
    expect(
      await refusal(
        attacker.query(moveIn, [JSON.stringify({ ...moved, desk_id: DESK_A.deskId, decided_desk_id: DESK_B.deskId })]),
      ),
    ).toBe('42501');
    expect(
      await refusal(
        attacker.query(moveIn, [
          JSON.stringify({ ...moved, desk_id: DESK_A.deskId, decided_desk_id: DESK_A.deskId, note: CARD }),
        ]),
      ),
    ).toBe('22023');
    expect(await rowOf(moved.id)).toBeUndefined();
    const own = { ...moved, desk_id: DESK_A.deskId, decided_desk_id: DESK_A.deskId };
    expect((await attacker.query(moveIn, [JSON.stringify(own)])).rows).toEqual([{ outcome: 'moved' }]);
    expect((await attacker.query(moveIn, [JSON.stringify(own)])).rows).toEqual([{ outcome: 'same' }]);
  });
});
