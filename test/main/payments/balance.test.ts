// What a reservation still owes, from its source balance and the journal's payments, in integer cents.
import { describe, expect, it } from 'vitest';
import { dayIn, reservationBalance } from '../../../main/payments';

const NOON_UTC = Date.parse('2026-03-14T18:00:00Z');
const clock = { now: NOON_UTC, timeZone: 'America/Mexico_City' };
const payment = (
  status: string,
  amountCents: number,
  extra: Partial<{
    currency: string;
    updatedAt: string;
    refunds: { reason?: string; status: string; amountCents: number | undefined; currency: string }[];
  }> = {},
) => ({
  id: `pay_${status}_${amountCents}`,
  status,
  amountCents,
  currency: extra.currency ?? 'usd',
  createdAt: '2026-03-14T16:00:00Z',
  updatedAt: extra.updatedAt ?? '2026-03-14T16:42:00Z',
  refunds: extra.refunds ?? [],
});

describe('reservationBalance', () => {
  it('takes succeeded, in-progress and unknown-status payments and unanswered attempts; failed, expired and canceled take nothing', () => {
    const balance = reservationBalance(
      { balanceDueCents: 98_000, currency: 'usd' },
      {
        payments: [
          payment('succeeded', 10_000),
          payment('processing', 1_000),
          payment('requires_action', 2_000),
          payment('pending_confirmation', 3_000),
          payment('on_hold', 4_000),
          payment('failed', 50_000),
          payment('expired', 50_000),
          payment('canceled', 50_000),
        ],
        pendingPayments: [{ amountCents: 5_000, currency: 'usd' }],
      },
      clock,
    );
    expect(balance).toMatchObject({
      sourceBalanceCents: 98_000,
      takenCents: 25_000,
      refundedCents: 0,
      owedCents: 73_000,
      currency: 'usd',
    });
  });

  it('counts succeeded fraudulent refunds back, not pending, failed or amount-unknown ones; other currencies are left out; never below zero', () => {
    const refunds = [
      { reason: 'fraudulent', status: 'succeeded', amountCents: 2_500, currency: 'usd' },
      { reason: 'fraudulent', status: 'pending', amountCents: 1_000, currency: 'usd' },
      { reason: 'fraudulent', status: 'failed', amountCents: 1_000, currency: 'usd' },
      { reason: 'fraudulent', status: 'succeeded', amountCents: undefined, currency: 'usd' },
    ];
    const balance = reservationBalance(
      { balanceDueCents: 20_000, currency: 'usd' },
      {
        payments: [payment('succeeded', 10_000, { refunds }), payment('succeeded', 99_000, { currency: 'mxn' })],
        pendingPayments: [{ amountCents: 7_000, currency: 'mxn' }],
      },
      clock,
    );
    expect(balance).toMatchObject({
      takenCents: 10_000,
      refundedCents: 2_500,
      reopenedCents: 2_500,
      owedCents: 12_500,
    });
    const over = reservationBalance(
      { balanceDueCents: 5_000, currency: 'usd' },
      { payments: [payment('succeeded', 9_000)], pendingPayments: [] },
      clock,
    );
    expect(over.owedCents).toBe(0);
  });

  it('a booking paid, then refunded in full for its cancellation, owes nothing and is closed', () => {
    const refunds = [{ reason: 'cancellation', status: 'succeeded', amountCents: 89_999, currency: 'mxn' }];
    const balance = reservationBalance(
      { balanceDueCents: 89_999, currency: 'mxn' },
      { payments: [payment('succeeded', 89_999, { currency: 'mxn', refunds })], pendingPayments: [] },
      clock,
    );
    expect(balance).toMatchObject({
      takenCents: 89_999,
      refundedCents: 89_999,
      reopenedCents: 0,
      owedCents: 0,
      overpaidCents: 0,
      closed: true,
    });
  });

  it('a duplicate or a refund the guest asked for is not owed again; a fraudulent charge refunded is', () => {
    const refunded = (reason: string) =>
      reservationBalance(
        { balanceDueCents: 89_999, currency: 'mxn' },
        {
          payments: [
            payment('succeeded', 89_999, {
              currency: 'mxn',
              refunds: [{ reason, status: 'succeeded', amountCents: 89_999, currency: 'mxn' }],
            }),
          ],
          pendingPayments: [],
        },
        clock,
      ).owedCents;
    expect([refunded('duplicate'), refunded('requested_by_customer'), refunded('fraudulent')]).toEqual([0, 0, 89_999]);
  });

  it('shows what succeeded beyond the balance as paid over, not as a balance of 0', () => {
    const balance = reservationBalance(
      { balanceDueCents: 119_999, currency: 'mxn' },
      {
        payments: [
          payment('succeeded', 1_199_990, { currency: 'mxn' }),
          payment('processing', 5_000, { currency: 'mxn' }),
        ],
        pendingPayments: [],
      },
      clock,
    );
    expect(balance).toMatchObject({ owedCents: 0, overpaidCents: 1_079_991, closed: false });
  });

  it("lists the payments that succeeded on the desk's calendar day, newest first", () => {
    const balance = reservationBalance(
      { balanceDueCents: 98_000, currency: 'usd' },
      {
        payments: [
          payment('succeeded', 1_000, { updatedAt: '2026-03-14T16:42:00Z' }),
          payment('succeeded', 2_000, { updatedAt: '2026-03-14T17:10:00Z' }),
          // 23:30 on the 13th in Mexico City: yesterday at the desk, though the 14th in UTC.
          payment('succeeded', 3_000, { updatedAt: '2026-03-14T05:30:00Z' }),
          payment('processing', 4_000, { updatedAt: '2026-03-14T17:00:00Z' }),
        ],
        pendingPayments: [],
      },
      clock,
    );
    expect(balance.chargedToday).toEqual([
      { paymentId: 'pay_succeeded_2000', amountCents: 2_000, currency: 'usd', at: '2026-03-14T17:10:00Z' },
      { paymentId: 'pay_succeeded_1000', amountCents: 1_000, currency: 'usd', at: '2026-03-14T16:42:00Z' },
    ]);
    expect(dayIn('2026-03-14T05:30:00Z', 'America/Mexico_City')).toBe('2026-03-13');
  });
});
