/** What a payment request must look like before it leaves the app: amounts, currencies, ids, reasons — checked everywhere alike. */
import { z } from 'zod';
import { freeText } from '../text';
import { hasAtMostTwoDecimals } from './money';

export const CURRENCIES = ['usd', 'mxn'] as const;
export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'cancellation'] as const;
export const MIN_AMOUNT = 0.01;
export const MAX_AMOUNT = 999_999.99;

/** True when the number has at most two decimals: exactly the double nearest a whole number of cents (no tolerance). */
export const hasWholeCents = hasAtMostTwoDecimals;

/**
 * An amount in major units as people write it in a settings file (`refundLimits`: 500 is 500.00 USD). Inside the app
 * and across the IPC contract money is in cents (`Cents`, shared/payments/money.ts).
 */
export const Amount = z
  .number({ error: 'Enter the amount as a number.' })
  .refine(Number.isFinite, 'Enter the amount as a number.')
  .refine((n) => n >= MIN_AMOUNT, `The amount must be at least ${MIN_AMOUNT.toFixed(2)}.`)
  .refine((n) => n <= MAX_AMOUNT, 'The amount can be at most 999,999.99.')
  .refine(hasWholeCents, 'The amount can have at most two decimals (cents).');

export const Currency = z.enum(CURRENCIES, { error: 'The currency must be USD or MXN.' });
export type Currency = z.infer<typeof Currency>;

export const ReservationId = freeText({ error: 'The reservation number is missing.' })
  .trim()
  .min(1, 'The reservation number is missing.')
  .max(64, 'The reservation number can have at most 64 characters.');

/** The agent's note on a payment: it goes to the service as metadata, so card data is refused in it like in every free text. */
export const PaymentNote = freeText({ multiline: true }).trim().max(500, 'The note can have at most 500 characters.');

export const PaymentId = z
  .string()
  .regex(/^pay_[a-f0-9]{32}$/, 'This is not a payment id (pay_ followed by 32 characters).');
export const MethodId = z
  .string()
  .regex(/^mth_[a-f0-9]{32}$/, 'This is not a saved card id (mth_ followed by 32 characters).');
export const RefundReason = z.enum(REFUND_REASONS, { error: 'Choose a refund reason.' });
export type RefundReason = z.infer<typeof RefundReason>;

export { CardInput, cardBrand, cardDigits, cvcLength, isCardExpired } from './card';
export * from './status';
export * from './money';
export * from './refund-effect';

/**
 * The short reference the agent reads to the guest and a receipt carries: the last 8 characters of the payment id,
 * upper case, in two groups of 4 ("pay_…9f3a1b2c" is "9F3A-1B2C").
 */
export function shortReference(paymentId: string): string {
  const tail = paymentId.slice(-8).toUpperCase();
  return `${tail.slice(0, 4)}-${tail.slice(4)}`;
}

/** How many characters of the payment id a short reference holds. */
export const SHORT_REFERENCE_LENGTH = 8;

/**
 * The payment-id tail a short reference read by the guest names, in lower case, or undefined when the text is not one:
 * "9D21-F5A0", "9d21f5a0" and "9D21 F5A0" all give "9d21f5a0" (any case, with or without the dash or a space).
 */
export function shortReferenceKey(text: string): string | undefined {
  const key = text
    .normalize('NFKC')
    .replace(/[\s\p{Pd}]+/gu, '')
    .toLowerCase();
  return new RegExp(`^[0-9a-f]{${SHORT_REFERENCE_LENGTH}}$`).test(key) ? key : undefined;
}
