// "Abandon and use another card", tried where it could go wrong, through the real door: abandon only leaves the
// payment to expire on the service, so the cardholder can still approve the old 3-D Secure link. Once the desk knows the
// abandoned payment is being charged after all, it is a payment in progress again: no new charge until its outcome,
// the live panel shows it and the balance counts it. The simulator runs in this process with a processing delay long
// enough to see `processing`.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSimulator } from '../../support/simulator';
import type { Output } from '../../../shared/ipc';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';
const sim = useSimulator({ processingDelayMs: 4_000, refundDelayMs: 0 });
let desk: Desk;

beforeEach(async () => {
  desk = await openDesk({ connect: attachedTo(sim) });
  await desk.signIn(AGENT);
});
afterEach(async () => {
  await desk.close();
});

const overview = (reservationId = RESERVATION) =>
  desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId });
async function pay(number: string, amountCents = 20_000, reservationId = RESERVATION): Promise<Output<'payments:pay'>> {
  const methodId = await desk.card(reservationId, number);
  return desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents,
    currency: 'usd',
    reservationId,
  });
}

/** A 3DS payment whose link went out, abandoned by the agent, and then approved by the cardholder on the old link. */
async function abandonedThenApproved(): Promise<Output<'payments:pay'>> {
  const payment = await pay('4000000000003220');
  const sent = await desk.ok<{ status: string; messageId: string }>('messaging:sendLink', {
    paymentId: payment.id,
    channel: 'email',
    destination: 'zoe.anderson@example.com',
    language: 'en-US',
  });
  expect(sent.status).toBe('sent');
  await desk.ok('payments:abandon', { paymentId: payment.id });
  // The guest, still holding the message, approves: the service charges the card (the link was never revoked).
  await desk.ok('messaging:playCardholder', { messageId: sent.messageId, answer: 'approve' });
  await desk.until(payment.id, (s) => s === 'processing');
  return payment;
}

describe('an abandoned payment the cardholder approves after all', () => {
  it('is being charged: a new charge on the reservation is refused until its outcome is known', async () => {
    const old = await abandonedThenApproved();
    const methodId = await desk.card(RESERVATION, '4242424242424242');
    const error = await desk.refused('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 20_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    expect(error).toMatchObject({ code: 'reservation_payment_in_progress', params: { amountCents: old.amountCents } });
  });

  it('is being charged: it is back in the live panel and the balance owed counts it', async () => {
    const old = await abandonedThenApproved();
    const after = await overview();
    expect(after.inProgress?.map((p) => [p.paymentId, p.state])).toEqual([[old.id, 'processing']]);
    expect(after.balance?.owedCents).toBe(78_000);
  });
});

describe('an abandoned payment that goes through after another card paid, on a desk of its own', () => {
  it('is an alert at this desk and one duplicate refund request in the queue, linked to the payment that replaced it', async () => {
    const events: { event: string; payload: unknown }[] = [];
    desk.stack.onEvent((event, payload) => events.push({ event, payload }));
    const old = await pay('4000000000003220');
    const sent = await desk.ok<{ messageId: string }>('messaging:sendLink', {
      paymentId: old.id,
      channel: 'email',
      destination: 'zoe.anderson@example.com',
      language: 'en-US',
    });
    await desk.ok('payments:abandon', { paymentId: old.id });
    const replacement = await pay('4242424242424242');
    await desk.until(replacement.id, (s) => s === 'succeeded');
    await desk.ok('messaging:playCardholder', { messageId: sent.messageId, answer: 'approve' });
    await desk.until(old.id, (s) => s === 'succeeded');
    // Read again: still one alert, one request.
    await desk.ok('payments:get', { paymentId: old.id });
    const alerts = events.filter((e) => e.event === 'payments:lateSuccess').map((e) => e.payload);
    expect(alerts).toEqual([
      expect.objectContaining({
        paymentId: old.id,
        replacementPaymentId: replacement.id,
        amountCents: 20_000,
        abandonedBy: AGENT.id,
      }),
    ]);
    await desk.signIn(SUPERVISOR);
    const queue = await desk.ok<Output<'refunds:queue'>>('refunds:queue', {});
    expect(queue.requests.map((r) => [r.paymentId, r.reason, r.amountCents, r.origin, r.linkedPaymentId])).toEqual([
      [old.id, 'duplicate', 20_000, 'late_success', replacement.id],
    ]);
  });
});

describe('saved cards by consent: main charges again only a card the guest agreed to keep', () => {
  const again = (methodId: string, reservationId = RESERVATION) =>
    desk.call('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 1_000,
      currency: 'usd',
      reservationId,
    });

  it('a card kept without consent, after its one payment went through, is not charged a second time', async () => {
    const methodId = await desk.card(RESERVATION, '4242424242424242');
    const first = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 1_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await desk.until(first.id, (s) => s === 'succeeded');
    expect((await overview()).methods.map((m) => m.id)).not.toContain(methodId);
    const second = await again(methodId);
    expect(second.ok).toBe(false);
  });

  it('a declined card, even kept, is not charged again', async () => {
    const methodId = await desk.card(RESERVATION, '4000000000000002');
    const first = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 1_000,
      currency: 'usd',
      reservationId: RESERVATION,
      keepCard: true,
    });
    await desk.until(first.id, (s) => s === 'failed');
    expect((await overview()).methods.map((m) => m.id)).not.toContain(methodId);
    expect((await again(methodId)).ok).toBe(false);
  });

  it('a card kept for one reservation is not charged on another', async () => {
    const methodId = await desk.card(RESERVATION, '4242424242424242');
    const first = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 1_000,
      currency: 'usd',
      reservationId: RESERVATION,
      keepCard: true,
    });
    await desk.until(first.id, (s) => s === 'succeeded');
    expect((await again(methodId, 'MEX-2H8R5T')).ok).toBe(false);
  });
});

describe('the reservation number as typed', () => {
  it('in other case: the payment in progress still holds the reservation', async () => {
    const first = await pay('4000000000003220');
    const methodId = await desk.card('cun-6b3d8f', '4242424242424242');
    const error = await desk.refused('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 20_000,
      currency: 'usd',
      reservationId: 'cun-6b3d8f',
    });
    expect(error).toMatchObject({
      code: 'reservation_payment_in_progress',
      params: { amountCents: first.amountCents },
    });
  });

  // The journal keys reservations as the lookup does (case, dashes, spaces and dots ignored), but a charge goes only on a
  // number the reservation source knows: "CUN6B3D8F" is refused at the door, and the payment in progress stays the only one.
  it('without its dash: refused as a reservation the source does not know; the payment in progress stays the only one', async () => {
    const first = await pay('4000000000003220');
    const methodId = await desk.card('CUN6B3D8F', '4242424242424242');
    const error = await desk.refused('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 20_000,
      currency: 'usd',
      reservationId: 'CUN6B3D8F',
    });
    expect(error).toMatchObject({ code: 'reservation_unknown', field: 'reservationId' });
    expect((await overview()).payments.map((p) => p.id)).toEqual([first.id]);
  });

  it('in other case between the card and its payment: the guest’s consent keeps the card', async () => {
    const methodId = await desk.card(RESERVATION, '4242424242424242');
    const paid = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 1_000,
      currency: 'usd',
      reservationId: 'cun-6b3d8f',
      keepCard: true,
    });
    await desk.until(paid.id, (s) => s === 'succeeded');
    expect((await overview()).methods.map((m) => m.id)).toContain(methodId);
  });
});
