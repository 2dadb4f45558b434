/** How a search text matches a reservation — one definition for the SQLite store's keys and the REST adapter's ranking. */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { ReservationView } from '../../shared/reservations';

/** Names compared without accents, case or repeated spaces: "Núñez" and "NUNEZ" fold to "nunez". */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** A phone's digits as stored: the whole E.164 number without "+", and the number inside its country. */
export interface PhoneKeys {
  digits: string;
  national: string;
}

export function phoneKeys(e164: string): PhoneKeys {
  const parsed = parsePhoneNumberFromString(e164);
  const digits = e164.replace(/\D/g, '');
  return { digits, national: parsed?.nationalNumber ?? digits };
}

/** Fewer digits than this are not taken for a phone, nor for the end of one (they would match too many guests). */
export const MIN_PHONE_DIGITS = 4;

/**
 * A confirmation number as it is compared: without spaces or dashes of any kind, in lower case, full-width letters
 * and digits as their ASCII forms — "cun6b3d8f", "CUN 6B3D8F" and "CUN–6B3D8F" all find CUN-6B3D8F.
 */
export function confirmationKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{Pd}]+/gu, '');
}

/**
 * The apostrophes a name is written or typed with ("O'Connor", "O’Connor", "OʼConnor"): dropped, never a space between
 * words, so that "oconnor" finds O'Connor. The stores' SQL drops the same characters.
 */
export const APOSTROPHES = "'’‘ʼ`´";
const APOSTROPHE = new RegExp(`[${APOSTROPHES}]`, 'gu');

/**
 * The words of a name or of a search text as they are compared: without accents or case, apostrophes dropped, any
 * other punctuation a space between words — "García, Pedro" is ["garcia", "pedro"], "Dubois-Smith" ["dubois", "smith"].
 */
export function searchWords(text: string): string[] {
  return foldText(text.replace(APOSTROPHE, ''))
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** A word typed shorter than this must start a word of the name; from this length on it may be anywhere in the name. */
export const MIN_FRAGMENT_CHARS = 3;

/** A part of a confirmation number has at least this many characters, one a digit at least ("6B3D", not "CUN"). */
export const MIN_REFERENCE_CHARS = 4;

export interface QueryKeys {
  /** Confirmation numbers are compared by their key (confirmationKey). */
  id: string;
  /** The key when it may be part of a confirmation number (MIN_REFERENCE_CHARS, a digit); else undefined. */
  reference: string | undefined;
  email: string;
  name: string;
  /** The words of the text (searchWords): each must be in the name, in any order. */
  words: string[];
  /**
   * The digits when the text looks like a phone ("+52 (55) 1234-5678"), its start ("998 123") or its end
   * ("555 0164"), at least MIN_PHONE_DIGITS of them; else undefined.
   */
  phoneDigits: string | undefined;
}

export function queryKeys(text: string): QueryKeys {
  const trimmed = text.trim();
  const digits = trimmed.replace(/\D/g, '');
  const looksLikePhone = /^[\d\s+().\-/]+$/.test(trimmed) && digits.length >= MIN_PHONE_DIGITS;
  const id = confirmationKey(trimmed);
  return {
    id,
    reference: id.length >= MIN_REFERENCE_CHARS && /\p{N}/u.test(id) ? id : undefined,
    email: trimmed.toLowerCase(),
    name: foldText(trimmed),
    words: searchWords(trimmed),
    phoneDigits: looksLikePhone ? digits : undefined,
  };
}

/** Lower is better; the stores' SQL orders by the same ranks. */
export const RANK = {
  confirmationNumber: 0,
  email: 1,
  phone: 2,
  /** The phone ends with the digits typed (4 or more: "555 0164", "0164"). */
  phoneEnd: 3,
  /** The phone starts with the digits typed, with or without its country code (4 or more: "998 123"). */
  phoneStart: 4,
  /** The confirmation number holds what was typed ("6B3D8F", "CUN-6B3D" for CUN-6B3D8F). */
  confirmationPart: 5,
  /** The whole name, as typed. */
  nameExact: 6,
  /** Every word typed is a whole word of the name, in any order ("garcia pedro" for "García, Pedro"). */
  nameWords: 7,
  /** Every word typed starts a word of the name ("nu" in "Sofía Núñez"). */
  nameWordStart: 8,
  /** Every word typed is in the name, anywhere (3 characters or more; a shorter one starts a word). */
  nameContains: 9,
} as const;

/** The best way this reservation matches the search, or undefined when it does not match at all. */
export function matchRank(view: ReservationView, keys: QueryKeys): number | undefined {
  if (keys.id !== '' && confirmationKey(view.confirmationNumber) === keys.id) return RANK.confirmationNumber;
  if (view.guestEmail !== undefined && view.guestEmail.toLowerCase() === keys.email) return RANK.email;
  if (view.guestPhone !== undefined && keys.phoneDigits !== undefined) {
    const phone = phoneKeys(view.guestPhone);
    if (phone.digits === keys.phoneDigits || phone.national === keys.phoneDigits) return RANK.phone;
    if (phone.digits.endsWith(keys.phoneDigits)) return RANK.phoneEnd;
    if (phone.digits.startsWith(keys.phoneDigits) || phone.national.startsWith(keys.phoneDigits))
      return RANK.phoneStart;
  }
  if (keys.reference !== undefined && confirmationKey(view.confirmationNumber).includes(keys.reference))
    return RANK.confirmationPart;
  if (keys.words.length === 0) return undefined;
  const words = searchWords(view.guestName);
  const startsWord = (typed: string): boolean => words.some((word) => word.startsWith(typed));
  const joined = words.join(' ');
  if (foldText(view.guestName) === keys.name) return RANK.nameExact;
  if (keys.words.every((typed) => words.includes(typed))) return RANK.nameWords;
  if (keys.words.every(startsWord)) return RANK.nameWordStart;
  if (keys.words.every((typed) => (typed.length >= MIN_FRAGMENT_CHARS ? joined.includes(typed) : startsWord(typed))))
    return RANK.nameContains;
  return undefined;
}
