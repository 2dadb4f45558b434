// A restart never hides a payment, tried as someone who wants a second charge through would, through the real door against
// the simulator in this process (it outlives the desk's restarts, as the service would). What was sent to the service is
// read from the journal's own log of every request (its attempts table).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient, simulatorConfig, TokenManager } from '../../../main/payments';
import { useSimulator } from '../../support/simulator';
import type { Output } from '../../../shared/ipc';
import { AGENT, attachedTo, openDesk, SUPERVISOR, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';
const HOUR_S = 60 * 60;

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
const desks: Desk[] = [];

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
});

async function open(): Promise<Desk> {
  const desk = await openDesk({ connect: attachedTo(sim), timeZone: 'UTC' });
  desks.push(desk);
  return desk;
}

/** Every Idempotency-Key the desk ever sent on this operation (its attempts log). */
function keysSent(desk: Desk, operation: string): string[] {
  const db = new Database(join(desk.dir, 'journal.db'), { readonly: true });
  try {
    return (
      db.prepare('SELECT DISTINCT idempotency_key AS key FROM attempts WHERE operation = ?').all(operation) as {
        key: string;
      }[]
    ).map((r) => r.key);
  } finally {
    db.close();
  }
}

/** The journal's row of an operation. */
function operationRow(desk: Desk, operationId: string): { key: string; state: string; payload: string } {
  const db = new Database(join(desk.dir, 'journal.db'), { readonly: true });
  try {
    return db.prepare('SELECT key, state, payload FROM operations WHERE operation_id = ?').get(operationId) as {
      key: string;
      state: string;
      payload: string;
    };
  } finally {
    db.close();
  }
}

/** POST /payments straight to the service with the attempt's key and body, as the service's operator would look it up: the payment id. */
async function replay(desk: Desk, operationId: string): Promise<string> {
  const { key, payload } = operationRow(desk, operationId);
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
    body: payload,
  });
  expect(response.headers.get('idempotent-replayed')).toBe('true');
  return ((await response.json()) as { id: string }).id;
}

const charge = (methodId: string, more: Record<string, unknown> = {}) => ({
  operationId: randomUUID(),
  methodId,
  amountCents: 12_000,
  currency: 'usd',
  reservationId: RESERVATION,
  ...more,
});

describe('a payment recover() completed, stamped on another calendar day than the desk’s', () => {
  // A desk that stops with a payment unanswered in the evening and starts the morning after (or after midnight) completes
  // it at recover() with yesterday's stamp: no charge "of today" by the calendar, yet one its agent never saw. Until its
  // notice is acknowledged it is a charge the screen lists and a new charge must name, whatever its day. The engine's day
  // cannot be moved in a test (it is the database's clock), so the service's clock is moved past the desk's midnight
  // instead: the two days differ the same way.
  it('still refuses the agent’s next charge until its notice was acknowledged: one payment at the service', async () => {
    const desk = await open();
    const nextMidnight = Math.ceil((Date.now() + 1) / (24 * HOUR_S * 1000)) * 24 * HOUR_S * 1000;
    await sim.advanceClock(Math.ceil((nextMidnight - Date.now()) / 1000) + 10 * 60);
    await desk.signIn(AGENT);
    const firstCard = await desk.card(RESERVATION);
    await sim.fault('POST /payments', 'drop_after_commit', 3);
    expect((await desk.call('payments:pay', charge(firstCard, { acknowledgedPaymentIds: [] }))).ok).toBe(false);

    await desk.restart();
    await desk.stack.recover();
    await desk.signIn(AGENT);
    const { notices } = await desk.ok<Output<'payments:recovered'>>('payments:recovered', {});
    expect(notices).toEqual([
      expect.objectContaining({ kind: 'payment', reservationId: RESERVATION, amountCents: 12_000, currency: 'usd' }),
    ]);

    const recovered = notices[0]?.paymentId ?? '';
    await desk.until(recovered, (status) => status === 'succeeded');

    // The notice is not acknowledged; the agent keys another card and charges naming no charge: refused. The card form
    // lists the charge recover() completed among those it shows (the overview's chargedToday), so it can be named.
    const secondCard = await desk.card(RESERVATION);
    const refused = await desk.refused('payments:pay', charge(secondCard, { acknowledgedPaymentIds: [] }));
    expect(refused).toMatchObject({
      code: 'charges_not_acknowledged',
      params: { count: 1, amountCents: 12_000, currency: 'usd' },
    });
    expect(keysSent(desk, 'POST /payments')).toHaveLength(1);
    const overview = await desk.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.chargedToday?.map((c) => c.paymentId)).toEqual([recovered]);
  });
});

describe('a supervisor resolving an attempt past the service’s window as charged', () => {
  // The check compares reservation, amount, currency and card: a guest's kept card charged the same amount twice makes the
  // reservation's earlier payment (already the answer of another attempt) pass it. Resolved with it, the attempt's own
  // payment, made at the service, is never in the journal: the guest paid twice, the desk shows one payment.
  it('is refused with a payment that is already the answer of another attempt of the reservation', async () => {
    const desk = await open();
    await desk.signIn(AGENT);
    const methodId = await desk.card(RESERVATION);
    const first = await desk.ok<Output<'payments:pay'>>('payments:pay', charge(methodId, { keepCard: true }));
    await desk.until(first.id, (status) => status === 'succeeded');
    // The same kept card, the same amount again (the guest owes it), its every answer lost.
    await sim.fault('POST /payments', 'drop_after_commit', 3);
    const operationId = randomUUID();
    expect((await desk.call('payments:pay', { ...charge(methodId), operationId })).ok).toBe(false);
    await sim.advanceClock(23 * HOUR_S + 30 * 60);
    expect(await desk.ok('payments:checkAgain', { operationId })).toMatchObject({ state: 'reconcile' });
    expect(keysSent(desk, 'POST /payments')).toHaveLength(2);

    await desk.signIn(SUPERVISOR);
    const resolved = await desk.refused('payments:resolveAttempt', {
      operationId,
      outcome: 'charged',
      paymentId: first.id,
    });
    expect(resolved).toMatchObject({ code: 'payment_does_not_match' });
  });
});

describe('two supervisors resolving one attempt at once', () => {
  // Each reads the attempt waiting for a supervisor, then writes its word. Only the first written stands; the second is
  // refused, or one supervisor would tell the guest nothing was charged and the other that it was, both audited as done.
  // Here "charged" is still reading its payment at the service (slowly) when "not charged" closes the attempt.
  it('one word stands: the other is refused, and the attempt is as the accepted one said', async () => {
    const desk = await open();
    await desk.signIn(AGENT);
    await sim.fault('POST /payments', 'drop_after_commit', 3);
    const operationId = randomUUID();
    expect((await desk.call('payments:pay', { ...charge(await desk.card(RESERVATION)), operationId })).ok).toBe(false);
    await sim.advanceClock(23 * HOUR_S + 30 * 60);
    expect(await desk.ok('payments:checkAgain', { operationId })).toMatchObject({ state: 'reconcile' });
    const made = await replay(desk, operationId);

    await desk.signIn(SUPERVISOR);
    await sim.fault('GET /payments/{id}', 'delay', 1, 1_500);
    const charged = desk.call('payments:resolveAttempt', { operationId, outcome: 'charged', paymentId: made });
    // The "charged" word is reading the payment at the service when the "not charged" one comes.
    await sleep(300);
    const notCharged = await desk.call('payments:resolveAttempt', { operationId, outcome: 'not_charged' });
    const answers = [await charged, notCharged];
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    const accepted = answers.find((a) => a.ok);
    const state = operationRow(desk, operationId).state;
    expect(state).toBe(
      accepted?.ok === true && (accepted.value as { outcome: string }).outcome === 'charged' ? 'done' : 'abandoned',
    );
  });
});

describe('attacks on the acknowledgement that hold', () => {
  it('another operator cannot acknowledge an agent’s notice; while it stands the charge is listed and must be named by anyone', async () => {
    const desk = await open();
    await desk.stack.directory.createOperator('ada', {
      id: 'otto',
      displayName: 'Otto',
      role: 'agent',
      password: 'other agent pass 1234',
    });
    await desk.signIn(AGENT);
    await sim.fault('POST /payments', 'drop_after_commit', 3);
    expect(
      (await desk.call('payments:pay', charge(await desk.card(RESERVATION), { acknowledgedPaymentIds: [] }))).ok,
    ).toBe(false);
    await desk.restart();
    await desk.stack.recover();
    await desk.signIn(AGENT);
    const [notice] = (await desk.ok<Output<'payments:recovered'>>('payments:recovered', {})).notices;
    if (notice === undefined) throw new Error('no notice');
    await desk.until(notice.paymentId, (status) => status === 'succeeded');

    await desk.signIn({ id: 'otto', password: 'other agent pass 1234' });
    expect(await desk.ok('payments:acknowledgeRecovered', { noticeIds: [notice.id] })).toEqual({ acknowledged: 0 });
    // Ids of another reservation's charges, or made up, name nothing of this one.
    const other = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId: await desk.card('SJD-9W4X1Y'),
      amountCents: 1_000,
      currency: 'usd',
      reservationId: 'SJD-9W4X1Y',
    });
    const card = await desk.card(RESERVATION);
    expect(
      await desk.refused(
        'payments:pay',
        charge(card, { acknowledgedPaymentIds: [other.id, 'pay_00000000000000000000000000000000'] }),
      ),
    ).toMatchObject({ code: 'charges_not_acknowledged' });
    await desk.signIn(AGENT);
    expect((await desk.ok<Output<'payments:recovered'>>('payments:recovered', {})).notices.map((n) => n.id)).toEqual([
      notice.id,
    ]);
    expect(keysSent(desk, 'POST /payments')).toHaveLength(2);
  });

  it('an abandoned payment its cardholder approved is a charge the agent’s next one must name', async () => {
    const desk = await open();
    await desk.signIn(AGENT);
    const old = await desk.ok<Output<'payments:pay'>>(
      'payments:pay',
      charge(await desk.card(RESERVATION, '4000000000003220')),
    );
    const sent = await desk.ok<{ messageId: string }>('messaging:sendLink', {
      paymentId: old.id,
      channel: 'email',
      destination: 'zoe.anderson@example.com',
      language: 'en-US',
    });
    await desk.ok('payments:abandon', { paymentId: old.id });
    await desk.ok('messaging:playCardholder', { messageId: sent.messageId, answer: 'approve' });
    await desk.until(old.id, (status) => status === 'succeeded');
    const card = await desk.card(RESERVATION);
    expect(await desk.refused('payments:pay', charge(card, { acknowledgedPaymentIds: [] }))).toMatchObject({
      code: 'charges_not_acknowledged',
      params: { count: 1 },
    });
    const overview = await desk.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.chargedToday?.map((c) => c.paymentId)).toEqual([old.id]);
  });
});

describe('a confirmation whose answer is lost while the amount changes', () => {
  // After a lost answer the payment is read and the confirmation sent again when it was not applied. Changed meanwhile
  // (another client of the tenant, or a desk whose lease came after this one's expired in a long retry sequence), the
  // payment then holds an amount the agent never saw: sending the confirmation again would charge it.
  it('is not sent again: refused in words, nothing charged, no refund request', async () => {
    const desk = await open();
    await desk.signIn(AGENT);
    // MSI is for a reservation in MXN: José Ángel Muñoz Pérez, 3,600.00 MXN due (main/reservations/demo.ts).
    const methodId = await desk.card('MEX-2H8R5T', '4000004840000008');
    const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 12_000,
      currency: 'mxn',
      reservationId: 'MEX-2H8R5T',
      installments: true,
    });
    expect(payment.status).toBe('pending_confirmation');
    const config = simulatorConfig(sim);
    const tokens = new TokenManager({
      authUrl: config.authUrl,
      clientId: config.clientId,
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      timeoutMs: 5_000,
      fetch,
    });
    const tenant = new ServiceClient({ config, tokens, fetch });
    await tokens.get();

    // Every read of the payment takes 3 s at the service (the desk's follow-up reads too): the read before confirming,
    // and the read after the lost answer.
    await sim.fault('GET /payments/{id}', 'delay', 20, 3_000);
    await sim.fault('POST /payments/{id}/confirmation', 'drop_before_commit', 1);
    const confirming = desk.call('payments:confirm', { paymentId: payment.id, expectedAmountCents: 12_000 });
    // Between the two reads (the first answered, the confirmation lost), another client doubles the amount.
    await sleep(4_500);
    await tenant.updateAmount(payment.id, 240);
    const answer = await confirming;
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'amount_changed', params: { heldCents: 24_000, expectedCents: 12_000 } },
    });
    expect((await tenant.getPayment(payment.id)).value.status).toBe('pending_confirmation');
    await desk.signIn(SUPERVISOR);
    expect((await desk.ok<Output<'refunds:queue'>>('refunds:queue', {})).requests).toEqual([]);
  });
});
