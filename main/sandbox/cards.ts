/** Card rules of the simulator: test-card scenarios, brand, Luhn, CVC length. */
import cardValidator from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10.js';

export type FailureCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'authentication_failed'
  | 'processing_error';

/** What happens when a payment on this card is processed. */
export type CardScenario = { kind: 'succeed' } | { kind: 'challenge' } | { kind: 'fail'; code: FailureCode };

/** interface-decisions.md §9. Only the scenario is kept, never the number. */
const TEST_CARDS: ReadonlyMap<string, { scenario: CardScenario; msiEligible?: true }> = new Map([
  ['4000004840000008', { scenario: { kind: 'succeed' }, msiEligible: true }],
  ['4000000000003220', { scenario: { kind: 'challenge' } }],
  ['4000000000000002', { scenario: { kind: 'fail', code: 'card_declined' } }],
  ['4000000000009995', { scenario: { kind: 'fail', code: 'insufficient_funds' } }],
  ['4000000000000069', { scenario: { kind: 'fail', code: 'expired_card' } }],
  ['4000000000000127', { scenario: { kind: 'fail', code: 'incorrect_cvc' } }],
]);

export const FAILURE_MESSAGES: Record<FailureCode, string> = {
  card_declined: 'The card was declined by the issuer.',
  insufficient_funds: 'The card has insufficient funds for this amount.',
  expired_card: 'The card has expired.',
  incorrect_cvc: "The card's security code (CVC) is incorrect.",
  authentication_failed: 'The cardholder did not pass 3D Secure authentication.',
  processing_error: 'The payment could not be processed. Try again.',
};

/** card-validator's type names, in the service's lowercase brand words. */
const BRANDS: Record<string, string> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  discover: 'discover',
  'diners-club': 'diners',
  jcb: 'jcb',
  unionpay: 'unionpay',
  maestro: 'maestro',
  elo: 'elo',
  mir: 'mir',
  hiper: 'hiper',
  hipercard: 'hipercard',
};

export interface CardFacts {
  brand: string;
  cvcLength: number;
}

/** Brand and CVC length as told by the leading digits. */
export function cardFacts(number: string): CardFacts {
  const type = cardValidator.number(number).card;
  return {
    brand: (type && BRANDS[type.type]) ?? 'unknown',
    cvcLength: type?.code.size ?? 3,
  };
}

export const passesLuhn = (number: string): boolean => luhn10(number);

export function scenarioOf(number: string): { scenario: CardScenario; msiEligible: boolean } {
  const card = TEST_CARDS.get(number);
  return { scenario: card?.scenario ?? { kind: 'succeed' }, msiEligible: card?.msiEligible ?? false };
}

/** A card is valid to the end of its expiry month (UTC). */
export function isExpired(expMonth: number, expYear: number, now: number): boolean {
  const firstOfNextMonth = Date.UTC(expYear, expMonth, 1);
  return now >= firstOfNextMonth;
}
