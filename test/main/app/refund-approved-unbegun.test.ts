// An approval decided but whose refund was never begun (the center went down between the decision and the refund's
// operation, or a refund not shown to the approver refused it there) is taken up again by its approver: the refund sent
// then is the amount the approver confirms now, never 'all that is left' unnamed, and a confirmation of an amount that
// is no longer what is left is refused, nothing refunded. The decision is written here as that moment left it.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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

/** The request decided by the supervisor, as the store holds it when the refund's operation was never written. */
function decidedNeverBegun(requestId: string): void {
  const db = new Database(join(desk.dir, 'refund-requests.db'));
  try {
    const changed = db
      .prepare(
        "UPDATE requests SET status = 'approved', decided_by = ?, decided_at = ?, override = 0 WHERE id = ? AND status = 'pending'",
      )
      .run(SUPERVISOR.id, new Date().toISOString(), requestId);
    expect(changed.changes).toBe(1);
  } finally {
    db.close();
  }
}

const refundsOf = async (paymentId: string): Promise<(number | undefined)[]> =>
  (await desk.ok<Output<'payments:get'>>('payments:get', { paymentId })).refunds.map((r) => r.amountCents);

describe('an approval decided and never begun, taken up again by its approver', () => {
  it('refuses a confirmation of what is no longer left (another refund made meanwhile), nothing refunded, then refunds what it confirms', async () => {
    await desk.signIn(AGENT);
    const paid = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId: await desk.card(RESERVATION),
      amountCents: 12_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await desk.until(paid.id, (status) => status === 'succeeded');
    // All that is left: the request names no amount.
    const request = await desk.ok<{ id: string }>('refunds:request', {
      requestId: randomUUID(),
      paymentId: paid.id,
      reason: 'cancellation',
    });
    await desk.signIn(SUPERVISOR);
    decidedNeverBegun(request.id);
    // Meanwhile a part is refunded directly.
    const part = await desk.ok<Output<'refunds:create'>>('refunds:create', {
      operationId: randomUUID(),
      paymentId: paid.id,
      amountCents: 2_000,
      reason: 'duplicate',
      acknowledgedRefundIds: [],
      expectedAmountCents: 2_000,
    });
    const shown = part.refunds.map((r) => r.id);
    const stale = await desk.refused('refunds:approve', {
      requestId: request.id,
      acknowledgedRefundIds: shown,
      expectedAmountCents: 12_000,
    });
    expect(stale).toMatchObject({
      code: 'refund_amount_changed',
      params: { expectedCents: 12_000, amountCents: 10_000 },
    });
    expect(await refundsOf(paid.id)).toEqual([2_000]);

    const approved = await desk.ok<Output<'refunds:approve'>>('refunds:approve', {
      requestId: request.id,
      acknowledgedRefundIds: shown,
      expectedAmountCents: 10_000,
    });
    expect(approved.payment.refunds.map((r) => r.amountCents)).toEqual([2_000, 10_000]);
  });
});
