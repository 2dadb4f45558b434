// A refund never reopens a debt by accident, and the agent who asked for it hears what became of it: two desks on the
// real PostgreSQL center, the simulator in this process, through the real door. The agent at desk A takes a booking's
// whole balance and asks for its cancellation refund; a supervisor at desk B decides it.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { useSimulator } from '../../support/simulator';
import type { EventName, EventPayload, Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from './desk-kit';

// Héctor Ibáñez Salazar, 899.99 MXN (main/reservations/demo.ts).
const RESERVATION = 'PVR-5J1L3M';
const BALANCE_CENTS = 89_999;

// A refund stays pending a moment before it succeeds, as the service's do.
const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 300 });
let center: TestCenter;
const desks: Desk[] = [];

async function openCenterDesk(seed: boolean): Promise<Desk> {
  const desk = await openDesk({ connect: attachedTo(sim), pollScheduleMs: [200] }, { center, seed });
  desks.push(desk);
  return desk;
}

/** Every event a desk's windows are sent from now on, in order. */
function eventsOf(desk: Desk): { event: EventName; payload: unknown }[] {
  const events: { event: EventName; payload: unknown }[] = [];
  desk.stack.onEvent((event, payload) => events.push({ event, payload }));
  return events;
}

/** Waits (at most ~10 s) until `done` holds: what a desk does in the background, never a timed assertion. */
async function eventually(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the condition never held');
}

const outcomes = (events: { event: EventName; payload: unknown }[]) =>
  events.filter((e) => e.event === 'refunds:outcome').map((e) => e.payload as EventPayload<'refunds:outcome'>);

/** Desk A's agent pays the booking in full and asks for a refund of all of it, for `reason`: the payment and the request id. */
async function paidAndAsked(a: Desk, reason: string): Promise<{ paymentId: string; requestId: string }> {
  const methodId = await a.card(RESERVATION);
  const payment = await a.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents: BALANCE_CENTS,
    currency: 'mxn',
    reservationId: RESERVATION,
  });
  await a.until(payment.id, (s) => s === 'succeeded');
  const requestId = randomUUID();
  await a.ok('refunds:request', { requestId, paymentId: payment.id, reason });
  return { paymentId: payment.id, requestId };
}

beforeEach(async () => {
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
}, 120_000);
afterEach(async () => {
  for (const desk of desks.splice(0).reverse()) await desk.close();
  await center.drop();
});

describe('a full cancellation refund approved at another desk', () => {
  it('leaves the booking closed (nothing owed, not reopened), and the requesting agent is told it was approved, then made', async () => {
    const a = await openDesk({ connect: attachedTo(sim), pollScheduleMs: [200] }, { center, seed: true });
    desks.push(a);
    const b = await openCenterDesk(false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    // The agent's screen shows the reservation; the supervisor's the queue.
    await a.ok('live:watch', { queue: false, reservations: [RESERVATION] });
    await b.ok('live:watch', { queue: true, reservations: [] });
    const eventsAtA = eventsOf(a);
    const eventsAtB = eventsOf(b);

    const { paymentId, requestId } = await paidAndAsked(a, 'cancellation');
    const before = await a.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId: RESERVATION });
    expect(before.balance).toMatchObject({ owedCents: 0, overpaidCents: 0, closed: false });

    await b.ok('refunds:approve', { requestId, acknowledgedRefundIds: [] });
    await b.until(paymentId, () => true);
    await eventually(async () =>
      (await a.ok<Output<'payments:get'>>('payments:get', { paymentId })).refunds.some((r) => r.status === 'succeeded'),
    );

    const after = await a.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId: RESERVATION });
    expect(after.balance).toMatchObject({
      owedCents: 0,
      overpaidCents: 0,
      refundedCents: BALANCE_CENTS,
      reopenedCents: 0,
      closed: true,
    });

    await eventually(() => outcomes(eventsAtA).some((o) => o.outcome === 'made'));
    const told = outcomes(eventsAtA);
    expect(told.at(-1)).toEqual({
      requestId,
      paymentId,
      reservationId: RESERVATION,
      outcome: 'made',
      amountCents: BALANCE_CENTS,
      currency: 'mxn',
      reason: 'cancellation',
      requestedBy: AGENT.id,
      decidedBy: SUPERVISOR.id,
    });
    // Approved (the refund on its way) before made, and never rejected or failed.
    expect(told.every((o) => o.outcome === 'approved' || o.outcome === 'made')).toBe(true);
    expect(told.findIndex((o) => o.outcome === 'approved')).toBeLessThan(told.findIndex((o) => o.outcome === 'made'));
    // The supervisor's desk, which did not ask, is not told.
    expect(outcomes(eventsAtB)).toEqual([]);
  });

  it('is told at the desk that asked even when it watches no reservation (the agent moved on to another call)', async () => {
    const a = await openCenterDesk(true);
    const b = await openCenterDesk(false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    const { requestId } = await paidAndAsked(a, 'requested_by_customer');
    // The agent's screen now only waits for word of the requests its agent made.
    const eventsAtA = eventsOf(a);
    // Its feed is listening before the supervisor decides (a change made while it connects is a resync, not a notice).
    await eventually(
      async () =>
        (await a.ok<Output<'live:watch'>>('live:watch', { queue: false, reservations: [], requests: true })).state ===
        'live',
    );

    await b.ok('refunds:reject', { requestId, note: 'La tarifa no es reembolsable.' });
    await eventually(() => outcomes(eventsAtA).length > 0);
    expect(outcomes(eventsAtA)).toEqual([
      expect.objectContaining({
        requestId,
        outcome: 'rejected',
        decisionNote: 'La tarifa no es reembolsable.',
        requestedBy: AGENT.id,
        decidedBy: SUPERVISOR.id,
        reason: 'requested_by_customer',
      }),
    ]);
    // A goodwill refund rejected changes nothing: the booking stays paid.
    const overview = await a.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.balance).toMatchObject({ owedCents: 0, closed: false });
  });
});
