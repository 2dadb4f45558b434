/** Refusals and declines as the card form shows them: the code's own message in the screen's language, never main's English one. */
import { ApiError, describeError, knowsCode } from '../../../../bridge/errors';
import type { PlainKey, Translate } from '../../../../i18n/catalogue';

/** The codes the form explains in words of its own (spec §1, and the simulator's 3-D Secure failure). */
export const EXPLAINED_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
  'invalid_card',
  'authentication_failed',
] as const;
export type ExplainedCode = (typeof EXPLAINED_CODES)[number];

const KEYS: { readonly [C in ExplainedCode]: PlainKey & `card.error.${C}` } = {
  card_declined: 'card.error.card_declined',
  insufficient_funds: 'card.error.insufficient_funds',
  expired_card: 'card.error.expired_card',
  incorrect_cvc: 'card.error.incorrect_cvc',
  processing_error: 'card.error.processing_error',
  invalid_card: 'card.error.invalid_card',
  authentication_failed: 'card.error.authentication_failed',
};

const isExplained = (code: string): code is ExplainedCode => Object.hasOwn(KEYS, code);

/** The catalogue key for a code, or undefined when the form has no words of its own for it. */
export const errorMessageKey = (code: string): PlainKey | undefined => (isExplained(code) ? KEYS[code] : undefined);

/** An error as the form keeps it: a code and the message that came with it (never card data). */
export interface CardError {
  code: string;
  message: string;
}

/**
 * What `tokenize` or `pay` threw, reduced to its code and message (an ApiError from the client has both).
 * Nothing else of the thrown value is kept.
 */
export function toCardError(thrown: unknown): CardError {
  if (typeof thrown === 'object' && thrown !== null) {
    const { code, message } = thrown as { code?: unknown; message?: unknown };
    return {
      code: typeof code === 'string' && code !== '' ? code : 'unexpected',
      message: typeof message === 'string' ? message : '',
    };
  }
  return { code: 'unexpected', message: '' };
}

/**
 * The words shown for an error, in the screen's language: the code's own message in the form, else main's refusal by
 * its code (bridge/errors), else the form's generic sentence — never the English message that came with it.
 */
export function describeCardError(error: { code: string; message?: string | undefined }, t: Translate): string {
  const key = errorMessageKey(error.code);
  if (key) return t(key);
  if (!knowsCode(error.code)) return t('card.error.unexpected');
  return describeError(new ApiError({ code: error.code, message: '' }), t);
}

/** Codes that condemn the card itself: the form goes back to an empty entry for another card. */
const CARD_REFUSED: ReadonlySet<string> = new Set([
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'invalid_card',
  'authentication_failed',
]);

export const refusesTheCard = (code: string): boolean => CARD_REFUSED.has(code);
