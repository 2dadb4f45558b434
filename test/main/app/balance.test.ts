// What a reservation still owes, through the real door: the overview says what the reservation still owes (the source's balance less
// this desk's payments, plus refunds back) and which payment already succeeded today.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Output } from '../../../shared/ipc';
import { AGENT, openDesk, SUPERVISOR, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';
let desk: Desk;
const overview = () =>
  desk.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId: RESERVATION });
const pay = (methodId: string, amountCents: number) =>
  desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents,
    currency: 'usd',
    reservationId: RESERVATION,
  });

beforeAll(async () => {
  desk = await openDesk();
  await desk.signIn(AGENT);
});
afterAll(async () => {
  await desk.close();
});

describe('reservations:overview balance', () => {
  it('starts at the source balance, with nothing charged today', async () => {
    expect((await overview()).balance).toEqual({
      sourceBalanceCents: 98_000,
      takenCents: 0,
      refundedCents: 0,
      reopenedCents: 0,
      owedCents: 98_000,
      overpaidCents: 0,
      closed: false,
      currency: 'usd',
      chargedToday: [],
    });
  });

  it('goes down by a succeeded payment, says it was charged today, and a declined one changes nothing', async () => {
    const paid = await pay(await desk.card(RESERVATION), 30_000);
    await desk.until(paid.id, (s) => s === 'succeeded');
    const declined = await pay(await desk.card(RESERVATION, '4000000000000002'), 50_000);
    await desk.until(declined.id, (s) => s === 'failed');
    const { balance } = await overview();
    expect(balance?.owedCents).toBe(68_000);
    expect(balance?.chargedToday).toHaveLength(1);
    expect(balance?.chargedToday[0]).toMatchObject({ paymentId: paid.id, amountCents: 30_000, currency: 'usd' });
    expect(Number.isNaN(Date.parse(balance?.chargedToday[0]?.at ?? ''))).toBe(false);
  });

  it('goes back up by the refund of a fraudulent charge once it succeeded (shared/payments/refund-effect.ts)', async () => {
    const paymentId = (await overview()).balance?.chargedToday[0]?.paymentId ?? '';
    await desk.signIn(SUPERVISOR);
    await desk.ok('refunds:create', {
      operationId: randomUUID(),
      paymentId,
      amountCents: 10_000,
      reason: 'fraudulent',
    });
    for (let i = 0; i < 50 && (await overview()).balance?.refundedCents !== 10_000; i += 1) {
      await desk.ok('payments:get', { paymentId });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await overview()).balance).toMatchObject({
      takenCents: 30_000,
      refundedCents: 10_000,
      reopenedCents: 10_000,
      owedCents: 78_000,
    });
    await desk.signIn(AGENT);
  });

  it('has no balance for a reservation its source does not know', async () => {
    const result = await desk.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: 'NOPE-000000',
    });
    expect(result.balance).toBeUndefined();
  });
});
