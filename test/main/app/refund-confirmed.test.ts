// A refund moves money only at an amount someone confirmed: the supervisor's approval and their direct refund name it
// (expectedAmountCents) at the door, or main refuses them and sends nothing. A screen that leaves it out (an old or
// compromised one) cannot refund "all that is left" unnamed.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Output } from '../../../shared/ipc';
import { AGENT, openDesk, SUPERVISOR, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';

let desk: Desk;
beforeEach(async () => {
  desk = await openDesk();
});
afterEach(async () => {
  await desk.close();
});

/** The agent charges 120.00 USD and asks for all of it back: the payment and the request. */
async function paidAndAsked(): Promise<{ paymentId: string; requestId: string }> {
  await desk.signIn(AGENT);
  const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId: await desk.card(RESERVATION),
    amountCents: 12_000,
    currency: 'usd',
    reservationId: RESERVATION,
  });
  await desk.until(payment.id, (status) => status === 'succeeded');
  const request = await desk.ok<{ id: string }>('refunds:request', {
    requestId: randomUUID(),
    paymentId: payment.id,
    reason: 'cancellation',
  });
  await desk.signIn(SUPERVISOR);
  return { paymentId: payment.id, requestId: request.id };
}

describe('a refund without the amount its confirmation named', () => {
  it('approving is refused at the door, naming the field; the request stays pending and nothing is refunded', async () => {
    const { paymentId, requestId } = await paidAndAsked();
    const refused = await desk.refused('refunds:approve', {
      requestId,
      acknowledgedRefundIds: [],
      expectedAmountCents: undefined,
    });
    expect(refused).toMatchObject({ code: 'invalid_input', field: 'expectedAmountCents' });
    expect((await desk.ok<Output<'payments:get'>>('payments:get', { paymentId })).refunds).toEqual([]);
    expect(
      (await desk.ok<Output<'refunds:requestsFor'>>('refunds:requestsFor', { paymentId })).requests.map(
        (r) => r.status,
      ),
    ).toEqual(['pending']);

    const approved = await desk.ok<Output<'refunds:approve'>>('refunds:approve', {
      requestId,
      acknowledgedRefundIds: [],
      expectedAmountCents: 12_000,
    });
    expect(approved.payment.refunds.map((r) => r.amountCents)).toEqual([12_000]);
  });

  it('a direct refund is refused at the door, naming the field, and nothing is refunded', async () => {
    const { paymentId } = await paidAndAsked();
    const input = { operationId: randomUUID(), paymentId, reason: 'duplicate', acknowledgedRefundIds: [] };
    expect(await desk.refused('refunds:create', { ...input, expectedAmountCents: undefined })).toMatchObject({
      code: 'invalid_input',
      field: 'expectedAmountCents',
    });
    expect((await desk.ok<Output<'payments:get'>>('payments:get', { paymentId })).refunds).toEqual([]);
  });
});
