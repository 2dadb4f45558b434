// Today's refunds of one operator, in the desk's time zone: which refunds count against the daily cap.
import { describe, expect, it } from 'vitest';
import {
  refundedTodayCents,
  type RefundedPayment,
  type RefundHistory,
  type RefundOperationRecord,
} from '../../../main/refunds';

type Payment = Omit<RefundedPayment, 'id'>;
type Refund = Payment['refunds'][number];

/** A journal's answers, held in memory (the real Journal is used by the desk tests through the door). */
function history(
  ops: RefundOperationRecord[],
  payments: Record<string, Payment> = {},
  reads: string[][] = [],
): RefundHistory {
  return {
    refundOperationsBegunBetween: (from, to) =>
      Promise.resolve(ops.filter((op) => op.createdAt >= from && op.createdAt < to)),
    payments: (ids) => {
      reads.push([...ids]);
      return Promise.resolve(ids.flatMap((id) => (payments[id] === undefined ? [] : [{ id, ...payments[id] }])));
    },
  };
}

// 01:00 on 23 November in Mexico City (UTC−6); already 07:00 in UTC.
const NOW = Date.parse('2026-11-23T07:00:00Z');
let next = 0;
/** A refund operation Sam began on pay_1 (USD) at `createdAt`, answered with refund `resultId` when given. */
const op = (createdAt: number, extra: Partial<RefundOperationRecord> = {}): RefundOperationRecord => ({
  operatorId: 'sam',
  state: 'done',
  paymentId: 'pay_1',
  payload: { reason: 'duplicate' },
  resultId: `ref_${++next}`,
  createdAt,
  ...extra,
});
/** A refund the journal holds; `whose` null when the service listed it without the desk knowing whose it is. */
const refund = (
  id: string | undefined,
  amountCents: number | undefined,
  status = 'succeeded',
  whose: string | null = 'sam',
): Refund => ({
  id: id ?? '',
  amountCents,
  status,
  operatorId: whose ?? undefined,
});

describe('refundedTodayCents', () => {
  it('reads the payments of the day’s refunds in one go, however many the operator made (an approval reads it twice)', async () => {
    const ops = Array.from({ length: 30 }, (_, i) =>
      op(NOW - 60_000 * (i + 1), { paymentId: `pay_${i % 10}`, resultId: `ref_many_${i}` }),
    );
    const payments = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [
        `pay_${i}`,
        {
          amountCents: 100_000,
          currency: 'usd',
          refunds: [0, 1, 2].map((k) => refund(`ref_many_${i + 10 * k}`, 1_000)),
        },
      ]),
    );
    const reads: string[][] = [];
    expect(await refundedTodayCents(history(ops, payments, reads), 'sam', 'usd', NOW, 'UTC')).toBe(30_000);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.sort()).toEqual(Object.keys(payments).sort());
  });

  it('counts by the desk’s calendar day and its own clock: 05:30 UTC is still the day before in Mexico City', async () => {
    const a = op(Date.parse('2026-11-23T05:30:00Z'));
    const b = op(Date.parse('2026-11-23T06:30:00Z'));
    const h = history([a, b], {
      pay_1: { amountCents: 90_000, currency: 'usd', refunds: [refund(a.resultId, 10_000), refund(b.resultId, 2_000)] },
    });
    expect(await refundedTodayCents(h, 'sam', 'usd', NOW, 'America/Mexico_City')).toBe(2_000);
    expect(await refundedTodayCents(h, 'sam', 'usd', NOW, 'UTC')).toBe(12_000);
  });

  it('counts refunds that succeeded, are pending, or are in a status this app does not know; not failed or canceled ones, nor operations refused for good', async () => {
    const ops = [
      op(NOW - 1000),
      op(NOW - 2000),
      op(NOW - 3000),
      op(NOW - 4000),
      op(NOW - 5000),
      op(NOW - 6000, { state: 'failed', resultId: undefined, payload: { amount: 640, reason: 'duplicate' } }),
    ];
    const statuses = ['succeeded', 'pending', 'processing', 'failed', 'canceled'];
    const h = history(ops, {
      pay_1: {
        amountCents: 900_000,
        currency: 'usd',
        refunds: statuses.map((status, i) => refund(ops[i]?.resultId, 1_000 * 2 ** i, status)),
      },
    });
    expect(await refundedTodayCents(h, 'sam', 'usd', NOW, 'America/Mexico_City')).toBe(1_000 + 2_000 + 4_000);
  });

  it('counts that operator’s refunds (in any case of the id) in that currency only', async () => {
    const mine = op(NOW - 1000, { operatorId: 'SAM' });
    const sues = op(NOW - 2000, { operatorId: 'sue' });
    const pesos = op(NOW - 3000, { paymentId: 'pay_2' });
    const h = history([mine, sues, pesos], {
      pay_1: {
        amountCents: 90_000,
        currency: 'usd',
        refunds: [refund(mine.resultId, 1_000), refund(sues.resultId, 2_000, 'succeeded', 'sue')],
      },
      pay_2: { amountCents: 90_000, currency: 'mxn', refunds: [refund(pesos.resultId, 4_000)] },
    });
    expect(await refundedTodayCents(h, 'sam', 'usd', NOW, 'America/Mexico_City')).toBe(1_000);
    expect(await refundedTodayCents(h, 'sue', 'usd', NOW, 'America/Mexico_City')).toBe(2_000);
    expect(await refundedTodayCents(h, 'sam', 'mxn', NOW, 'America/Mexico_City')).toBe(4_000);
  });

  it('counts a refund sent and not answered yet: its amount, or (none given) what the payment had left before it', async () => {
    const earlier = op(NOW - 600_000, { payload: { amount: 100, reason: 'duplicate' } });
    const withAmount = op(NOW - 60_000, {
      state: 'pending',
      resultId: undefined,
      payload: { amount: 12.5, reason: 'duplicate' },
    });
    const allLeft = op(NOW - 120_000, { state: 'pending', resultId: undefined });
    const h = history([earlier, withAmount, allLeft], {
      // 800.00: 100.00 refunded by this desk; a 700.00 refund the service lists without knowing whose it is (the
      // all-left one, its answer lost and the payment read since) is not taken off what that one asked.
      pay_1: {
        amountCents: 80_000,
        currency: 'usd',
        refunds: [refund(earlier.resultId, 10_000), refund('ref_seen', 70_000, 'pending', null)],
      },
    });
    expect(await refundedTodayCents(h, 'sam', 'usd', NOW, 'America/Mexico_City')).toBe(10_000 + 1_250 + 70_000);
  });

  it('an answered refund of all that was left, listed without its amount, counts what the payment had left before it', async () => {
    const partial = op(NOW - 600_000, { payload: { amount: 100, reason: 'duplicate' } });
    const rest = op(NOW - 60_000);
    const h = history([partial, rest], {
      pay_1: {
        amountCents: 80_000,
        currency: 'usd',
        refunds: [refund(partial.resultId, 10_000), refund(rest.resultId, undefined, 'pending')],
      },
    });
    expect(await refundedTodayCents(h, 'sam', 'usd', NOW, 'America/Mexico_City')).toBe(10_000 + 70_000);
  });
});
