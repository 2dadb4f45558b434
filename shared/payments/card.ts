/** A card as the agent keys it: digits, Luhn, expiry, CVC length by brand — checked before anything is sent or stored. */
import cardValidator from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10.js';
import { z } from 'zod';
import { freeText } from '../text';

/** The digits of a card number as typed, without the spaces or dashes an agent may key. */
export const cardDigits = (typed: string): string => typed.replace(/[\s-]/g, '');

export const cardBrand = (digits: string): string => cardValidator.number(digits).card?.type ?? 'unknown';

/** CVC length for the brand: 4 for American Express, 3 for the others. */
export const cvcLength = (digits: string): number => cardValidator.number(digits).card?.code.size ?? 3;

/** A card is valid to the end of its expiry month. */
export const isCardExpired = (expMonth: number, expYear: number, now: number): boolean =>
  now >= Date.UTC(expYear, expMonth, 1);

/** The longest cardholder name the service takes, trimmed. */
export const MAX_HOLDER_NAME_LENGTH = 100;

export const CardInput = z
  .strictObject({
    number: z
      .string({ error: 'Enter the card number.' })
      .transform(cardDigits)
      .pipe(z.string().regex(/^\d{12,19}$/, 'The card number must have 12 to 19 digits.')),
    expMonth: z
      .number({ error: 'Enter the expiry month.' })
      .int()
      .min(1, 'The expiry month must be 1 to 12.')
      .max(12, 'The expiry month must be 1 to 12.'),
    expYear: z
      .number({ error: 'Enter the expiry year.' })
      .int()
      .min(2000, 'Enter the expiry year with four digits.')
      .max(2100, 'Enter the expiry year with four digits.'),
    cvv: z.string({ error: 'Enter the security code.' }).regex(/^\d{3,4}$/, 'The security code must be 3 or 4 digits.'),
    holderName: freeText()
      .trim()
      .min(1)
      .max(MAX_HOLDER_NAME_LENGTH, `The cardholder name can have at most ${MAX_HOLDER_NAME_LENGTH} characters.`)
      .optional(),
  })
  .superRefine((card, ctx) => {
    if (!luhn10(card.number)) {
      ctx.addIssue({ code: 'custom', path: ['number'], message: 'The card number is not valid: check the digits.' });
      return;
    }
    if (isCardExpired(card.expMonth, card.expYear, Date.now())) {
      ctx.addIssue({ code: 'custom', path: ['expYear'], message: 'The card has expired: check the expiry date.' });
    }
    const length = cvcLength(card.number);
    if (card.cvv.length !== length) {
      ctx.addIssue({
        code: 'custom',
        path: ['cvv'],
        message: `The security code must have ${length} digits for this card.`,
      });
    }
  });
export type CardInput = z.output<typeof CardInput>;
