// Money in cents: typed amounts parsed from their text, formatted from the integer, and sent with at most two decimals.
import { describe, expect, it } from 'vitest';
import {
  Cents,
  centsFromWire,
  centsToWire,
  formatCents,
  formatMoney,
  hasAtMostTwoDecimals,
  parseCents,
} from '../../../shared/payments';
import { countsAgainstRefundable, isFinalPayment, isFinalRefund, refundableCents } from '../../../shared/payments';

describe('centsToWire', () => {
  it('writes every whole number of cents with at most two decimals in JSON', () => {
    for (let cents = 1; cents <= 100_000; cents += 7) {
      expect(JSON.stringify(centsToWire(cents))).toMatch(/^\d+(\.\d{1,2})?$/);
    }
    for (const cents of [30, 115, 99_999_999, 12_345_678, 100_030])
      expect(centsFromWire(centsToWire(cents))).toBe(cents);
    expect(JSON.stringify({ amount: centsToWire(10 + 20) })).toBe('{"amount":0.3}');
    expect(() => centsToWire(10.5)).toThrow(RangeError);
  });

  it('tells an amount of at most two decimals from a raw double just off the cent', () => {
    expect([0.3, 1.15, 999999.99, 10, 0.01].every(hasAtMostTwoDecimals)).toBe(true);
    expect(
      [0.1 + 0.2, 1.1 * 1.1, 10.0000000001, 1.005, Number.NaN, Number.POSITIVE_INFINITY, 1e300].some(
        hasAtMostTwoDecimals,
      ),
    ).toBe(false);
  });
});

describe('parseCents and formatCents', () => {
  it('reads what a person types, from the text', () => {
    expect(parseCents('1,234.56')).toEqual({ ok: true, cents: 123456 });
    expect(parseCents('0.1')).toEqual({ ok: true, cents: 10 });
    expect(parseCents('0', { allowZero: true })).toEqual({ ok: true, cents: 0 });
    expect(parseCents('1.234')).toEqual({ ok: false, problem: 'amount.cents' });
    expect(parseCents('1,23.4')).toEqual({ ok: false, problem: 'amount.notNumber' });
  });

  it('writes two decimals from the integer, grouped or not, negative too', () => {
    expect(formatCents(123456)).toBe('1,234.56');
    expect(formatCents(123456, { grouping: false })).toBe('1234.56');
    expect(formatCents(-8050)).toBe('-80.50');
    expect(formatCents(5)).toBe('0.05');
    expect(formatMoney(12000, 'mxn')).toBe('120.00 MXN');
  });

  it('Cents is a whole number from 1 to 99,999,999', () => {
    expect(Cents.safeParse(1).success).toBe(true);
    expect(Cents.safeParse(99_999_999).success).toBe(true);
    for (const bad of [0, 100_000_000, 10.5, -1, '10']) expect(Cents.safeParse(bad).success).toBe(false);
  });
});

describe('the payment vocabulary', () => {
  it('final statuses (canceled too); an unknown one is not final; void refunds do not count', () => {
    expect(['succeeded', 'failed', 'expired', 'canceled'].every(isFinalPayment)).toBe(true);
    expect(['processing', 'requires_action', 'pending_confirmation', 'under_review'].some(isFinalPayment)).toBe(false);
    expect(['succeeded', 'failed', 'canceled'].every(isFinalRefund)).toBe(true);
    expect(['pending', 'under_review'].some(isFinalRefund)).toBe(false);
    expect(['pending', 'succeeded', 'under_review'].every(countsAgainstRefundable)).toBe(true);
    expect(['failed', 'canceled'].some(countsAgainstRefundable)).toBe(false);
  });

  it('refundable cents: unknown while a counting refund has no amount', () => {
    const refunds = [
      { status: 'succeeded', amountCents: 3000 },
      { status: 'failed', amountCents: 5000 },
      { status: 'canceled', amountCents: undefined },
    ];
    expect(refundableCents({ status: 'succeeded', amountCents: 10000, refunds })).toBe(7000);
    expect(refundableCents({ status: 'processing', amountCents: 10000, refunds })).toBe(0);
    expect(
      refundableCents({
        status: 'succeeded',
        amountCents: 10000,
        refunds: [...refunds, { status: 'pending', amountCents: undefined }],
      }),
    ).toBeUndefined();
  });
});
