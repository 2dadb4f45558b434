// The service's 24-hour Idempotency-Key window, through the real door (createMainStack + dispatch) against the
// simulator, whose clock is the one its window follows (interface-decisions §4, §5). A key is never sent again once
// the operation may be past that window: ages are taken by the service's own clock (its Date header) as well as the
// desk's, with a margin that covers a whole retry sequence; past it, the operation goes to a supervisor to reconcile.
// The simulator outlives the desk's restarts, as the service would. The keys sent are read from the journal's own record
// of every request (its attempts table); nothing is mocked.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { useSimulator } from '../../support/simulator';
import { AGENT, attachedTo, openDesk, SUPERVISOR, type Desk } from './desk-kit';

const RESERVATION = 'CUN-4J7K9L';
const HOUR_S = 60 * 60;
const DAY_S = 24 * HOUR_S;

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
const desks: Desk[] = [];

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
});

async function desk(): Promise<Desk> {
  const opened = await openDesk({ connect: attachedTo(sim) });
  desks.push(opened);
  return opened;
}

function journal<T>(at: Desk, read: (db: Database.Database) => T): T {
  const db = new Database(join(at.dir, 'journal.db'), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}
const keyOf = (at: Desk, operationId: string): string =>
  journal(
    at,
    (db) => (db.prepare('SELECT key FROM operations WHERE operation_id = ?').get(operationId) as { key: string }).key,
  );
/** How many requests this desk sent with the key (every try, answered or not). */
const sentWith = (at: Desk, key: string): number =>
  journal(
    at,
    (db) => (db.prepare('SELECT count(*) AS n FROM attempts WHERE idempotency_key = ?').get(key) as { n: number }).n,
  );
const stateOf = (at: Desk, operationId: string): string =>
  journal(
    at,
    (db) =>
      (db.prepare('SELECT state FROM operations WHERE operation_id = ?').get(operationId) as { state: string }).state,
  );

/** POST /payments straight to the service with the attempt's key and body, as the service's operator would look it up: the payment id. */
async function replay(at: Desk, key: string, operationId: string): Promise<string> {
  const payload = journal(
    at,
    (db) =>
      JSON.parse(
        (db.prepare('SELECT payload FROM operations WHERE operation_id = ?').get(operationId) as { payload: string })
          .payload,
      ) as unknown,
  );
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: sim.clientId,
    client_secret: sim.clientSecret,
  });
  const { access_token: token } = (await (
    await fetch(`${sim.authUrl}/oauth2/token`, { method: 'POST', body: form })
  ).json()) as { access_token: string };
  const response = await fetch(`${sim.baseUrl}/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(payload),
  });
  expect(response.headers.get('idempotent-replayed')).toBe('true');
  return ((await response.json()) as { id: string }).id;
}

/** An agent's payment of 120.00 MXN whose every answer is lost (the service made it each time it got it). */
async function unansweredPayment(at: Desk): Promise<{ operationId: string; key: string; sent: number }> {
  await at.signIn(AGENT);
  const methodId = await at.card(RESERVATION);
  await sim.fault('POST /payments', 'drop_after_commit', 3);
  const operationId = randomUUID();
  const refused = await at.call('payments:pay', {
    operationId,
    methodId,
    amountCents: 12_000,
    currency: 'mxn',
    reservationId: RESERVATION,
  });
  expect(refused).toMatchObject({ ok: false, error: { code: 'network_error' } });
  const key = keyOf(at, operationId);
  return { operationId, key, sent: sentWith(at, key) };
}

describe("a payment's key past the service's window is never sent again", () => {
  it('the service a day and a minute later (or the desk a day behind): Check again sends nothing and asks for a supervisor', async () => {
    const at = await desk();
    const { operationId, key, sent } = await unansweredPayment(at);
    expect(sent).toBe(3);
    await sim.advanceClock(DAY_S + 60);

    const check = await at.ok<{ state: string }>('payments:checkAgain', { operationId });
    expect(check).toMatchObject({ state: 'reconcile' });
    expect(sentWith(at, key)).toBe(sent);
    expect(stateOf(at, operationId)).toBe('reconcile');
    const overview = await at.ok<{ pendingPayments: { operationId: string; state: string }[] }>(
      'reservations:overview',
      { reservationId: RESERVATION },
    );
    expect(overview.pendingPayments).toEqual([expect.objectContaining({ operationId, state: 'reconcile' })]);
    // It may have charged: the reservation takes no new charge, at any desk, until a supervisor resolves it.
    const methodId = await at.card(RESERVATION, '5555555555554444');
    const next = await at.refused('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 12_000,
      currency: 'mxn',
      reservationId: RESERVATION,
    });
    expect(next).toMatchObject({
      code: 'payment_needs_reconciliation',
      params: { amountCents: 12_000, currency: 'mxn' },
    });
    expect(sentWith(at, key)).toBe(sent);
  });

  it('a supervisor resolves it: an agent may not; "not charged" frees the reservation, and the agent charges again', async () => {
    const at = await desk();
    const { operationId } = await unansweredPayment(at);
    await sim.advanceClock(DAY_S + 60);
    expect(await at.ok('payments:checkAgain', { operationId })).toMatchObject({ state: 'reconcile' });
    expect(await at.refused('payments:resolveAttempt', { operationId, outcome: 'not_charged' })).toMatchObject({
      code: 'forbidden',
    });

    await at.signIn(SUPERVISOR);
    expect(await at.ok('payments:resolveAttempt', { operationId, outcome: 'not_charged' })).toEqual({
      outcome: 'not_charged',
    });
    expect(stateOf(at, operationId)).toBe('abandoned');
    expect(await at.refused('payments:resolveAttempt', { operationId, outcome: 'not_charged' })).toMatchObject({
      code: 'attempt_not_to_reconcile',
    });
    const audit = await at.stack.audit.query({ action: 'payment.reconcile' }, 5);
    expect(
      audit
        .filter((row) => row.outcome === 'ok')
        .map((row) => [row.actor, row.details['operationId'], row.details['outcome']]),
    ).toEqual([[SUPERVISOR.id, operationId, 'not_charged']]);

    await at.signIn(AGENT);
    const methodId = await at.card(RESERVATION, '5555555555554444');
    const next = await at.ok<{ id: string }>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 12_000,
      currency: 'mxn',
      reservationId: RESERVATION,
    });
    expect(next.id).toMatch(/^pay_/);
  });

  it('a supervisor resolves it as charged with the payment the service holds: checked against the attempt, then it is the reservation’s payment', async () => {
    const at = await desk();
    const { operationId, key } = await unansweredPayment(at);
    await sim.advanceClock(23 * HOUR_S + 30 * 60);
    expect(await at.ok('payments:checkAgain', { operationId })).toMatchObject({ state: 'reconcile' });
    // What the supervisor learns from the service: the payment the key made (still inside the service's 24 hours here).
    const made = await replay(at, key, operationId);
    // Another reservation's payment is not this attempt's.
    await at.signIn(AGENT);
    const other = await at.card('CUN-8T1V4W');
    const foreign = await at.ok<{ id: string }>('payments:pay', {
      operationId: randomUUID(),
      methodId: other,
      amountCents: 12_000,
      currency: 'mxn',
      reservationId: 'CUN-8T1V4W',
    });

    await at.signIn(SUPERVISOR);
    expect(
      await at.refused('payments:resolveAttempt', { operationId, outcome: 'charged', paymentId: foreign.id }),
    ).toMatchObject({ code: 'payment_does_not_match' });
    expect(await at.refused('payments:resolveAttempt', { operationId, outcome: 'charged' })).toMatchObject({
      code: 'invalid_input',
    });
    expect(await at.ok('payments:resolveAttempt', { operationId, outcome: 'charged', paymentId: made })).toEqual({
      outcome: 'charged',
      paymentId: made,
    });
    expect(stateOf(at, operationId)).toBe('done');
    const overview = await at.ok<{ payments: { id: string }[]; pendingPayments: unknown[] }>('reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.payments.map((p) => p.id)).toEqual([made]);
    expect(overview.pendingPayments).toEqual([]);
  });

  it('the same after a restart: recovery marks it for reconciliation and sends nothing', async () => {
    const at = await desk();
    const { operationId, key, sent } = await unansweredPayment(at);
    await sim.advanceClock(DAY_S + 60);
    await at.restart();

    const report = await at.stack.recover();
    expect(report).toMatchObject({ resent: [], reconcile: [operationId] });
    expect(sentWith(at, key)).toBe(sent);
    expect(stateOf(at, operationId)).toBe('reconcile');
  });

  it('within the last hour of the window (23 h 30 min by the service’s clock) the key is not sent either: a retry sequence could outlast the window', async () => {
    const at = await desk();
    const { operationId, key, sent } = await unansweredPayment(at);
    await sim.advanceClock(23 * HOUR_S + 30 * 60);
    await sim.fault('POST /payments', 'error_503', 1);

    expect(await at.ok('payments:checkAgain', { operationId })).toMatchObject({ state: 'reconcile' });
    expect(sentWith(at, key)).toBe(sent);
  });

  it('well inside the window (an hour later) the same key is sent again and answers the payment the service made', async () => {
    const at = await desk();
    const { operationId, key, sent } = await unansweredPayment(at);
    await sim.advanceClock(HOUR_S);

    const check = await at.ok<{ state: string; payment?: { id: string } }>('payments:checkAgain', { operationId });
    expect(check).toMatchObject({ state: 'answered', payment: { reservationId: RESERVATION } });
    expect(sentWith(at, key)).toBeGreaterThan(sent);
    expect(stateOf(at, operationId)).toBe('done');
  });
});

describe("a refund's key past the service's window", () => {
  /** A succeeded payment of the reservation, taken by the agent; the supervisor is then signed in. */
  async function succeededPayment(at: Desk, amountCents: number): Promise<string> {
    await at.signIn(AGENT);
    const methodId = await at.card(RESERVATION);
    const payment = await at.ok<{ id: string }>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents,
      currency: 'mxn',
      reservationId: RESERVATION,
    });
    await at.until(payment.id, (status) => status === 'succeeded');
    return payment.id;
  }

  it('a refund whose answer was lost, tried again a day later: nothing sent, refused in words, one refund at most', async () => {
    const at = await desk();
    const paymentId = await succeededPayment(at, 50_000);
    await at.signIn(SUPERVISOR);
    await sim.fault('POST /payments/{id}/refunds', 'drop_after_commit', 3);
    const operationId = randomUUID();
    const refund = { operationId, paymentId, amountCents: 20_000, reason: 'requested_by_customer' };
    expect(await at.call('refunds:create', refund)).toMatchObject({ ok: false, error: { code: 'network_error' } });
    const key = keyOf(at, operationId);
    const sent = sentWith(at, key);
    await sim.advanceClock(DAY_S + 60);

    const again = await at.refused('refunds:create', refund);
    expect(['operation_needs_reconciliation', 'operation_too_old']).toContain(again.code);
    expect(sentWith(at, key)).toBe(sent);
    expect(stateOf(at, operationId)).toBe('reconcile');
  });

  it('a refund resumed later passes the same caps as a new one: an admin demoted to supervisor cannot resume a refund above the supervisor’s cap', async () => {
    const at = await desk();
    const paymentId = await succeededPayment(at, 1_500_000);
    await at.signIn({ id: 'ada', password: 'a long password 42' });
    await sim.fault('POST /payments/{id}/refunds', 'drop_after_commit', 3);
    const operationId = randomUUID();
    // 12,000.00 MXN: an admin has no cap; a supervisor's is 10,000.00 MXN a refund (the default).
    const refund = { operationId, paymentId, amountCents: 1_200_000, reason: 'requested_by_customer' };
    expect(await at.call('refunds:create', refund)).toMatchObject({ ok: false, error: { code: 'network_error' } });
    const key = keyOf(at, operationId);
    const sent = sentWith(at, key);
    await at.stack.directory.createOperator('ada', {
      id: 'root',
      displayName: 'Root',
      role: 'admin',
      password: 'another admin pass 77',
    });
    await at.stack.directory.setRole('root', 'ada', 'supervisor');
    await at.signIn({ id: 'ada', password: 'a long password 42' });

    const resumed = await at.refused('refunds:create', refund);
    expect(resumed).toMatchObject({
      code: 'refund_limit',
      params: { amountCents: 1_200_000, limitCents: 1_000_000, currency: 'mxn', role: 'supervisor' },
    });
    expect(sentWith(at, key)).toBe(sent);
  });
});
