/** A reservation as every layer sees it: who, where, when, and what is still to pay — checked the same in main and renderer. */
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { Language } from '../language';
import { Currency, MAX_AMOUNT, MAX_CENTS, ReservationId, hasWholeCents } from '../payments';
import { freeText } from '../text';

/** A calendar date written YYYY-MM-DD (no time, no zone): the day the hotel counts, not an instant. */
export const IsoDate = z.iso.date({ error: 'Write the date as YYYY-MM-DD, for example 2026-03-14.' });

export const GuestName = freeText({ error: "The guest's name is missing." })
  .trim()
  .min(1, "The guest's name is missing.")
  .max(200, "The guest's name can have at most 200 characters.");

export const HotelName = freeText({ error: 'The hotel name is missing.' })
  .trim()
  .min(1, 'The hotel name is missing.')
  .max(200, 'The hotel name can have at most 200 characters.');

/**
 * A balance as the reservation's source writes it — the CSV's `balance_due` cell, the partner's JSON — in the currency's
 * major unit with at most two decimals (1234.5 is MXN 1,234.50). Checked here at the source's boundary and turned into
 * cents once (`toCents`): the view carries `balanceDueCents`. Zero is allowed: a reservation paid in full still has to
 * be found.
 */
export const BalanceDue = z
  .number({ error: 'Enter the balance due as a number.' })
  .refine(Number.isFinite, 'Enter the balance due as a number.')
  .refine((n) => n >= 0, 'The balance due cannot be negative.')
  .refine((n) => n <= MAX_AMOUNT, 'The balance due can be at most 999,999.99.')
  .refine(hasWholeCents, 'The balance due can have at most two decimals (cents).');

const PHONE_FORMAT = 'Write the phone with its country code, for example +52 55 1234 5678 or +1 201 555 0123.';

/** A phone number in E.164 (+ country code and number, digits only), one that can exist in its country. */
export const E164Phone = z
  .string({ error: PHONE_FORMAT })
  .regex(/^\+[1-9]\d{6,14}$/, PHONE_FORMAT)
  .refine((phone) => isValidPhoneNumber(phone), 'This phone number does not exist in its country: check the digits.');

/**
 * The E.164 form of a phone as people write it ("+52 55 1234 5678", "+1 (201) 555-0123"), or undefined when it has no
 * country code or cannot be a number there. No country is guessed: "55 1234 5678" could be Mexico or elsewhere.
 */
export function toE164(typed: string): string | undefined {
  const parsed = parsePhoneNumberFromString(typed.trim());
  return parsed?.isValid() === true ? parsed.number : undefined;
}

/** Card data is refused first (a card number can look like the part before the @), then the address is checked. */
export const GuestEmail = freeText({
  error: 'This is not an e-mail address: check it, for example ana.lopez@example.com.',
})
  .max(254, 'The e-mail address can have at most 254 characters.')
  .pipe(z.email({ error: 'This is not an e-mail address: check it, for example ana.lopez@example.com.' }));

/** The balance in cents, as the view carries it (the source's major units were converted once, at its boundary). */
export const BalanceDueCents = z
  .number({ error: 'The balance due is missing.' })
  .int('The balance due must be a whole number of cents.')
  .min(0, 'The balance due cannot be negative.')
  .max(MAX_CENTS, 'The balance due can be at most 999,999.99.');

/**
 * Where the guest's language comes from: the reservation's own language field (`reservation`), the country of the
 * guest's phone (`phone`), or neither (`default`: en-US, a guess the agent should check).
 */
export const GUEST_LANGUAGE_SOURCES = ['reservation', 'phone', 'default'] as const;
export const GuestLanguageSource = z.enum(GUEST_LANGUAGE_SOURCES);
export type GuestLanguageSource = z.infer<typeof GuestLanguageSource>;

/**
 * One reservation as a source returns it. `confirmationNumber` is what a payment carries as its `reservationId`.
 * The guest's phone and e-mail are optional: a booking may lack them, and the agent then asks the guest.
 * `balanceDueCents` is the source's own balance: what the hotel's system said was due when it was read, which this
 * app assumes does not yet reflect the payments taken in the app (main computes what is still owed from it:
 * main/reservations/README.md). `guestLanguage` is the language messages to the guest (the 3DS link, a receipt) are
 * written in: the UI preselects it, and the agent may change it.
 */
export const CHECK_OUT_BEFORE_CHECK_IN = 'The check-out date cannot be before the check-in date.';

export const ReservationView = z
  .object({
    confirmationNumber: ReservationId,
    guestName: GuestName,
    checkIn: IsoDate,
    checkOut: IsoDate,
    hotelName: HotelName,
    balanceDueCents: BalanceDueCents,
    currency: Currency,
    guestPhone: E164Phone.optional(),
    guestEmail: GuestEmail.optional(),
    guestLanguage: Language,
    guestLanguageFrom: GuestLanguageSource,
  })
  // Compared only when both are dates: a wrong check-in is reported as such, not as a check-out problem too.
  .refine(
    (r) => !(IsoDate.safeParse(r.checkIn).success && IsoDate.safeParse(r.checkOut).success) || r.checkOut >= r.checkIn,
    {
      path: ['checkOut'],
      message: CHECK_OUT_BEFORE_CHECK_IN,
    },
  );
export type ReservationView = z.output<typeof ReservationView>;

export const RESERVATION_QUERY_MIN = 2;
export const RESERVATION_QUERY_MAX = 100;
/** A search returns at most this many reservations, best matches first. */
export const MAX_SEARCH_RESULTS = 20;

/**
 * One free-text search, matched against the confirmation number (whole, ignoring spaces, dashes and case: "cun6b3d8f"
 * finds "CUN-6B3D8F"), the guest's name (part of it, any case or accent: "nunez" finds "Núñez"), the phone (digits
 * only: "+52 55 1234 5678" and "5512345678" are the same guest; its last 4 digits or more, "555 0164", find it too)
 * and the e-mail (exact, any case).
 */
export const ReservationQuery = z.strictObject({
  text: freeText({ error: 'Type a confirmation number, name, phone or e-mail to search.' })
    .trim()
    .min(RESERVATION_QUERY_MIN, `Type at least ${RESERVATION_QUERY_MIN} characters to search.`)
    .max(RESERVATION_QUERY_MAX, `The search can have at most ${RESERVATION_QUERY_MAX} characters.`),
});
export type ReservationQuery = z.output<typeof ReservationQuery>;

/** What went wrong finding a reservation; the message that comes with it is for the agent to read. */
export const RESERVATION_ERROR_CODES = [
  /** The search text or confirmation number failed its schema. */
  'invalid_query',
  /** The reservation source is set up wrong or incompletely (IT's job). */
  'configuration',
  /** The partner's system could not be reached (network, DNS, refused). */
  'unreachable',
  'timeout',
  /** The partner's system refused the app's credentials (401, 403). */
  'unauthorized',
  /** The partner's system failed (5xx). */
  'unavailable',
  /** The partner's system refused the request for another reason (other 4xx). */
  'rejected',
  /** The partner's answer is not JSON, or does not fit the field mapping. */
  'bad_response',
  /** The reservations file could not be read or written. */
  'storage',
  /** The source was closed (the app is shutting down or switching sources). */
  'closed',
] as const;
export const ReservationErrorCode = z.enum(RESERVATION_ERROR_CODES);
export type ReservationErrorCode = z.infer<typeof ReservationErrorCode>;

/** Countries where Spanish is the main language (ISO 3166 codes, as libphonenumber-js names a phone's country). */
const SPANISH_SPEAKING = new Set([
  'MX',
  'ES',
  'AR',
  'BO',
  'CL',
  'CO',
  'CR',
  'CU',
  'DO',
  'EC',
  'SV',
  'GQ',
  'GT',
  'HN',
  'NI',
  'PA',
  'PY',
  'PE',
  'PR',
  'UY',
  'VE',
]);

/**
 * A reservation's own language field as reservation systems write it ("es", "ES-mx", "es_419", "spa", "Spanish",
 * "Español"; "en", "en-GB", "eng", "English", "Inglés") as one of the desk's languages; undefined when it names
 * another language or nothing the app recognises (the phone's country then decides).
 */
export function languageOfField(value: string | undefined): Language | undefined {
  if (value === undefined) return undefined;
  const text = value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .trim()
    .toLowerCase();
  if (/^(es|spa)([-_][a-z0-9]+)*$/.test(text) || /^(spanish|espanol|castellano)$/.test(text)) return 'es-MX';
  if (/^(en|eng)([-_][a-z0-9]+)*$/.test(text) || /^(english|ingles)$/.test(text)) return 'en-US';
  return undefined;
}

/**
 * The guest's language: the reservation's own language field when it names es or en; otherwise the phone's country
 * (+52 and the other Spanish-speaking countries: es-MX; any other country: en-US); without either, en-US.
 */
export function guestLanguageOf(reservation: { language?: string | undefined; guestPhone?: string | undefined }): {
  guestLanguage: Language;
  guestLanguageFrom: GuestLanguageSource;
} {
  const own = languageOfField(reservation.language);
  if (own !== undefined) return { guestLanguage: own, guestLanguageFrom: 'reservation' };
  const country =
    reservation.guestPhone === undefined ? undefined : parsePhoneNumberFromString(reservation.guestPhone)?.country;
  if (country !== undefined)
    return { guestLanguage: SPANISH_SPEAKING.has(country) ? 'es-MX' : 'en-US', guestLanguageFrom: 'phone' };
  return { guestLanguage: 'en-US', guestLanguageFrom: 'default' };
}
