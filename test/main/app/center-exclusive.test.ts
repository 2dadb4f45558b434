// Two desks of one center on one payment, through the real door, on the real PostgreSQL and the simulator in this
// process: an amount update and a confirmation of one MSI payment are one at a time across the center; a confirmation
// the service answers with another amount is an error in words and a refund request for the difference; an abandoned
// 3-D Secure payment approved later by its cardholder is an alert at the desk that abandoned it and one `duplicate`
// refund request in the supervisors' queue, linked to the payment that replaced it.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { ServiceClient, simulatorConfig, TokenManager } from '../../../main/payments';
import { useSimulator, type SimulatorFault } from '../../support/simulator';
import type { EventName, Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from './desk-kit';

// Zoë Anderson (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';
/** MSI is for a reservation in MXN: Valeria Ruiz Esparza, 128,900.00 MXN due (main/reservations/demo.ts). */
const MSI_RESERVATION = 'CUN-4J7K9L';
const MSI_CARD = '4000004840000008';
const CHALLENGE_CARD = '4000000000003220';

interface Sent {
  desk: string;
  method: string;
  path: string;
}

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let center: TestCenter;
const desks: Desk[] = [];
const sent: Sent[] = [];

const observed =
  (desk: string): typeof fetch =>
  (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.pathname.includes('/payments')) sent.push({ desk, method: request.method, path: url.pathname });
    return fetch(input, init);
  };

async function openCenterDesk(name: string, seed: boolean): Promise<Desk> {
  const desk = await openDesk(
    { connect: attachedTo(sim), fetch: observed(name), pollScheduleMs: [200] },
    { center, seed },
  );
  desks.push(desk);
  return desk;
}

/** Every event a desk's windows are sent, in order. */
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

const fault = (operation: string, kind: SimulatorFault, delayMs?: number) => sim.fault(operation, kind, 1, delayMs);

/** Another client of the same tenant, talking to the service directly (an older desk, a script): the desks cannot stop it. */
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

async function msiPayment(desk: Desk, amountCents: number): Promise<Output<'payments:pay'>> {
  const methodId = await desk.card(MSI_RESERVATION, MSI_CARD);
  const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents,
    currency: 'mxn',
    reservationId: MSI_RESERVATION,
    installments: true,
  });
  expect(payment.status).toBe('pending_confirmation');
  return payment;
}

beforeEach(async () => {
  sent.length = 0;
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
}, 120_000);
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
  await center.drop();
});

describe('one desk at a time on a payment', () => {
  it('A updates the amount of an MSI payment while B confirms it: one goes on, the other is refused naming who holds it, and no amount nobody saw is charged', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    const payment = await msiPayment(a, 1_245_000);

    // A's update is on the wire (the service answers it 1.5 s later) when B confirms what B's screen shows.
    await fault('PATCH /payments/{id}', 'delay', 1_500);
    const update = a.call('payments:updateAmount', { paymentId: payment.id, amountCents: 2_490_000 });
    await eventually(() => sent.some((s) => s.desk === 'A' && s.method === 'PATCH'));
    const atB = await b.refused('payments:confirm', {
      paymentId: payment.id,
      installmentsCount: 3,
      expectedAmountCents: 1_245_000,
    });
    expect(atB).toMatchObject({ code: 'payment_change_in_progress', params: { operatorId: AGENT.id } });
    expect(sent.filter((s) => s.method === 'POST' && s.path.endsWith('/confirmation'))).toEqual([]);

    const updated = await update;
    expect(updated.ok && updated.value).toMatchObject({ amountCents: 2_490_000, status: 'pending_confirmation' });
    // B, confirming what its screen still shows, is told the new amount; once seen, it confirms.
    expect(
      await b.refused('payments:confirm', {
        paymentId: payment.id,
        installmentsCount: 3,
        expectedAmountCents: 1_245_000,
      }),
    ).toMatchObject({ code: 'amount_changed' });
    const confirmed = await b.ok<Output<'payments:confirm'>>('payments:confirm', {
      paymentId: payment.id,
      installmentsCount: 3,
      expectedAmountCents: 2_490_000,
    });
    expect(confirmed.amountCents).toBe(2_490_000);
  });

  it('a change is refused only while another desk holds the payment: once its change is over, the payment is free again', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    const payment = await msiPayment(a, 1_245_000);
    await a.ok('payments:updateAmount', { paymentId: payment.id, amountCents: 1_300_000 });
    await b.ok('payments:updateAmount', { paymentId: payment.id, amountCents: 1_400_000 });
    const confirmed = await a.ok<Output<'payments:confirm'>>('payments:confirm', {
      paymentId: payment.id,
      installmentsCount: 3,
      expectedAmountCents: 1_400_000,
    });
    expect(confirmed.amountCents).toBe(1_400_000);
  });

  it('the service answers a confirmation with another amount: the door says so with both amounts, and one refund request for the difference is in the queue', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    const payment = await msiPayment(a, 1_245_000);

    // Between A's read and its confirmation, another client of the tenant changes the amount at the service.
    await fault('POST /payments/{id}/confirmation', 'delay', 1_500);
    const confirm = a.call('payments:confirm', {
      paymentId: payment.id,
      installmentsCount: 3,
      expectedAmountCents: 1_245_000,
    });
    await eventually(() => sent.some((s) => s.desk === 'A' && s.method === 'POST' && s.path.endsWith('/confirmation')));
    await tenantClient().updateAmount(payment.id, 24_900);
    const answer = await confirm;
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error).toMatchObject({
      code: 'confirmed_amount_differs',
      params: { expectedCents: 1_245_000, chargedCents: 2_490_000, currency: 'mxn' },
    });

    // B reads the payment too: still one request.
    await b.ok('payments:get', { paymentId: payment.id });
    await a.ok('payments:get', { paymentId: payment.id });
    const queue = await b.ok<Output<'refunds:queue'>>('refunds:queue', {});
    const requests = queue.requests.filter((r) => r.paymentId === payment.id);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      amountCents: 1_245_000,
      currency: 'mxn',
      reason: 'requested_by_customer',
      status: 'pending',
      origin: 'confirmed_amount_differs',
    });
  });
});

describe('a late success is never silent', () => {
  it('an abandoned 3DS payment the guest approves after another card paid: an alert at the abandoning desk and one duplicate request linked to the new payment, however many desks read it', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    const eventsAtA = eventsOf(a);
    // The agent's screen watches the reservation; the supervisor's the queue.
    await a.ok('live:watch', { queue: false, reservations: [RESERVATION] });
    await b.ok('live:watch', { queue: true, reservations: [] });

    const challengeMethod = await a.card(RESERVATION, CHALLENGE_CARD);
    const old = await a.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId: challengeMethod,
      amountCents: 20_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    expect(old.status).toBe('requires_action');
    const link = await a.ok<{ messageId: string }>('messaging:sendLink', {
      paymentId: old.id,
      channel: 'email',
      destination: 'zoe.anderson@example.com',
      language: 'en-US',
    });
    await a.ok('payments:abandon', { paymentId: old.id });
    const methodId = await a.card(RESERVATION, '4242424242424242');
    const replacement = await a.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 20_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await a.until(replacement.id, (s) => s === 'succeeded');

    // The guest approves the old link: the service charges it (it has no cancel). Both desks read it at once.
    await a.ok('messaging:playCardholder', { messageId: link.messageId, answer: 'approve' });
    await Promise.all([a.until(old.id, (s) => s === 'succeeded'), b.until(old.id, (s) => s === 'succeeded')]);

    await eventually(() => eventsAtA.some((e) => e.event === 'payments:lateSuccess'));
    const alerts = eventsAtA.filter((e) => e.event === 'payments:lateSuccess');
    expect(alerts[0]?.payload).toMatchObject({
      paymentId: old.id,
      replacementPaymentId: replacement.id,
      amountCents: 20_000,
      currency: 'usd',
      abandonedBy: AGENT.id,
    });

    const queue = await b.ok<Output<'refunds:queue'>>('refunds:queue', {});
    const requests = queue.requests.filter((r) => r.paymentId === old.id);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      reason: 'duplicate',
      amountCents: 20_000,
      currency: 'usd',
      status: 'pending',
      origin: 'late_success',
      linkedPaymentId: replacement.id,
    });
  });

  it('abandoned at one desk, found succeeded by another: the desk that abandoned it is alerted through the center, and only it', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    const eventsAtA = eventsOf(a);
    const eventsAtB = eventsOf(b);
    // B's screen shows the queue only: B never reads the payment again; A, which took it, follows it.
    await b.ok('live:watch', { queue: true, reservations: [] });

    const challengeMethod = await a.card(RESERVATION, CHALLENGE_CARD);
    const old = await a.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId: challengeMethod,
      amountCents: 15_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    const link = await a.ok<{ messageId: string }>('messaging:sendLink', {
      paymentId: old.id,
      channel: 'email',
      destination: 'zoe.anderson@example.com',
      language: 'en-US',
    });
    await b.ok('payments:abandon', { paymentId: old.id });
    const methodId = await a.card(RESERVATION, '4242424242424242');
    const replacement = await a.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 15_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await a.until(replacement.id, (s) => s === 'succeeded');

    await a.ok('messaging:playCardholder', { messageId: link.messageId, answer: 'approve' });
    await eventually(() => eventsAtB.some((e) => e.event === 'payments:lateSuccess'));
    expect(eventsAtB.filter((e) => e.event === 'payments:lateSuccess').map((e) => e.payload)).toEqual([
      expect.objectContaining({ paymentId: old.id, replacementPaymentId: replacement.id, abandonedBy: SUPERVISOR.id }),
    ]);
    expect(eventsAtA.filter((e) => e.event === 'payments:lateSuccess')).toEqual([]);
    const queue = await b.ok<Output<'refunds:queue'>>('refunds:queue', {});
    // Written by A, which found it succeeded: B learnt of it only through the center.
    const deskA = (await a.ok<{ deskId: string }>('app:info', {})).deskId;
    expect(
      queue.requests.filter((r) => r.paymentId === old.id).map((r) => [r.reason, r.linkedPaymentId, r.deskId]),
    ).toEqual([['duplicate', replacement.id, deskA]]);
  });
});
