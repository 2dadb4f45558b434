// Card numbers and CVVs as people really type or paste them, and texts that look close but are not card data.
// The numbers are the simulator's test cards and the card brands' published test numbers (never a real card).

/** A test card number written one way, with its digits. */
export interface Spelling {
  name: string;
  text: string;
  digits: string;
}

const VISA = '4242424242424242';
const CHALLENGE = '4000000000003220';
const MASTERCARD = '5555555555554444';
const AMEX = '378282246310005';
const DINERS = '36227206271667';
const FULL_WIDTH = (digits: string): string => [...digits].map((d) => String.fromCodePoint(0xff10 + Number(d))).join('');
const ARABIC_INDIC = (digits: string): string => [...digits].map((d) => String.fromCodePoint(0x0660 + Number(d))).join('');
const groups = (digits: string, separator: string, sizes = [4, 4, 4, 4]): string => {
  const out: string[] = [];
  let at = 0;
  for (const size of sizes) {
    out.push(digits.slice(at, at + size));
    at += size;
  }
  return out.join(separator);
};

/** 20 spellings of a card number: every one must be found. */
export const CARD_SPELLINGS: readonly Spelling[] = [
  { name: 'plain digits', text: VISA, digits: VISA },
  { name: 'spaces', text: groups(VISA, ' '), digits: VISA },
  { name: 'hyphens', text: groups(MASTERCARD, '-'), digits: MASTERCARD },
  { name: 'dots', text: groups(VISA, '.'), digits: VISA },
  { name: 'double spaces', text: groups(CHALLENGE, '  '), digits: CHALLENGE },
  { name: 'slashes', text: groups(VISA, '/'), digits: VISA },
  { name: 'underscores', text: groups(MASTERCARD, '_'), digits: MASTERCARD },
  { name: 'commas', text: groups(VISA, ','), digits: VISA },
  { name: 'en dashes', text: groups(CHALLENGE, '\u2013'), digits: CHALLENGE },
  { name: 'em dashes', text: groups(VISA, '\u2014'), digits: VISA },
  { name: 'minus signs and figure dashes', text: `${VISA.slice(0, 4)}\u2212${VISA.slice(4, 8)}\u2012${VISA.slice(8, 12)}\u2212${VISA.slice(12)}`, digits: VISA },
  { name: 'zero-width spaces', text: groups(MASTERCARD, '\u200B'), digits: MASTERCARD },
  { name: 'zero-width joiner, non-joiner, word joiner, BOM and soft hyphen', text: `4242\u200D4242\u200C42\u206042\uFEFF42\u00AD42`, digits: VISA },
  { name: 'no-break and thin spaces', text: `${VISA.slice(0, 4)}\u00A0${VISA.slice(4, 8)}\u202F${VISA.slice(8, 12)}\u2009${VISA.slice(12)}`, digits: VISA },
  { name: 'full-width digits', text: FULL_WIDTH(VISA), digits: VISA },
  { name: 'full-width digits and full-width hyphens', text: groups(FULL_WIDTH(CHALLENGE), '\uFF0D'), digits: CHALLENGE },
  { name: 'Arabic-Indic digits', text: ARABIC_INDIC(MASTERCARD), digits: MASTERCARD },
  { name: 'American Express, 4-6-5', text: groups(AMEX, ' ', [4, 6, 5]), digits: AMEX },
  { name: 'Diners, spaced dashes', text: groups(DINERS, ' - ', [4, 6, 4]), digits: DINERS },
  { name: 'mixed separators, tab and line break', text: `4242.4242\t4242\n4242`, digits: VISA },
];

/**
 * More spellings, found since the 20 above: digits that are not decimal digits but fold to them (superscripts,
 * subscripts, circled), other scripts' digits, columns lined up with many spaces, Windows line breaks with a blank line
 * between the groups, and the separators of other scripts.
 */
export const MORE_CARD_SPELLINGS: readonly Spelling[] = [
  { name: 'superscript digits', text: [...VISA].map((d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(d)]).join(''), digits: VISA },
  { name: 'subscript digits', text: [...MASTERCARD].map((d) => '₀₁₂₃₄₅₆₇₈₉'[Number(d)]).join(''), digits: MASTERCARD },
  { name: 'circled digits', text: [...VISA].map((d) => (d === '0' ? '⓪' : String.fromCodePoint(0x2460 + Number(d) - 1))).join(''), digits: VISA },
  { name: 'Devanagari and Arabic-Indic digits mixed', text: `${[...VISA.slice(0, 8)].map((d) => String.fromCodePoint(0x0966 + Number(d))).join('')}${ARABIC_INDIC(VISA.slice(8))}`, digits: VISA },
  { name: 'mathematical bold digits', text: [...CHALLENGE].map((d) => String.fromCodePoint(0x1d7ce + Number(d))).join(''), digits: CHALLENGE },
  { name: 'four spaces (columns lined up)', text: groups(VISA, '    '), digits: VISA },
  { name: 'spaced dashes with three spaces', text: groups(MASTERCARD, '   -   '), digits: MASTERCARD },
  { name: 'Windows line breaks with a blank line between', text: groups(VISA, '\r\n\r\n'), digits: VISA },
  { name: 'three line breaks between two halves', text: `${VISA.slice(0, 4)} ${VISA.slice(4, 8)}\n\n\n${VISA.slice(8, 12)} ${VISA.slice(12)}`, digits: VISA },
  { name: 'next-line characters (NEL)', text: groups(CHALLENGE, '\u0085'), digits: CHALLENGE },
  { name: 'hyphenation points and ideographic spaces', text: `${VISA.slice(0, 4)}\u2027${VISA.slice(4, 8)}\u3000${VISA.slice(8, 12)}\u2043${VISA.slice(12)}`, digits: VISA },
];

/** CVVs after their name, with or without a colon: the digits must be found. */
export const CVV_PHRASES: readonly { text: string; value: string }[] = [
  { text: 'cvv 123', value: '123' },
  { text: 'CVV: 123', value: '123' },
  { text: 'cvc2=1234', value: '1234' },
  { text: 'CVV2 #987', value: '987' },
  { text: 'código de seguridad 123', value: '123' },
  { text: 'Codigo de seguridad: 456', value: '456' },
  { text: 'cód. seguridad 321', value: '321' },
  { text: 'security code 123', value: '123' },
  { text: 'the CVV is 741', value: '741' },
  { text: 'el cvv es 852', value: '852' },
  { text: 'CVC (963)', value: '963' },
  { text: 'cvv\u200B: \uFF11\uFF12\uFF13', value: '\uFF11\uFF12\uFF13' },
  { text: 'card verification value 4321', value: '4321' },
  { text: 'código de verificación 159', value: '159' },
  // The common misspelling, and a comma, semicolon, slash or arrow where the colon would be.
  { text: 'ccv 357', value: '357' },
  { text: 'CVV, 246', value: '246' },
  { text: 'cvv; 975', value: '975' },
  { text: 'CVV/864', value: '864' },
  { text: 'cvv -> 531', value: '531' },
  { text: 'CVC → 1357', value: '1357' },
];

/** Text that must not be taken for card data. */
export const NEAR_MISSES: readonly { name: string; text: string }[] = [
  { name: '11 digits', text: '42424242424' },
  { name: 'a 16-digit number failing Luhn', text: '4242424242424241' },
  { name: 'a grouped 16-digit number failing Luhn', text: '4242 4242 4242 4241' },
  { name: 'a 20-digit run (no card is that long)', text: '42424242424242424242' },
  { name: 'a Mexican mobile in international form', text: 'Tel. +52 998 123 4567' },
  { name: 'a Mexican mobile with its 1', text: '+52 1 998 123 4567' },
  { name: 'an E.164 phone', text: '+529981234567' },
  // 12 digits passing Luhn, and a Mastercard prefix: too short for a Mastercard, so a phone (a demo guest's).
  { name: 'a phone with its country code but no +', text: '523222241987 or 52 322 224 1987' },
  { name: 'a US phone', text: '+1 (201) 555-0123' },
  { name: 'two local phones', text: 'casa 998 123 4567, oficina 55 1234 5678' },
  { name: 'a list of phones', text: '55 1234 5678 / 55 8765 4321 - 998 123 4567' },
  { name: 'phones one per line', text: '5512345678 / 55 1234 5678 / 55-1234-5678\n998 123 4567\n55 8765 4321' },
  { name: 'amounts', text: '12,450.00 MXN; $1,234,567.89 then 3,200.00 1,250.50 and 450.25' },
  { name: 'an amount in cents', text: '1245000' },
  { name: 'dates', text: 'del 2026-03-14 al 2026-03-18; 14/03/2026 18/03/2026; 2026-03-14 2026-03-18' },
  { name: 'a date and time', text: '2026-03-01T12:30:45.123Z' },
  { name: 'reservation numbers', text: 'CUN-6B3D8F, MEX-2H8R5T y SJD-3B7N1C' },
  { name: 'a UUID', text: '550e8400-e29b-41d4-a716-446655440000' },
  { name: 'a payment id', text: 'pay_0123456789012345678901234567abcd' },
  { name: 'a room and a CVV-less note', text: 'Habitación 1204, llegada tarde; cvv pendiente' },
  { name: 'a security code too short or too long', text: 'security code 12; cvv 12345' },
  { name: 'a postal code', text: 'código postal 77500' },
  // Phones of Colombia, Venezuela, Ecuador and Paraguay written with their country code and no +: 12 digits passing
  // Luhn, and a Maestro prefix (56–59) — but Maestro cards that short are rarer than these phones.
  { name: 'a Colombian mobile with its country code but no +', text: 'cel 573227812753 / 57 300 123 4562' },
  { name: 'a Venezuelan mobile with its country code but no +', text: '584121234564' },
  { name: 'an Ecuadorian mobile with its country code but no +', text: '593 99 123 4562' },
  { name: 'a Paraguayan mobile with its country code but no +', text: '595981123457' },
  // CLABEs (Mexican bank accounts, 18 digits with their own check digit) that pass Luhn too.
  { name: 'a CLABE', text: 'Reembolso a la CLABE 012180010000000063' },
  { name: 'a CLABE as banks print it (3-3-11-1)', text: 'CLABE 012 180 01000000008 9' },
  { name: 'a CLABE of a bank whose code starts with 6', text: 'CLABE 646180150000000153' },
];
