/** How a search text matches a reservation — one definition for the SQLite store's keys and the REST adapter's ranking. */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { ReservationView } from '../../shared/reservations';

/** Names compared without accents, case or repeated spaces: "Núñez" and "NUNEZ" fold to "nunez". */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
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
  return text.normalize('NFKC').toLowerCase().replace(/[\s\p{Pd}]+/gu, '');
}

export interface QueryKeys {
  /** Confirmation numbers are compared by their key (confirmationKey). */
  id: string;
  email: string;
  name: string;
  /**
   * The digits when the text looks like a phone ("+52 (55) 1234-5678") or the end of one ("555 0164"), at least
   * MIN_PHONE_DIGITS of them; else undefined.
   */
  phoneDigits: string | undefined;
}

export function queryKeys(text: string): QueryKeys {
  const trimmed = text.trim();
  const digits = trimmed.replace(/\D/g, '');
  const looksLikePhone = /^[\d\s+().\-/]+$/.test(trimmed) && digits.length >= MIN_PHONE_DIGITS;
  return {
    id: confirmationKey(trimmed),
    email: trimmed.toLowerCase(),
    name: foldText(trimmed),
    phoneDigits: looksLikePhone ? digits : undefined,
  };
}

/** Lower is better; the SQLite store orders by the same ranks. */
export const RANK = {
  confirmationNumber: 0,
  email: 1,
  phone: 2,
  /** The phone ends with the digits typed (4 or more: "555 0164", "0164"). */
  phoneEnd: 3,
  /** The whole name, as typed. */
  nameExact: 4,
  /** A word of the name starts with the text ("nu" in "Sofía Núñez"). */
  nameWordStart: 5,
  /** Anywhere in the name. */
  nameContains: 6,
} as const;

/** The best way this reservation matches the search, or undefined when it does not match at all. */
export function matchRank(view: ReservationView, keys: QueryKeys): number | undefined {
  if (keys.id !== '' && confirmationKey(view.confirmationNumber) === keys.id) return RANK.confirmationNumber;
  if (view.guestEmail !== undefined && view.guestEmail.toLowerCase() === keys.email) return RANK.email;
  if (view.guestPhone !== undefined && keys.phoneDigits !== undefined) {
    const phone = phoneKeys(view.guestPhone);
    if (phone.digits === keys.phoneDigits || phone.national === keys.phoneDigits) return RANK.phone;
    if (phone.digits.endsWith(keys.phoneDigits)) return RANK.phoneEnd;
  }
  const name = foldText(view.guestName);
  if (keys.name === '') return undefined;
  if (name === keys.name) return RANK.nameExact;
  if (name.startsWith(keys.name) || name.includes(` ${keys.name}`)) return RANK.nameWordStart;
  if (name.includes(keys.name)) return RANK.nameContains;
  return undefined;
}
