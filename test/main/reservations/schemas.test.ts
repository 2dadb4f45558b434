// The shared reservation schemas (shared/reservations): the view, the amount's representation, phones, the search text.
import { describe, expect, it } from 'vitest';
import { toCents } from '../../../shared/payments';
import {
  BalanceDue,
  CsvImportResult,
  E164Phone,
  RESERVATION_CSV_COLUMNS,
  ReservationQuery,
  guestLanguageOf,
  languageOfField,
  ReservationView,
  toE164,
} from '../../../shared/reservations';
import { reservation } from './helpers';

const messageOf = (result: {
  success: boolean;
  error?: { issues: { message: string; path: PropertyKey[] }[] };
}): string | undefined => (result.success ? undefined : result.error?.issues[0]?.message);

describe('ReservationView', () => {
  it('accepts a complete reservation and drops fields the contract does not name', () => {
    const parsed = ReservationView.parse({ ...reservation(), internalNote: 'VIP', cardNumber: '4242424242424242' });
    expect(parsed).toEqual(reservation());
    expect(parsed).not.toHaveProperty('cardNumber');
  });

  it('accepts a reservation without phone or e-mail', () => {
    const bare: Partial<ReservationView> = reservation();
    delete bare.guestPhone;
    delete bare.guestEmail;
    expect(ReservationView.parse(bare)).not.toHaveProperty('guestPhone');
  });

  it('carries the balance in whole cents, as every amount of the contract', () => {
    expect(ReservationView.parse(reservation({ balanceDueCents: 1_245_050 })).balanceDueCents).toBe(1_245_050);
    expect(ReservationView.safeParse(reservation({ balanceDueCents: 12_450.5 })).success).toBe(false);
    expect(ReservationView.safeParse(reservation({ balanceDueCents: -1 })).success).toBe(false);
    expect(ReservationView.safeParse(reservation({ balanceDueCents: 100_000_000 })).success).toBe(false);
    // A source's balance in major units is checked as such, then converted once.
    expect(toCents(BalanceDue.parse(12_450.5))).toBe(1_245_050);
  });

  it.each([
    [0, undefined],
    [999_999.99, undefined],
    [-1, /cannot be negative/],
    [10.005, /two decimals/],
    [1_000_000, /at most 999,999.99/],
    [Number.NaN, /as a number/],
    ['100.00', /as a number/],
  ])('balance due %s', (value, message) => {
    const result = BalanceDue.safeParse(value);
    if (message === undefined) expect(result.success).toBe(true);
    else expect(messageOf(result)).toMatch(message);
  });

  it('refuses a currency other than usd or mxn, in lower case as the service wants it', () => {
    expect(messageOf(ReservationView.safeParse(reservation({ currency: 'eur' as 'usd' })))).toMatch(/USD or MXN/);
    expect(ReservationView.safeParse(reservation({ currency: 'MXN' as 'mxn' })).success).toBe(false);
  });

  it.each([
    ['2026-02-30', 'checkIn'],
    ['14/03/2026', 'checkIn'],
    ['2026-03-14T10:00:00Z', 'checkIn'],
  ])('refuses the date %s with the format to use', (date, field) => {
    const result = ReservationView.safeParse(reservation({ checkIn: date }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
    expect(messageOf(result)).toMatch(/YYYY-MM-DD/);
  });

  it('refuses a check-out before check-in, and allows a same-day stay', () => {
    const result = ReservationView.safeParse(reservation({ checkIn: '2026-12-04', checkOut: '2026-12-01' }));
    expect(result.error?.issues[0]?.path).toEqual(['checkOut']);
    expect(messageOf(result)).toMatch(/cannot be before the check-in/);
    expect(ReservationView.safeParse(reservation({ checkIn: '2026-12-04', checkOut: '2026-12-04' })).success).toBe(
      true,
    );
  });

  it('reports a wrong check-in date once, not also as a check-out before it', () => {
    const result = ReservationView.safeParse(reservation({ checkIn: 'mañana', checkOut: '2026-12-04' }));
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['checkIn']]);
  });

  it('uses the payment ReservationId rules for the confirmation number', () => {
    expect(messageOf(ReservationView.safeParse(reservation({ confirmationNumber: '  ' })))).toMatch(
      /reservation number is missing/,
    );
    expect(messageOf(ReservationView.safeParse(reservation({ confirmationNumber: 'X'.repeat(65) })))).toMatch(
      /at most 64/,
    );
  });

  it('refuses a malformed e-mail', () => {
    expect(messageOf(ReservationView.safeParse(reservation({ guestEmail: 'ana.lopez@' })))).toMatch(
      /not an e-mail address/,
    );
  });
});

describe('phones', () => {
  it.each(['+529981234567', '+12015550123', '+525512345678'])('E164Phone accepts %s', (phone) => {
    expect(E164Phone.safeParse(phone).success).toBe(true);
  });

  it.each([
    ['+52 998 123 4567', /country code/],
    ['9981234567', /country code/],
    ['+52998', /country code/],
    ['+5299812345', /does not exist/],
  ])('E164Phone refuses %s', (phone, message) => {
    expect(messageOf(E164Phone.safeParse(phone))).toMatch(message);
  });

  it.each([
    ['+52 998 123 4567', '+529981234567'],
    ['+52 (55) 1234-5678', '+525512345678'],
    ['+1 (201) 555-0123', '+12015550123'],
    ['  +12015550123 ', '+12015550123'],
  ])('toE164(%s) is %s', (typed, e164) => {
    expect(toE164(typed)).toBe(e164);
  });

  it.each(['998 123 4567', '+52 998', 'call me', ''])(
    'toE164(%s) guesses no country and refuses what cannot be a number',
    (typed) => {
      expect(toE164(typed)).toBeUndefined();
    },
  );
});

describe('ReservationQuery', () => {
  it('trims the text', () => {
    expect(ReservationQuery.parse({ text: '  Núñez  ' })).toEqual({ text: 'Núñez' });
  });

  it.each([
    [{ text: 'a' }, /at least 2/],
    [{ text: '   a   ' }, /at least 2/],
    [{ text: 'x'.repeat(101) }, /at most 100/],
    [{ text: 42 }, /Type a confirmation number/],
    [{}, /Type a confirmation number/],
  ])('refuses %j', (query, message) => {
    expect(messageOf(ReservationQuery.safeParse(query))).toMatch(message);
  });

  it('accepts 100 characters, and refuses fields it does not name', () => {
    expect(ReservationQuery.safeParse({ text: 'x'.repeat(100) }).success).toBe(true);
    expect(ReservationQuery.safeParse({ text: 'ana', hotel: 'x' }).success).toBe(false);
  });
});

describe("the guest's language", () => {
  it.each([
    ['es', 'es-MX'],
    ['ES_mx', 'es-MX'],
    ['es-419', 'es-MX'],
    ['spa', 'es-MX'],
    ['Español', 'es-MX'],
    ['en', 'en-US'],
    ['en-GB', 'en-US'],
    ['English', 'en-US'],
    ['inglés', 'en-US'],
    ['fr', undefined],
    ['', undefined],
    ['estonian', undefined],
  ])('the field %j reads as %s', (field, language) => {
    expect(languageOfField(field)).toBe(language);
  });

  it.each([
    ['+529981234567', 'es-MX'],
    ['+34612345678', 'es-MX'],
    ['+5491123456789', 'es-MX'],
    ['+18095551234', 'es-MX'],
    ['+17875551234', 'es-MX'],
    ['+14155550143', 'en-US'],
    ['+447911123456', 'en-US'],
  ])("comes from the phone's country without a language field: %s → %s", (guestPhone, language) => {
    expect(guestLanguageOf({ guestPhone })).toEqual({ guestLanguage: language, guestLanguageFrom: 'phone' });
  });

  it("prefers the reservation's own language, and is en-US by default", () => {
    expect(guestLanguageOf({ language: 'en', guestPhone: '+529981234567' })).toEqual({
      guestLanguage: 'en-US',
      guestLanguageFrom: 'reservation',
    });
    expect(guestLanguageOf({ language: 'de', guestPhone: '+529981234567' })).toEqual({
      guestLanguage: 'es-MX',
      guestLanguageFrom: 'phone',
    });
    expect(guestLanguageOf({})).toEqual({ guestLanguage: 'en-US', guestLanguageFrom: 'default' });
  });
});

describe('CSV import contract', () => {
  it('lists the columns, required ones first, with examples that the schema accepts', () => {
    const example = Object.fromEntries(RESERVATION_CSV_COLUMNS.map((column) => [column.name, column.example]));
    expect(RESERVATION_CSV_COLUMNS.filter((c) => c.required).map((c) => c.name)).toEqual([
      'confirmation_number',
      'guest_name',
      'check_in',
      'check_out',
      'hotel_name',
      'balance_due',
      'currency',
    ]);
    expect(
      ReservationView.safeParse({
        confirmationNumber: example.confirmation_number,
        guestName: example.guest_name,
        checkIn: example.check_in,
        checkOut: example.check_out,
        hotelName: example.hotel_name,
        balanceDueCents: toCents(BalanceDue.parse(Number(example.balance_due))),
        currency: example.currency,
        guestPhone: toE164(example.guest_phone ?? ''),
        guestEmail: example.guest_email,
        guestLanguage: languageOfField(example.guest_language),
        guestLanguageFrom: 'reservation',
      }).success,
    ).toBe(true);
  });

  it('an import result is either counts or at least one issue', () => {
    expect(CsvImportResult.safeParse({ ok: true, created: 2, updated: 1 }).success).toBe(true);
    expect(
      CsvImportResult.safeParse({
        ok: false,
        errors: [{ line: 3, column: 'currency', code: 'invalid_value', message: 'x' }],
        moreErrors: 0,
      }).success,
    ).toBe(true);
    expect(
      CsvImportResult.safeParse({ ok: false, errors: [{ line: 3, column: 'currency', message: 'x' }], moreErrors: 0 })
        .success,
    ).toBe(false);
    expect(CsvImportResult.safeParse({ ok: false, errors: [], moreErrors: 0 }).success).toBe(false);
  });
});
