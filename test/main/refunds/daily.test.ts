// Today's refunds of one operator, in the desk's time zone: which refunds count against the daily cap.
import { describe, expect, it } from 'vitest';
import { refundedTodayCents, type RefundHistory } from '../../../main/refunds';

type Refund = ReturnType<RefundHistory['refundsCreatedBetween']>[number];
type Pending = ReturnType<RefundHistory['pendingOperations']>[number];

/** A journal's answers, held in memory (the real Journal is used by the desk tests through the door). */
function history(refunds: Refund[], pending: Pending[] = []): RefundHistory {
  return {
    refundsCreatedBetween: (from, to) => refunds.filter((r) => r.createdAt !== undefined && r.createdAt >= from && r.createdAt < to),
    pendingOperations: () => pending,
    payment: (id) => (id === 'pay_1' ? { amountCents: 80_000, currency: 'usd', refunds: [{ amountCents: 10_000, status: 'succeeded' }] } : undefined),
  };
}
const refund = (createdAt: string, amountCents: number, extra: Partial<Refund> = {}): Refund => ({ amountCents, currency: 'usd', status: 'succeeded', operatorId: 'sam', createdAt, ...extra });

// 01:00 on 23 November in Mexico City (UTC−6); already 07:00 in UTC.
const NOW = Date.parse('2026-11-23T07:00:00Z');

describe('refundedTodayCents', () => {
  it('counts by the desk’s calendar day: 05:30 UTC is still the day before in Mexico City', () => {
    const h = history([refund('2026-11-23T05:30:00Z', 10_000), refund('2026-11-23T06:30:00Z', 2_000)]);
    expect(refundedTodayCents(h, 'sam', 'usd', NOW, 'America/Mexico_City')).toBe(2_000);
    expect(refundedTodayCents(h, 'sam', 'usd', NOW, 'UTC')).toBe(12_000);
  });

  it('counts succeeded and pending refunds of that operator in that currency only', () => {
    const h = history([
      refund('2026-11-23T06:10:00Z', 1_000),
      refund('2026-11-23T06:20:00Z', 2_000, { status: 'pending' }),
      refund('2026-11-23T06:30:00Z', 4_000, { status: 'failed' }),
      refund('2026-11-23T06:40:00Z', 8_000, { operatorId: 'SUE' }),
      refund('2026-11-23T06:50:00Z', 16_000, { currency: 'mxn' }),
      refund('2026-11-23T06:55:00Z', 32_000, { operatorId: 'SAM' }),
    ]);
    expect(refundedTodayCents(h, 'sam', 'usd', NOW, 'America/Mexico_City')).toBe(35_000);
    expect(refundedTodayCents(h, 'sue', 'usd', NOW, 'America/Mexico_City')).toBe(8_000);
  });

  it('counts a refund sent and not answered yet, begun today: its amount, or (none given) what the payment had left', () => {
    const op = (createdAt: number, payload: unknown): Pending => ({ operationId: `op-${createdAt}`, kind: 'refund', operatorId: 'sam', paymentId: 'pay_1', payload, createdAt });
    const h = history([], [
      op(NOW - 60_000, { amount: 12.5, reason: 'duplicate' }),
      op(NOW - 120_000, { reason: 'duplicate' }),
      // Begun yesterday (desk time): not today's.
      op(NOW - 2 * 3_600_000, { amount: 99 }),
      { ...op(NOW, { amount: 1 }), kind: 'create_payment' },
    ]);
    expect(refundedTodayCents(h, 'sam', 'usd', NOW, 'America/Mexico_City')).toBe(1_250 + 70_000);
    expect(refundedTodayCents(h, 'sam', 'mxn', NOW, 'America/Mexico_City')).toBe(0);
  });
});
