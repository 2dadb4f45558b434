// The input rules every layer applies before a payment request leaves the app.
import { describe, expect, it } from 'vitest';
import { Amount, Currency, MethodId, PaymentId, RefundReason, ReservationId, toCents } from '../../shared/payments';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe('Amount', () => {
  it.each([0.01, 1, 10.5, 99.99, 1234.56, 999_999.99, 0.29, 1.1])('accepts %s', (n) => {
    expect(Amount.safeParse(n).success).toBe(true);
  });

  it.each([
    [0, /at least 0.01/],
    [0.001, /at least 0.01/],
    [-5, /at least 0.01/],
    [1.005, /two decimals/],
    [10.123, /two decimals/],
    [1_000_000, /at most 999,999.99/],
    [Number.NaN, /as a number/],
    [Number.POSITIVE_INFINITY, /as a number/],
    ['10.00', /as a number/],
  ])('refuses %s with a message a person understands', (n, message) => {
    expect(messageOf(Amount.safeParse(n))).toMatch(message);
  });

  it('adds in whole cents', () => {
    expect(toCents(0.1) + toCents(0.2)).toBe(30);
    expect(toCents(1234.56)).toBe(123456);
  });
});

describe('identifiers and enums', () => {
  it('accepts usd and mxn only, lowercase', () => {
    expect(Currency.safeParse('mxn').success).toBe(true);
    expect(messageOf(Currency.safeParse('MXN'))).toBe('The currency must be USD or MXN.');
    expect(Currency.safeParse('eur').success).toBe(false);
  });

  it('requires a reservation number of 1 to 64 characters, trimmed', () => {
    expect(ReservationId.parse('  ABC-123 ')).toBe('ABC-123');
    expect(messageOf(ReservationId.safeParse('   '))).toBe('The reservation number is missing.');
    expect(messageOf(ReservationId.safeParse(undefined))).toBe('The reservation number is missing.');
    expect(ReservationId.safeParse('x'.repeat(65)).success).toBe(false);
  });

  it('checks the shape of payment and method ids', () => {
    expect(PaymentId.safeParse(`pay_${'a1'.repeat(16)}`).success).toBe(true);
    expect(PaymentId.safeParse(`pay_${'A1'.repeat(16)}`).success).toBe(false);
    expect(PaymentId.safeParse(`mth_${'a1'.repeat(16)}`).success).toBe(false);
    expect(MethodId.safeParse(`mth_${'0'.repeat(32)}`).success).toBe(true);
    expect(MethodId.safeParse('mth_123').success).toBe(false);
  });

  it('knows the four refund reasons', () => {
    expect(RefundReason.options).toEqual(['duplicate', 'fraudulent', 'requested_by_customer', 'cancellation']);
    expect(messageOf(RefundReason.safeParse('because'))).toBe('Choose a refund reason.');
  });
});
