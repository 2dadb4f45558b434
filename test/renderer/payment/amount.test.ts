// The amount field's parser: what an agent types becomes a number with cents, or a reason it does not.
import { describe, expect, it } from 'vitest';
import { amountText, parseAmount } from '../../../renderer/src/payment/amount';

describe('parseAmount', () => {
  it.each([
    ['1234.5', 1234.5],
    ['1,234.50', 1234.5],
    [' $ 980 ', 980],
    ['0.01', 0.01],
    ['999,999.99', 999_999.99],
    ['12450.00 MXN', 12450],
  ])('reads %s as %d', (typed, value) => {
    expect(parseAmount(typed)).toEqual({ ok: true, value });
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
  ])('refuses %s (%s)', (typed, problem) => {
    expect(parseAmount(typed)).toEqual({ ok: false, problem });
  });

  it('starts the field from the balance due with two decimals', () => {
    expect(amountText(1234.5)).toBe('1234.50');
    expect(parseAmount(amountText(0.1 + 0.2))).toEqual({ ok: true, value: 0.3 });
  });
});
