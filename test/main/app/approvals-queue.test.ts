// Approving is seeing, through the real door, on the embedded files and on the center's real PostgreSQL: two desks on one
// record of payments and requests (the simulator in this process). The supervisor's queue, read at the other desk, carries
// what approving a request refunds now, its payment, card (brand and last 4), guest and reservation, and who asked and
// decided by name. An approval names the amount the supervisor confirmed: when "all that is left" changed since (a refund
// made meanwhile at another desk), main refuses it and sends nothing, rather than refund another amount than confirmed.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { useSimulator } from '../../support/simulator';
import type { Output } from '../../../shared/ipc';
import { useStoreBackends } from '../../support/backends';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';
const ADMIN = { id: 'ada', password: 'a long password 42' };

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
const desks: Desk[] = [];

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.stack.close().catch(() => undefined);
});

describe.each(useStoreBackends(CENTER_STORES))('the approvals queue on $name', (backend) => {
  /** Desk A (where the agent charges and asks) and desk B (where the supervisor reads the queue), on one record. */
  async function twoDesks(): Promise<{ a: Desk; b: Desk }> {
    const first = await backend.storage();
    const a = await openDesk({ connect: attachedTo(sim) }, { storage: () => first });
    desks.push(a);
    const second = await backend.anotherDesk();
    const b = await openDesk({ connect: attachedTo(sim) }, { storage: () => second, seed: false });
    desks.push(b);
    return { a, b };
  }

  /** The agent charges 120.00 USD with a Visa ending 4242 at desk A and asks for all of it back: the payment and request. */
  async function paidAndAsked(a: Desk): Promise<{ paymentId: string; requestId: string }> {
    await a.signIn(AGENT);
    const card = await a.card(RESERVATION);
    const payment = await a.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId: card,
      amountCents: 12_000,
      currency: 'usd',
      reservationId: RESERVATION,
      acknowledgedPaymentIds: [],
    });
    await a.until(payment.id, (status) => status === 'succeeded');
    const request = await a.ok<{ id: string }>('refunds:request', {
      requestId: randomUUID(),
      paymentId: payment.id,
      reason: 'cancellation',
      note: 'Guest cancelled by phone',
    });
    return { paymentId: payment.id, requestId: request.id };
  }

  /** An admin at desk A refunds part of the payment directly (the refunds shown: all it has). */
  async function refundAtA(a: Desk, paymentId: string, amountCents: number): Promise<string[]> {
    await a.signIn(ADMIN);
    const shown = (await a.ok<Output<'payments:get'>>('payments:get', { paymentId })).refunds.map((r) => r.id);
    const refunded = await a.ok<Output<'refunds:create'>>('refunds:create', {
      operationId: randomUUID(),
      paymentId,
      amountCents,
      reason: 'requested_by_customer',
      acknowledgedRefundIds: shown,
    });
    return refunded.refunds.map((r) => r.id);
  }

  it('shows at the other desk the money an approval refunds now, the payment, card, guest, reservation and who asked', async () => {
    const { a, b } = await twoDesks();
    const { paymentId, requestId } = await paidAndAsked(a);
    // "All that is left" is less than the payment once part of it was refunded.
    const made = await refundAtA(a, paymentId, 2_000);
    await b.signIn(SUPERVISOR);

    const queue = (await b.ok<Output<'refunds:queue'>>('refunds:queue', { status: 'pending' })).requests;
    const item = queue.find((r) => r.id === requestId);
    expect(item).toMatchObject({
      status: 'pending',
      refundCents: 10_000,
      currency: 'usd',
      guestName: 'Zoë Anderson',
      requestedBy: AGENT.id,
      requestedByName: 'Ana',
      note: 'Guest cancelled by phone',
      payment: {
        reservationId: RESERVATION,
        amountCents: 12_000,
        currency: 'usd',
        status: 'succeeded',
        brand: 'visa',
        last4: '4242',
      },
    });
    expect(item?.amountCents).toBeUndefined();
    expect(item?.payment?.refunds.map((r) => r.id)).toEqual(made);
    expect(Date.parse(item?.payment?.createdAt ?? '')).not.toBeNaN();
    expect(Date.parse(item?.requestedAt ?? '')).not.toBeNaN();
    // Brand and last 4, never more of the card.
    expect(JSON.stringify(queue)).not.toContain('424242');
  });

  it('refuses an approval whose confirmed amount is no longer what it would refund, sending nothing; the amount read again is sent', async () => {
    const { a, b } = await twoDesks();
    const { paymentId, requestId } = await paidAndAsked(a);
    await b.signIn(SUPERVISOR);
    // The supervisor reads the queue at desk B: 120.00 USD, all of it.
    await b.ok<Output<'refunds:queue'>>('refunds:queue', { status: 'pending' });

    // Meanwhile another refund goes through at desk A: all that is left is now 90.00, not the 120.00 the supervisor saw.
    const made = await refundAtA(a, paymentId, 3_000);
    const refused = await b.refused('refunds:approve', {
      requestId,
      acknowledgedRefundIds: made,
      expectedAmountCents: 12_000,
    });
    expect(refused).toMatchObject({
      code: 'refund_amount_changed',
      params: { expectedCents: 12_000, amountCents: 9_000, currency: 'usd' },
    });
    expect((await b.ok<Output<'payments:get'>>('payments:get', { paymentId })).refunds).toHaveLength(1);
    const after = (await b.ok<Output<'refunds:queue'>>('refunds:queue', { status: 'all' })).requests.find(
      (r) => r.id === requestId,
    );
    expect(after).toMatchObject({ status: 'pending', refundCents: 9_000 });

    const approved = await b.ok<Output<'refunds:approve'>>('refunds:approve', {
      requestId,
      acknowledgedRefundIds: made,
      expectedAmountCents: 9_000,
    });
    expect(approved.request.status).toBe('approved');
    expect(approved.payment.refunds.map((r) => r.amountCents).sort()).toEqual([3_000, 9_000]);
    expect(approved.payment.refundableCents).toBe(0);
    // Decided, it shows what its refund took, not what is left now (nothing).
    const decided = (await b.ok<Output<'refunds:queue'>>('refunds:queue', { status: 'all' })).requests.find(
      (r) => r.id === requestId,
    );
    expect(decided).toMatchObject({ status: 'approved', refundCents: 9_000, decidedByName: 'Sam' });
  });

  it('shows a rejected request with its note, who rejected it by name, and when', async () => {
    const { a, b } = await twoDesks();
    const { requestId } = await paidAndAsked(a);
    await b.signIn(SUPERVISOR);
    await b.ok('refunds:reject', { requestId, note: 'No cancellation on file; call the hotel first' });

    const item = (await b.ok<Output<'refunds:queue'>>('refunds:queue', { status: 'all' })).requests.find(
      (r) => r.id === requestId,
    );
    expect(item).toMatchObject({
      status: 'rejected',
      decidedBy: SUPERVISOR.id,
      decidedByName: 'Sam',
      decisionNote: 'No cancellation on file; call the hotel first',
    });
    expect(Date.parse(item?.decidedAt ?? '')).not.toBeNaN();
  });
});
