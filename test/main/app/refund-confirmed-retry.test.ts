// A refund confirmed at its amount and then unanswered is sent again with the same key and the same amount when the
// supervisor tries again: the approval of "all that is left", and a direct refund of all that is left, each refund once.
// The simulator runs in this process; its fault (simulator.md, POST /faults) loses the answer after the service acted.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Output } from '../../../shared/ipc';
import { useSimulator } from '../../support/simulator';
import { AGENT, attachedTo, openDesk, SUPERVISOR, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let desk: Desk;
beforeEach(async () => {
  desk = await openDesk({ connect: attachedTo(sim) });
});
afterEach(async () => {
  await desk.close();
});

async function paid(): Promise<string> {
  await desk.signIn(AGENT);
  const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId: await desk.card(RESERVATION),
    amountCents: 12_000,
    currency: 'usd',
    reservationId: RESERVATION,
  });
  await desk.until(payment.id, (status) => status === 'succeeded');
  return payment.id;
}

const refundsOf = async (paymentId: string): Promise<(number | undefined)[]> =>
  (await desk.ok<Output<'payments:get'>>('payments:get', { paymentId })).refunds.map((r) => r.amountCents);

describe('a confirmed refund whose answer was lost', () => {
  it('approved again, the request of all that is left refunds once, at the amount confirmed', async () => {
    const paymentId = await paid();
    const request = await desk.ok<{ id: string }>('refunds:request', {
      requestId: randomUUID(),
      paymentId,
      reason: 'cancellation',
    });
    await desk.signIn(SUPERVISOR);
    await sim.fault('POST /payments/{id}/refunds', 'drop_after_commit', 3);
    const approve = { requestId: request.id, acknowledgedRefundIds: [], expectedAmountCents: 12_000 };
    expect(await desk.call('refunds:approve', approve)).toMatchObject({ ok: false, error: { code: 'network_error' } });
    const again = await desk.ok<Output<'refunds:approve'>>('refunds:approve', approve);
    expect(again.payment.refunds.map((r) => r.amountCents)).toEqual([12_000]);
    expect(await refundsOf(paymentId)).toEqual([12_000]);
  });

  it('sent again, a direct refund of all that is left refunds once, at the amount confirmed', async () => {
    const paymentId = await paid();
    await desk.signIn(SUPERVISOR);
    await sim.fault('POST /payments/{id}/refunds', 'drop_after_commit', 3);
    const refund = {
      operationId: randomUUID(),
      paymentId,
      reason: 'duplicate',
      acknowledgedRefundIds: [],
      expectedAmountCents: 12_000,
    };
    expect(await desk.call('refunds:create', refund)).toMatchObject({ ok: false, error: { code: 'network_error' } });
    const again = await desk.ok<Output<'refunds:create'>>('refunds:create', refund);
    expect(again.refunds.map((r) => r.amountCents)).toEqual([12_000]);
    expect(await refundsOf(paymentId)).toEqual([12_000]);
  });
});
