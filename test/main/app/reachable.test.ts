// A payment's card after the desk was closed and opened again, through the real door: main's view of a payment names its
// card's brand and last 4 from the journal (kept or not), wherever the payment is read (payments:get, the reservation's
// overview, the events), so a 3-D Secure result read again after a restart still says which card paid. An attempt whose
// answer was lost says how long ago it was sent, by main's clock.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '../../../main/payments/client';
import { useSimulator } from '../../support/simulator';
import type { Output } from '../../../shared/ipc';
import { AGENT, attachedTo, openDesk, type Desk } from './desk-kit';

// The simulator outlives the desk's restart, as the service would.
const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 }, { resetAfterEach: false });
let desk: Desk;

beforeAll(async () => {
  desk = await openDesk({ connect: attachedTo(sim) });
  await desk.signIn(AGENT);
});
afterAll(async () => {
  await desk.close();
});

describe('a payment’s card in main’s view', () => {
  it('a 3-D Secure payment approved by the cardholder names its card when read again after a restart, in payments:get and the overview', async () => {
    const reservationId = 'SJD-3B7N1C';
    const methodId = await desk.card(reservationId, '4000000000003220');
    const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 50_000,
      currency: 'usd',
      reservationId,
      acknowledgedPaymentIds: [],
    });
    expect(payment.status).toBe('requires_action');
    const sent = await desk.ok<{ messageId: string }>('messaging:sendLink', {
      paymentId: payment.id,
      channel: 'email',
      destination: 'emily@example.com',
      language: 'en-US',
    });
    await desk.ok('messaging:playCardholder', { messageId: sent.messageId, answer: 'approve' });
    await desk.until(payment.id, (s) => s === 'succeeded');

    await desk.restart();
    await desk.signIn(AGENT);
    const read = await desk.ok<Output<'payments:get'>>('payments:get', { paymentId: payment.id });
    expect(read).toMatchObject({ status: 'succeeded', brand: 'visa', last4: '3220' });
    const overview = await desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId });
    expect(overview.payments.find((p) => p.id === payment.id)).toMatchObject({ brand: 'visa', last4: '3220' });
    // Never more of the card than brand and last 4.
    expect(JSON.stringify([read, overview])).not.toContain('4000000000003220');
  });

  it('an attempt whose answer was lost says its age by main’s clock', async () => {
    const reservationId = 'CUN-6B3D8F';
    const before = Date.now();
    const methodId = await desk.card(reservationId, '4242424242424242');
    await sim.fault('POST /payments', 'drop_after_commit', MAX_ATTEMPTS);
    const refused = await desk.refused('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 10_000,
      currency: 'usd',
      reservationId,
      acknowledgedPaymentIds: [],
    });
    expect(refused.code).toBe('network_error');
    const overview = await desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId });
    const [attempt] = overview.pendingPayments;
    expect(attempt).toMatchObject({ state: 'unanswered', brand: 'visa', last4: '4242' });
    expect(attempt?.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(attempt?.ageSeconds).toBeLessThanOrEqual(Math.ceil((Date.now() - before) / 1000));
  });
});
