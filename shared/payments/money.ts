/**
 * Money inside the app is a whole number of cents (the currency's minor unit): typed amounts are parsed to cents
 * from their text, sums and comparisons are integer arithmetic, and the service gets at most two decimals. No layer
 * does arithmetic on a fractional amount.
 */
import { z } from 'zod';

/** 0.01 to 999,999.99 (interface-decisions §3), in cents. */
export const MIN_CENTS = 1;
export const MAX_CENTS = 99_999_999;

/** A payment or refund amount in cents: a whole number from 1 (0.01) to 99,999,999 (999,999.99). */
export const Cents = z
  .number({ error: 'Enter the amount.' })
  .int('The amount must be a whole number of cents.')
  .min(MIN_CENTS, 'The amount must be at least 0.01.')
  .max(MAX_CENTS, 'The amount can be at most 999,999.99.');

/** An amount that may be zero (what is left to refund, a balance paid in full), in cents. */
export const CentsOrZero = z
  .number({ error: 'Enter the amount.' })
  .int('The amount must be a whole number of cents.')
  .min(0, 'The amount cannot be negative.')
  .max(MAX_CENTS, 'The amount can be at most 999,999.99.');

/** Any whole number of cents, negative too (a net total of payments less refunds). */
export const SignedCents = z.number().int();

export type AmountProblem = 'amount.notNumber' | 'amount.tooSmall' | 'amount.tooLarge' | 'amount.cents';
export type ParsedCents = { ok: true; cents: number } | { ok: false; problem: AmountProblem };

/**
 * An amount as a person types it — "1,234.50", "1234.5", "$ 980", "980 MXN" — to cents, from the text itself (never
 * through a fractional number). More than two decimals is refused unless the extra ones are zeros ("10.500").
 */
export function parseCents(typed: string, options: { allowZero?: boolean } = {}): ParsedCents {
  const cleaned = typed.replace(/[\s$]/g, '').replace(/(mxn|usd)$/i, '');
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(cleaned);
  if (!match) return { ok: false, problem: 'amount.notNumber' };
  const whole = (match[1] ?? '').replace(/,/g, '').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > 2) return { ok: false, problem: 'amount.cents' };
  if (whole.length > 7) return { ok: false, problem: 'amount.tooLarge' };
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (cents > MAX_CENTS) return { ok: false, problem: 'amount.tooLarge' };
  if (cents < (options.allowZero ? 0 : MIN_CENTS)) return { ok: false, problem: 'amount.tooSmall' };
  return { ok: true, cents };
}

/** "1,234.50" (grouped) or "1234.50": two decimals, written from the integer, no rounding of a fraction. */
export function formatCents(cents: number, options: { grouping?: boolean } = {}): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const whole = String(Math.floor(abs / 100));
  const grouped = options.grouping === false ? whole : whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}.${String(abs % 100).padStart(2, '0')}`;
}

/** "120.00 MXN": for messages in words (the renderer formats for its language with Intl). */
export const formatMoney = (cents: number, currency: string): string =>
  `${formatCents(cents)} ${currency.toUpperCase()}`;

/**
 * The amount as the service's JSON number: the double nearest the two-decimal value, which JSON writes with at most
 * two decimals ("0.3", never "0.30000000000000004"). Integer division is exact here, so no rounding error can enter.
 */
export function centsToWire(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError('An amount must be a whole number of cents.');
  return cents / 100;
}

/**
 * The same in major units for a field the contract keeps so (a reservation's balance due, as the partner's system and
 * the CSV write it): the double nearest the two-decimal value.
 */
export const centsToMajor = centsToWire;

/** An amount the service sent, to cents (it sends at most two decimals; anything finer is rounded to the cent). */
export const centsFromWire = (amount: number): number => Math.round(amount * 100);

/** An amount in major units (a settings value, a reservation's balance due) to cents. */
export const toCents = centsFromWire;

/** True when a JSON number has at most two decimals: it is exactly the double nearest some whole number of cents. */
export function hasAtMostTwoDecimals(n: number): boolean {
  const cents = Math.round(n * 100);
  return Number.isSafeInteger(cents) && centsToWire(cents) === n;
}

/** The amount as a number in major units, for Intl's currency formatting only — never for arithmetic. */
export const centsForDisplay = (cents: number): number => cents / 100;
