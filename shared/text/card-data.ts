/**
 * The one card-data detector, used wherever text is accepted, logged or audited. It errs towards refusing:
 * - a card number is any run of 12 to 19 digits (any script's decimal digits; O and o for 0, l and I for 1 where they
 *   stand among digits) with any non-alphanumeric separators between its groups, passing Luhn, of a length a card brand
 *   issues for its first digits (card-validator's brands, and Visa's 13 and UATP's 15 digits);
 * - a security code is a number of 3 or 4 digits next to a security code's name, in English or Spanish, abbreviated or
 *   dotted (cvv, c.v.v., cv2, código, cód. seg., security code, the 3 digits on the back…), after it or before it.
 * Left alone: a phone number right after a + (a number libphonenumber-js finds valid there), dates, times, amounts with
 * two decimals, UUIDs and hexadecimal ids, Mexican bank accounts (CLABE), and anything with fewer digits.
 * Every step is one pass or a regex with bounded repetition: time grows with the text's length, never faster.
 * Plain TypeScript: no Node, no DOM.
 */
import { MIN_CARD_DIGITS } from './card-digits';
import { findCardNumbers } from './card-numbers';
import { ANY_NUMBER, fold, readLookAlikes } from './fold';
import { findSecurityCodes } from './security-codes';

export { MAX_CARD_DIGITS, MIN_CARD_DIGITS, isCardNumberDigits, isPlausibleCardLength } from './card-digits';

export type CardDataKind = 'card_number' | 'security_code';

/** Where card data is in a text: UTF-16 offsets in the text as given, [start, end). A security code: its digits only. */
export interface CardDataMatch {
  kind: CardDataKind;
  start: number;
  end: number;
}

/** Every card number and security code in the text, in order; overlapping finds are merged (a card number wins). */
export function findCardData(text: string): CardDataMatch[] {
  // No card data without a digit (any kind: superscripts, circled digits… fold to digits too; look-alike letters are read
  // as digits only beside one): most texts are answered here, however long.
  if (!ANY_NUMBER.test(text)) return [];
  const folded = fold(text);
  // Look-alike letters become digits in place: one character for one, so offsets into the folded text hold.
  const read = readLookAlikes(folded.text);
  const digits = read.match(/[0-9]/g)?.length ?? 0;
  const raw: CardDataMatch[] = [
    ...(digits >= MIN_CARD_DIGITS ? findCardNumbers(read).map((m) => ({ kind: 'card_number' as const, ...m })) : []),
    ...(digits >= 3 ? findSecurityCodes(read).map((m) => ({ kind: 'security_code' as const, ...m })) : []),
  ];
  const inOriginal = raw
    .map((m) => ({ kind: m.kind, start: folded.from(m.start), end: folded.to(m.end - 1) }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: CardDataMatch[] = [];
  for (const match of inOriginal) {
    const previous = merged.at(-1);
    if (previous !== undefined && match.start < previous.end) {
      previous.end = Math.max(previous.end, match.end);
      if (match.kind === 'card_number') previous.kind = 'card_number';
    } else {
      merged.push({ ...match });
    }
  }
  return merged;
}

export function containsCardData(text: string): boolean {
  return findCardData(text).length > 0;
}

export interface CardDataPlaceholders {
  /** Default `[card]`. */
  card?: string;
  /** Default `[cvv]`. */
  securityCode?: string;
}

/** The text with each card number and security code replaced by a placeholder; the words around them kept. */
export function redactCardData(text: string, placeholders: CardDataPlaceholders = {}): string {
  const matches = findCardData(text);
  if (matches.length === 0) return text;
  let out = '';
  let at = 0;
  for (const match of matches) {
    out +=
      text.slice(at, match.start) +
      (match.kind === 'card_number' ? (placeholders.card ?? '[card]') : (placeholders.securityCode ?? '[cvv]'));
    at = match.end;
  }
  return out + text.slice(at);
}
