// Which digits can be a card number: Luhn, a length a card brand issues, and not a phone number with its country code.
import cardValidator from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10.js';
import { isValidPhoneNumber } from 'libphonenumber-js';

export const MIN_CARD_DIGITS = 12;
export const MAX_CARD_DIGITS = 19;

type Prefix = number | readonly number[];
const cardTypes = cardValidator.creditCardType;
/**
 * The brands card-validator knows (every one of them, not only its best guess: a 17-digit number starting 6011 is no
 * Discover but may be a Maestro), and two it leaves out: Visa's 13-digit cards and UATP's 15-digit airline cards (1…).
 */
const BRANDS: readonly { patterns: readonly Prefix[]; lengths: readonly number[] }[] = [
  ...Object.values(cardTypes.types).map((type) => cardTypes.getTypeInfo(type)),
  { patterns: [4], lengths: [13] },
  { patterns: [1], lengths: [15] },
];

function startsWith(digits: string, prefix: Prefix): boolean {
  if (typeof prefix === 'number') return digits.startsWith(String(prefix));
  const [min = 0, max = 0] = prefix;
  const head = Number(digits.slice(0, String(min).length));
  return head >= min && head <= max;
}

/** Whether a brand issues cards of this many digits starting with these. */
export function isPlausibleCardLength(digits: string): boolean {
  return BRANDS.some(
    (brand) => brand.lengths.includes(digits.length) && brand.patterns.some((prefix) => startsWith(digits, prefix)),
  );
}

/**
 * Below this many digits, a number that passes as a card must not be a phone number written with its country code and
 * no + either (libphonenumber-js): phones with their country code are 11 to 13 digits, one in ten passes Luhn, and the
 * only cards that short are Maestro's (56–59, 6…: also the country codes of Colombia, Venezuela, Ecuador, Paraguay…) and
 * Visa's 13 digits.
 */
const MIN_DIGITS_NOT_A_PHONE = 14;

/** 12 to 19 ASCII digits passing Luhn, of a length a brand issues; under 14, not a phone number with its country code. */
export function isCardNumberDigits(digits: string): boolean {
  if (digits.length < MIN_CARD_DIGITS || digits.length > MAX_CARD_DIGITS || !/^\d+$/.test(digits) || !luhn10(digits))
    return false;
  if (!isPlausibleCardLength(digits)) return false;
  return digits.length >= MIN_DIGITS_NOT_A_PHONE || !isValidPhoneNumber(`+${digits}`);
}
