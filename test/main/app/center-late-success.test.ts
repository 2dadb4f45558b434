// A late success is never silent, tried at the seam of a desk that is not running: an abandoned 3-D Secure payment that
// its cardholder approves while the desk that abandoned it is closed, found by another desk of the center. Through the
// real door, on the real PostgreSQL and the simulator in this process.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { answerChallenge } from '../../../main/messaging';
import { ServiceClient, simulatorConfig, TokenManager } from '../../../main/payments';
import { useSimulator } from '../../support/simulator';
import type { EventName, Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from './desk-kit';

// Zoë Anderson (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';
const CHALLENGE_CARD = '4000000000003220';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let center: TestCenter;
const desks: Desk[] = [];

async function openCenterDesk(seed: boolean, dataDir?: string): Promise<Desk> {
  const desk = await openDesk(
    { connect: attachedTo(sim), pollScheduleMs: [200] },
    { center, seed, ...(dataDir === undefined ? {} : { dataDir }) },
  );
  desks.push(desk);
  return desk;
}

/** Every event a desk's windows are sent from now on, in order. */
function eventsOf(desk: Desk): { event: EventName; payload: unknown }[] {
  const events: { event: EventName; payload: unknown }[] = [];
  desk.stack.onEvent((event, payload) => events.push({ event, payload }));
  return events;
}

/** The service as its own client reads it (the cardholder's link is in the payment's next action). */
function tenantClient(): ServiceClient {
  const config = simulatorConfig(sim);
  const tokens = new TokenManager({
    authUrl: config.authUrl,
    clientId: config.clientId,
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    timeoutMs: 5_000,
    fetch,
  });
  return new ServiceClient({ config, tokens, fetch });
}

beforeEach(async () => {
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
}, 120_000);
afterEach(async () => {
  for (const desk of desks.splice(0).reverse()) await desk.close();
  await center.drop();
});

describe('an abandoned payment approved while the desk that abandoned it is closed', () => {
  // The event reaches only the windows open when the request is written (here none: desk A is closed; in the app, main
  // opens its window after recover(), so one found at start reaches none either). The agent who abandoned the payment,
  // and must tell the guest, is told when desk A's workspace opens again: it reads the pending alerts of its desk.
  it('is told at that desk when it starts again and its agent signs in; not at another desk', async () => {
    const a = await openCenterDesk(true);
    const b = await openCenterDesk(false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    const old = await a.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId: await a.card(RESERVATION, CHALLENGE_CARD),
      amountCents: 15_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    expect(old.status).toBe('requires_action');
    await a.ok('payments:abandon', { paymentId: old.id });
    const replacement = await a.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId: await a.card(RESERVATION, '4242424242424242'),
      amountCents: 15_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await a.until(replacement.id, (s) => s === 'succeeded');

    // Desk A is closed for the night; the guest approves the old link; desk B reads the payment.
    const dataDir = a.dir;
    await a.stack.close();
    const link = (await tenantClient().getPayment(old.id)).value.nextAction?.url;
    expect(await answerChallenge(link ?? '', 'approve', { fetch, timeoutMs: 5_000 })).toMatchObject({
      state: 'approved',
    });
    await b.until(old.id, (s) => s === 'succeeded');
    const queue = await b.ok<Output<'refunds:queue'>>('refunds:queue', {});
    expect(queue.requests.filter((r) => r.paymentId === old.id).map((r) => [r.origin, r.linkedPaymentId])).toEqual([
      ['late_success', replacement.id],
    ]);

    // Desk A starts again (its window opens after recover(), as the app's does); the agent signs in: the workspace reads it.
    const again = await openCenterDesk(false, dataDir);
    await again.stack.recover();
    const events = eventsOf(again);
    await again.signIn(AGENT);
    const { alerts } = await again.ok<Output<'payments:lateSuccesses'>>('payments:lateSuccesses', {});
    const [queued] = (await b.ok<Output<'refunds:queue'>>('refunds:queue', {})).requests.filter(
      (r) => r.paymentId === old.id,
    );
    expect(alerts).toEqual([
      {
        paymentId: old.id,
        reservationId: RESERVATION,
        amountCents: 15_000,
        currency: 'usd',
        abandonedBy: AGENT.id,
        replacementPaymentId: replacement.id,
        requestId: queued?.id,
      },
    ]);
    expect(events.filter((e) => e.event === 'payments:lateSuccess')).toEqual([]);
    expect((await b.ok<Output<'payments:lateSuccesses'>>('payments:lateSuccesses', {})).alerts).toEqual([]);
    // Decided by a supervisor, it is no longer an alert.
    await b.ok('refunds:reject', { requestId: queued?.id, note: 'The guest keeps both stays.' });
    expect((await again.ok<Output<'payments:lateSuccesses'>>('payments:lateSuccesses', {})).alerts).toEqual([]);
  });
});
