// The amount field's parser: what an agent types becomes cents (from the text, never through a fraction), or a reason it does not.
import { describe, expect, it } from 'vitest';
import { amountText, parseAmount } from '../../../../renderer/src/features/payment/amount';

describe('parseAmount', () => {
  it.each([
    ['1234.5', 123450],
    ['1,234.50', 123450],
    [' $ 980 ', 98000],
    ['0.01', 1],
    ['0.30', 30],
    ['1.15', 115],
    ['10.500', 1050],
    ['999,999.99', 99_999_999],
    ['12450.00 MXN', 1245000],
    ['007.10', 710],
  ])('reads %s as %d cents', (typed, cents) => {
    expect(parseAmount(typed)).toEqual({ ok: true, cents });
  });

  it.each([
    ['', 'amount.notNumber'],
    ['abc', 'amount.notNumber'],
    ['1.2.3', 'amount.notNumber'],
    ['12,34', 'amount.notNumber'],
    ['-5', 'amount.notNumber'],
    ['1e5', 'amount.notNumber'],
    ['0', 'amount.tooSmall'],
    ['0.001', 'amount.cents'],
    ['10.005', 'amount.cents'],
    ['1000000', 'amount.tooLarge'],
    ['99999999999999999999', 'amount.tooLarge'],
  ])('refuses %s (%s)', (typed, problem) => {
    expect(parseAmount(typed)).toEqual({ ok: false, problem });
  });

  it('starts the field from cents with two decimals, and reads back the same cents', () => {
    expect(amountText(123450)).toBe('1234.50');
    expect(amountText(5)).toBe('0.05');
    expect(parseAmount(amountText(10 + 20))).toEqual({ ok: true, cents: 30 });
  });
});
