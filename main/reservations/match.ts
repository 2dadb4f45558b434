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

/** Fewer digits than this are not taken for a phone (they would match too many guests). */
export const MIN_PHONE_DIGITS = 7;

export interface QueryKeys {
  /** Confirmation numbers are compared in lower case. */
  id: string;
  email: string;
  name: string;
  /** The digits when the text looks like a phone ("+52 (55) 1234-5678"), else undefined. */
  phoneDigits: string | undefined;
}

export function queryKeys(text: string): QueryKeys {
  const trimmed = text.trim();
  const digits = trimmed.replace(/\D/g, '');
  const looksLikePhone = /^[\d\s+().\-/]+$/.test(trimmed) && digits.length >= MIN_PHONE_DIGITS;
  return {
    id: trimmed.toLowerCase(),
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
  /** The whole name, as typed. */
  nameExact: 3,
  /** A word of the name starts with the text ("nu" in "Sofía Núñez"). */
  nameWordStart: 4,
  /** Anywhere in the name. */
  nameContains: 5,
} as const;

/** The best way this reservation matches the search, or undefined when it does not match at all. */
export function matchRank(view: ReservationView, keys: QueryKeys): number | undefined {
  if (view.confirmationNumber.toLowerCase() === keys.id) return RANK.confirmationNumber;
  if (view.guestEmail !== undefined && view.guestEmail.toLowerCase() === keys.email) return RANK.email;
  if (view.guestPhone !== undefined && keys.phoneDigits !== undefined) {
    const phone = phoneKeys(view.guestPhone);
    if (phone.digits === keys.phoneDigits || phone.national === keys.phoneDigits) return RANK.phone;
  }
  const name = foldText(view.guestName);
  if (keys.name === '') return undefined;
  if (name === keys.name) return RANK.nameExact;
  if (name.startsWith(keys.name) || name.includes(` ${keys.name}`)) return RANK.nameWordStart;
  if (name.includes(keys.name)) return RANK.nameContains;
  return undefined;
}
