// The amount as the agent types it ("1,234.50", "1234.5", "$ 980"): to a number with cents, or the reason it is not one.
import { MAX_AMOUNT, MIN_AMOUNT, hasWholeCents } from '../../../shared/payments';

export type AmountProblem = 'amount.notNumber' | 'amount.tooSmall' | 'amount.tooLarge' | 'amount.cents';
export type ParsedAmount = { ok: true; value: number } | { ok: false; problem: AmountProblem };

/** Accepts digits with thousands commas and a decimal point (the desk's es-MX and en-US both write 1,234.50). */
export function parseAmount(typed: string): ParsedAmount {
  const cleaned = typed.replace(/[\s$]/g, '').replace(/(mxn|usd)$/i, '');
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(cleaned)) return { ok: false, problem: 'amount.notNumber' };
  const value = Number(cleaned.replace(/,/g, ''));
  if (!Number.isFinite(value)) return { ok: false, problem: 'amount.notNumber' };
  if (!hasWholeCents(value)) return { ok: false, problem: 'amount.cents' };
  if (value < MIN_AMOUNT) return { ok: false, problem: 'amount.tooSmall' };
  if (value > MAX_AMOUNT) return { ok: false, problem: 'amount.tooLarge' };
  return { ok: true, value };
}

/** How the amount field starts: the balance due, with two decimals and no grouping (easy to edit). */
export const amountText = (amount: number): string => amount.toFixed(2);
