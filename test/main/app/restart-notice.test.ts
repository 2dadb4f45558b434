// A restart never hides a payment, through the real door: a payment (or refund) whose answer was lost is completed by
// recover() at the next start; the agent who started it is told so first (a durable notice in the journal), and the door
// refuses a new charge of the reservation (a new refund of the payment) until the operator has acknowledged it.
// The simulator runs in this process and outlives the desk's restarts, as the service would; its faults come through its
// control API. What was sent to the service is read from the journal's own log of every request (its attempts table).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatorConfig, type ConnectedService } from '../../../main/payments';
import { useSimulator } from '../../support/simulator';
import type { Output } from '../../../shared/ipc';
import { AGENT, SUPERVISOR, openDesk, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
const desks: Desk[] = [];

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
});

/** The desk's connection to the simulator, which keeps running across its restarts; a short timeout for the `delay` fault. */
const attached = (): Promise<ConnectedService> =>
  Promise.resolve({
    config: simulatorConfig(sim, 300),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    training: { controlUrl: sim.controlUrl },
    close: () => Promise.resolve(),
  });

async function open(): Promise<Desk> {
  const desk = await openDesk({ connect: attached });
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

type Notice = Output<'payments:recovered'>['notices'][number];

const charge = (methodId: string, acknowledgedPaymentIds: string[]) => ({
  operationId: randomUUID(),
  methodId,
  amountCents: 12_000,
  currency: 'usd',
  reservationId: RESERVATION,
  acknowledgedPaymentIds,
});

/** The fault makes the first charge's answer never reach the desk; what the service did with it differs by kind. */
const PAYMENT_FAULTS: { kind: string; fault: () => Promise<void>; settled?: () => Promise<void> }[] = [
  // The service made the payment; its answer was lost.
  { kind: 'lost answer (drop_after_commit)', fault: () => sim.fault('POST /payments', 'drop_after_commit', 3) },
  // The service takes longer than the desk waits: the first try times out, the others find it still in progress.
  {
    kind: 'timeout (delay)',
    fault: () => sim.fault('POST /payments', 'delay', 1, SLOW_MS),
    settled: () => sleep(SLOW_MS),
  },
  // The service answered 503 on every try: nothing was made until recover() sends it again.
  { kind: '5xx (error_503)', fault: () => sim.fault('POST /payments', 'error_503', 3) },
  // The desk went down before the service saw anything (the journal holds the operation, the service nothing).
  {
    kind: 'crash before the service saw it (drop_before_commit)',
    fault: () => sim.fault('POST /payments', 'drop_before_commit', 3),
  },
];
/** How long the slow service holds the first try (the desk waits 300 ms for each). */
const SLOW_MS = 4_000;

describe.each(PAYMENT_FAULTS)('a payment left unanswered by $kind, then a restart', ({ fault: inject, settled }) => {
  it('is told to its agent first; the agent cannot charge the reservation again until it is acknowledged; one payment at the service', async () => {
    const desk = await open();
    await desk.signIn(AGENT);
    const firstCard = await desk.card(RESERVATION);
    await inject();
    const first = await desk.call('payments:pay', charge(firstCard, []));
    expect(first.ok).toBe(false);
    // The service is done with the first try (a slow one finishes after the desk stopped waiting).
    await settled?.();

    await desk.restart();
    await desk.stack.recover();
    await desk.signIn(AGENT);
    const overview = await desk.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.payments).toHaveLength(1);
    const recovered = overview.payments[0];
    if (recovered === undefined) throw new Error('no payment recovered');

    // The agent keys the card again and charges: refused, in words, naming the charge recover() completed.
    const secondCard = await desk.card(RESERVATION);
    const refused = await desk.refused('payments:pay', charge(secondCard, []));
    expect(refused).toMatchObject({
      code: 'charges_not_acknowledged',
      params: { count: 1, amountCents: 12_000, currency: 'usd' },
    });
    expect(keysSent(desk, 'POST /payments')).toHaveLength(1);
    expect(
      (await desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId: RESERVATION }))
        .payments,
    ).toHaveLength(1);

    // The notice is there for that agent, durable across another restart.
    await desk.restart();
    await desk.signIn(AGENT);
    const { notices } = await desk.ok<Output<'payments:recovered'>>('payments:recovered', {});
    expect(notices).toEqual([
      expect.objectContaining({
        kind: 'payment',
        paymentId: recovered.id,
        reservationId: RESERVATION,
        amountCents: 12_000,
        currency: 'usd',
        status: recovered.status,
      }),
    ]);
    expect(overview.recovered?.map((n: Notice) => n.paymentId)).toEqual([recovered.id]);

    // Acknowledged, the notice is gone; a charge that names the charge seen goes, a second payment by the agent's choice.
    await desk.ok('payments:acknowledgeRecovered', { noticeIds: notices.map((n) => n.id) });
    expect((await desk.ok<Output<'payments:recovered'>>('payments:recovered', {})).notices).toEqual([]);
    const acknowledged = await desk.stack.audit.query({ action: 'payment.acknowledgeRecovered' }, 10);
    expect(acknowledged.map((row) => [row.actor, row.outcome])).toEqual([[AGENT.id, 'ok']]);
    const second = await desk.ok<Output<'payments:pay'>>('payments:pay', charge(secondCard, [recovered.id]));
    expect(second.id).not.toBe(recovered.id);
    expect(keysSent(desk, 'POST /payments')).toHaveLength(2);
  });
});

describe('a refund whose answer was lost, then a restart', () => {
  it('is told to the supervisor; a new refund of the payment is refused until the refunds made are acknowledged', async () => {
    const desk = await open();
    await desk.signIn(AGENT);
    const card = await desk.card(RESERVATION);
    const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', charge(card, []));
    await desk.until(payment.id, (status) => status === 'succeeded');
    await desk.signIn(SUPERVISOR);
    await sim.fault('POST /payments/{id}/refunds', 'drop_after_commit', 3);
    const lost = await desk.call('refunds:create', {
      operationId: randomUUID(),
      paymentId: payment.id,
      amountCents: 2_000,
      reason: 'requested_by_customer',
      acknowledgedRefundIds: [],
    });
    expect(lost.ok).toBe(false);

    await desk.restart();
    await desk.stack.recover();
    await desk.signIn(SUPERVISOR);
    const after = await desk.until(payment.id, () => true);
    expect(after.refunds).toHaveLength(1);
    const refundId = after.refunds[0]?.id ?? '';

    const refused = await desk.refused('refunds:create', {
      operationId: randomUUID(),
      paymentId: payment.id,
      amountCents: 2_000,
      reason: 'requested_by_customer',
      acknowledgedRefundIds: [],
    });
    expect(refused).toMatchObject({
      code: 'refunds_not_acknowledged',
      params: { count: 1, amountCents: 2_000, currency: 'usd' },
    });
    expect(keysSent(desk, 'POST /payments/{id}/refunds')).toHaveLength(1);

    const { notices } = await desk.ok<Output<'payments:recovered'>>('payments:recovered', {});
    expect(notices).toEqual([
      expect.objectContaining({ kind: 'refund', paymentId: payment.id, refundId, amountCents: 2_000, currency: 'usd' }),
    ]);
    await desk.ok('payments:acknowledgeRecovered', { noticeIds: notices.map((n) => n.id) });
    const refunded = await desk.ok<Output<'refunds:create'>>('refunds:create', {
      operationId: randomUUID(),
      paymentId: payment.id,
      amountCents: 2_000,
      reason: 'requested_by_customer',
      acknowledgedRefundIds: [refundId],
    });
    expect(refunded.refunds).toHaveLength(2);
  });
});

describe('an approval of a refund request', () => {
  it('is refused, and the request stays pending, until the refunds made of the payment were shown to the approver', async () => {
    const desk = await open();
    await desk.signIn(AGENT);
    const card = await desk.card(RESERVATION);
    const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', charge(card, []));
    await desk.until(payment.id, (status) => status === 'succeeded');
    const request = await desk.ok<{ id: string }>('refunds:request', {
      requestId: randomUUID(),
      paymentId: payment.id,
      amountCents: 3_000,
      reason: 'cancellation',
    });
    // Meanwhile a supervisor refunds part of it directly.
    await desk.signIn(SUPERVISOR);
    const refunded = await desk.ok<Output<'refunds:create'>>('refunds:create', {
      operationId: randomUUID(),
      paymentId: payment.id,
      amountCents: 2_000,
      reason: 'requested_by_customer',
      acknowledgedRefundIds: [],
    });
    const made = refunded.refunds.map((r) => r.id);
    expect(made).toHaveLength(1);

    expect(await desk.refused('refunds:approve', { requestId: request.id, acknowledgedRefundIds: [] })).toMatchObject({
      code: 'refunds_not_acknowledged',
      params: { count: 1, amountCents: 2_000 },
    });
    const queue = await desk.ok<{ requests: { id: string; status: string }[] }>('refunds:queue', { status: 'all' });
    expect(queue.requests.find((r) => r.id === request.id)?.status).toBe('pending');
    expect(keysSent(desk, 'POST /payments/{id}/refunds')).toHaveLength(1);

    const approved = await desk.ok<Output<'refunds:approve'>>('refunds:approve', {
      requestId: request.id,
      acknowledgedRefundIds: made,
    });
    expect(approved.request.status).toBe('approved');
    expect(approved.payment.refunds).toHaveLength(2);
  });
});

describe('two charges at once', () => {
  it('neither slips past a charge of today that their screens did not show', async () => {
    const desk = await open();
    await desk.signIn(AGENT);
    const first = await desk.ok<Output<'payments:pay'>>('payments:pay', charge(await desk.card(RESERVATION), []));
    await desk.until(first.id, (status) => status === 'succeeded');
    const [one, two] = [await desk.card(RESERVATION), await desk.card(RESERVATION)];
    const answers = await Promise.all([
      desk.call('payments:pay', charge(one, [])),
      desk.call('payments:pay', charge(two, [])),
    ]);
    expect(answers.map((a) => (a.ok ? 'charged' : a.error.code))).toEqual([
      'charges_not_acknowledged',
      'charges_not_acknowledged',
    ]);
    expect(keysSent(desk, 'POST /payments')).toHaveLength(1);
  });
});
