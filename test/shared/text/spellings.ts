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
const FULL_WIDTH = (digits: string): string =>
  [...digits].map((d) => String.fromCodePoint(0xff10 + Number(d))).join('');
const ARABIC_INDIC = (digits: string): string =>
  [...digits].map((d) => String.fromCodePoint(0x0660 + Number(d))).join('');
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
  {
    name: 'minus signs and figure dashes',
    text: `${VISA.slice(0, 4)}\u2212${VISA.slice(4, 8)}\u2012${VISA.slice(8, 12)}\u2212${VISA.slice(12)}`,
    digits: VISA,
  },
  { name: 'zero-width spaces', text: groups(MASTERCARD, '\u200B'), digits: MASTERCARD },
  {
    name: 'zero-width joiner, non-joiner, word joiner, BOM and soft hyphen',
    text: `4242\u200D4242\u200C42\u206042\uFEFF42\u00AD42`,
    digits: VISA,
  },
  {
    name: 'no-break and thin spaces',
    text: `${VISA.slice(0, 4)}\u00A0${VISA.slice(4, 8)}\u202F${VISA.slice(8, 12)}\u2009${VISA.slice(12)}`,
    digits: VISA,
  },
  { name: 'full-width digits', text: FULL_WIDTH(VISA), digits: VISA },
  {
    name: 'full-width digits and full-width hyphens',
    text: groups(FULL_WIDTH(CHALLENGE), '\uFF0D'),
    digits: CHALLENGE,
  },
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
  {
    name: 'circled digits',
    text: [...VISA].map((d) => (d === '0' ? '⓪' : String.fromCodePoint(0x2460 + Number(d) - 1))).join(''),
    digits: VISA,
  },
  {
    name: 'Devanagari and Arabic-Indic digits mixed',
    text: `${[...VISA.slice(0, 8)].map((d) => String.fromCodePoint(0x0966 + Number(d))).join('')}${ARABIC_INDIC(VISA.slice(8))}`,
    digits: VISA,
  },
  {
    name: 'mathematical bold digits',
    text: [...CHALLENGE].map((d) => String.fromCodePoint(0x1d7ce + Number(d))).join(''),
    digits: CHALLENGE,
  },
  { name: 'four spaces (columns lined up)', text: groups(VISA, '    '), digits: VISA },
  { name: 'spaced dashes with three spaces', text: groups(MASTERCARD, '   -   '), digits: MASTERCARD },
  { name: 'Windows line breaks with a blank line between', text: groups(VISA, '\r\n\r\n'), digits: VISA },
  {
    name: 'three line breaks between two halves',
    text: `${VISA.slice(0, 4)} ${VISA.slice(4, 8)}\n\n\n${VISA.slice(8, 12)} ${VISA.slice(12)}`,
    digits: VISA,
  },
  { name: 'next-line characters (NEL)', text: groups(CHALLENGE, '\u0085'), digits: CHALLENGE },
  {
    name: 'hyphenation points and ideographic spaces',
    text: `${VISA.slice(0, 4)}\u2027${VISA.slice(4, 8)}\u3000${VISA.slice(8, 12)}\u2043${VISA.slice(12)}`,
    digits: VISA,
  },
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

const JCB = '3530111333300000';
const DISCOVER = '6011111111111117';
const MASTERCARD_2_SERIES = '2223003122003222';
const UNIONPAY = '6200000000000005';
const VISA_13 = '4222222222222';
const VISA_19 = '4000000000000000006';
const MAESTRO = '6759649826438453';
const VISA_ONES = '4111111111111111';
const MASTERCARD_ZEROS = '5105105105105100';

/** Each digit of a number written with a look-alike letter where one stands: O or o for 0, l or I for 1. */
const withLetters = (text: string, zero: string, one: string): string =>
  text.replaceAll('0', zero).replaceAll('1', one);

/**
 * Card numbers as people say and write them beyond plain groups: dictated groups (a comma or a full stop after each),
 * any punctuation or symbol between the groups, numbers that look like amounts, against letters, letters standing for
 * digits, the card's brands and lengths beyond Visa and Mastercard.
 */
export const SPOKEN_CARD_SPELLINGS: readonly Spelling[] = [
  { name: 'dictated groups with commas', text: groups(VISA, ', '), digits: VISA },
  { name: 'dictated groups with full stops', text: groups(VISA, '. '), digits: VISA },
  { name: 'dictated groups with ellipses', text: groups(MASTERCARD, '... '), digits: MASTERCARD },
  { name: 'dictated groups with the ellipsis character', text: groups(VISA, '…'), digits: VISA },
  { name: 'dictated groups on their own lines with a comma', text: groups(VISA, ',\n'), digits: VISA },
  { name: 'dictated in pairs', text: groups(VISA, ' ', [2, 2, 2, 2, 2, 2, 2, 2]), digits: VISA },
  {
    name: 'dictated in pairs with commas',
    text: groups(MASTERCARD, ', ', [2, 2, 2, 2, 2, 2, 2, 2]),
    digits: MASTERCARD,
  },
  { name: 'dictated in threes', text: groups(VISA, ' ', [3, 3, 3, 3, 4]), digits: VISA },
  { name: 'dictated digit by digit', text: [...VISA].join(' '), digits: VISA },
  { name: 'digit by digit with dashes', text: [...CHALLENGE].join('-'), digits: CHALLENGE },
  { name: 'semicolons', text: groups(VISA, ';'), digits: VISA },
  { name: 'colons', text: groups(MASTERCARD, ':'), digits: MASTERCARD },
  { name: 'plus signs', text: groups(VISA, '+'), digits: VISA },
  { name: 'asterisks', text: groups(MASTERCARD, '*'), digits: MASTERCARD },
  { name: 'apostrophes', text: groups(VISA, "'"), digits: VISA },
  { name: 'right single quotation marks', text: groups(VISA, '\u2019'), digits: VISA },
  { name: 'equals signs', text: groups(CHALLENGE, '='), digits: CHALLENGE },
  { name: 'number signs', text: groups(VISA, '#'), digits: VISA },
  { name: 'pipes', text: groups(MASTERCARD, '|'), digits: MASTERCARD },
  { name: 'tildes', text: groups(VISA, '~'), digits: VISA },
  { name: 'bullets with spaces', text: groups(VISA, ' \u2022 '), digits: VISA },
  { name: 'square brackets', text: `[${groups(VISA, '] [')}]`, digits: VISA },
  { name: 'parentheses', text: `(${groups(MASTERCARD, ')(')})`, digits: MASTERCARD },
  { name: 'braces', text: `{${groups(VISA, '}{')}}`, digits: VISA },
  { name: 'double quotes around each group', text: `"${groups(VISA, '" "')}"`, digits: VISA },
  { name: 'guillemets', text: `«${groups(CHALLENGE, '» «')}»`, digits: CHALLENGE },
  { name: 'double hyphens', text: groups(VISA, '--'), digits: VISA },
  { name: 'full-width commas', text: groups(VISA, '\uFF0C'), digits: VISA },
  { name: 'Arabic commas', text: groups(MASTERCARD, '\u060C'), digits: MASTERCARD },
  { name: 'commas and zero-width spaces', text: groups(VISA, ',\u200B'), digits: VISA },
  { name: 'spaced slashes', text: groups(VISA, ' / '), digits: VISA },
  { name: 'two tabs (a pasted table)', text: groups(MASTERCARD, '\t\t'), digits: MASTERCARD },
  { name: 'like an amount, thousands by commas', text: groups(VISA, ',', [1, 3, 3, 3, 3, 3]), digits: VISA },
  { name: 'like an amount, thousands by dots', text: groups(MASTERCARD, '.', [1, 3, 3, 3, 3, 3]), digits: MASTERCARD },
  { name: 'like an amount with decimals', text: `${groups(VISA, ',', [1, 3, 3, 3, 3, 3])}.00`, digits: VISA },
  { name: 'against a word before', text: `card${VISA}`, digits: VISA },
  { name: 'against a letter after', text: `${VISA}x`, digits: VISA },
  { name: 'between words', text: `tarjeta${groups(MASTERCARD, '-')}vence`, digits: MASTERCARD },
  { name: 'followed by its expiry after a dot', text: `${groups(VISA, ' ')}.12/28`, digits: VISA },
  { name: 'keycap emoji digits', text: [...VISA].map((d) => `${d}\uFE0F\u20E3`).join(''), digits: VISA },
  { name: 'letter O for zero', text: groups(withLetters(CHALLENGE, 'O', '1'), ' '), digits: CHALLENGE },
  {
    name: 'lowercase o for zero and l for one',
    text: groups(withLetters(MASTERCARD_ZEROS, 'o', 'l'), '-'),
    digits: MASTERCARD_ZEROS,
  },
  { name: 'capital I for one', text: withLetters(VISA_ONES, '0', 'I'), digits: VISA_ONES },
  { name: 'Cyrillic О for zero', text: groups(withLetters(CHALLENGE, '\u041E', '1'), ' '), digits: CHALLENGE },
  { name: 'JCB with plus signs', text: groups(JCB, '+'), digits: JCB },
  { name: 'Discover dictated with commas', text: groups(DISCOVER, ', '), digits: DISCOVER },
  { name: 'Mastercard 2-series with dots', text: groups(MASTERCARD_2_SERIES, '.'), digits: MASTERCARD_2_SERIES },
  { name: 'UnionPay with colons', text: groups(UNIONPAY, ': '), digits: UNIONPAY },
  { name: 'a 13-digit Visa', text: groups(VISA_13, ' ', [4, 3, 3, 3]), digits: VISA_13 },
  { name: 'a 19-digit Visa', text: groups(VISA_19, ' ', [4, 4, 4, 4, 3]), digits: VISA_19 },
  { name: 'Maestro with asterisks', text: groups(MAESTRO, ' * '), digits: MAESTRO },
  { name: 'American Express dictated with commas', text: groups(AMEX, ', ', [4, 6, 5]), digits: AMEX },
  { name: 'Diners in quotes', text: `'${groups(DINERS, ' ', [4, 6, 4])}'`, digits: DINERS },
  { name: 'after a + (longer than a phone)', text: `+${VISA}`, digits: VISA },
  { name: 'after a phone with a +', text: `+52 998 123 4567 ${groups(VISA, ', ')}`, digits: VISA },
];

/** Every card spelling of the table: the 20 of the day, the folded digits, the spoken and written ones. */
export const ALL_CARD_SPELLINGS: readonly Spelling[] = [
  ...CARD_SPELLINGS,
  ...MORE_CARD_SPELLINGS,
  ...SPOKEN_CARD_SPELLINGS,
];

/**
 * Security codes as people say and write them: dotted and spaced abbreviations, "código" alone, abbreviated Spanish,
 * the digits on the back, the words between the name and the number, the number before its name.
 */
export const SPOKEN_CVV_PHRASES: readonly { text: string; value: string }[] = [
  { text: 'c.v.v. 123', value: '123' },
  { text: 'C.V.V.: 456', value: '456' },
  { text: 'c.v.c. 7890', value: '7890' },
  { text: 'C V V 321', value: '321' },
  { text: 'cv2 159', value: '159' },
  { text: 'código 123', value: '123' },
  { text: 'Código: 4567', value: '4567' },
  { text: 'cod. seg. 123', value: '123' },
  { text: 'cód. seg.: 456', value: '456' },
  { text: 'cod seg 789', value: '789' },
  { text: 'código de seg. 654', value: '654' },
  { text: 'número de seguridad 852', value: '852' },
  { text: 'clave de seguridad 963', value: '963' },
  { text: 'the 3 digits on the back are 123', value: '123' },
  { text: 'the three digits on the back of the card: 741', value: '741' },
  { text: 'los 3 dígitos de atrás son 456', value: '456' },
  { text: 'dígitos de atrás: 789', value: '789' },
  { text: 'los números de atrás 258', value: '258' },
  { text: 'the 4 digits on the front are 1234', value: '1234' },
  { text: 'cvv: es el 123', value: '123' },
  { text: 'el código de seguridad es el 321', value: '321' },
  { text: 'security code is 1234', value: '1234' },
  { text: 'sec. code 357', value: '357' },
  { text: 'CID 2468', value: '2468' },
  { text: 'cvv es 1 2 3', value: '1 2 3' },
  { text: '123 es el cvv', value: '123' },
  { text: '4567 (cvv)', value: '4567' },
  { text: '987, el código de seguridad', value: '987' },
];

/** Everything a security code is written as, in the table: the phrases of the day and the spoken ones. */
export const ALL_CVV_PHRASES: readonly { text: string; value: string }[] = [...CVV_PHRASES, ...SPOKEN_CVV_PHRASES];

/** Texts an agent writes every day that hold numbers and must pass: phones with a +, dates, amounts, ids, references. */
export const DAILY_LOOK_ALIKES: readonly { name: string; text: string }[] = [
  { name: 'a Mexican mobile with a +', text: '+52 998 123 4567' },
  { name: 'a Mexican mobile with a +, area in brackets', text: '+52 (998) 123-4567' },
  { name: 'two phones with a + in a list', text: '+1 201 555 0123, +52 55 1234 5678' },
  { name: 'three phones with a + in a list', text: '+52 998 123 4567 / +52 55 8765 4321 / +1 (201) 555-0123' },
  { name: 'a London phone with a +', text: '+44 20 7946 0958' },
  { name: 'a date, ISO', text: '2026-11-27' },
  { name: 'a date, day first', text: '27/11/2026' },
  { name: 'a date with dots', text: '27.11.2026' },
  { name: 'a stay from date to date', text: '2026-11-27 al 2026-11-30' },
  { name: 'a date and a time', text: '27/11/2026 10:42' },
  { name: 'an amount with two decimals', text: '12,450.00' },
  { name: 'amounts with currency', text: '$12,450.00 MXN y 1,234,567.89' },
  { name: 'amounts in a list', text: '12,450.00, 1,250.50, 3,200.00, 450.25' },
  { name: 'a reservation number', text: 'CUN-6B3D8F' },
  { name: 'reservation numbers in a list', text: 'CUN-6B3D8F, MEX-2H8R5T, SJD-3B7N1C' },
  { name: 'a short reference', text: '9D21-F5A0' },
  { name: 'short references in a list', text: 'ref. 9D21-F5A0 / 7C4E-1B2D' },
  { name: 'a room, guests and nights', text: 'Habitación 1204, 2 adultos, 3 noches' },
  { name: 'the last four digits', text: 'la tarjeta termina en 4242' },
  { name: 'a postal code after código', text: 'código postal 77500' },
  { name: 'a flight and its time', text: 'vuelo AM 0123 a las 10:42' },
  { name: 'a note about the CVV with no number', text: 'el cvv no se guarda; pedirlo de nuevo' },
  { name: 'a dictated 16-digit number failing Luhn', text: '4242, 4242, 4242, 4241' },
  // Each of these holds a window of groups that passes Luhn as a card (551234100599812 3…, 4040002500001250): a comma or
  // a slash among spaces lists two numbers, and no card is read across it.
  { name: 'two local phones with a comma between', text: '55 1234 1005, 998 123 4567' },
  { name: 'two local phones with a slash between', text: '55 8765 1000/998 765 4321' },
  { name: 'amounts without decimals in a list', text: '404,000 250,000 1,250' },
  {
    name: 'a whole sentence of an agent',
    text: 'Cobro de 12,450.00 MXN el 27/11/2026 a las 10:42, ref 9D21-F5A0, reserva CUN-6B3D8F, tel +52 998 123 4567',
  },
];

/**
 * The digits a person would read in a text, found without the detector under test: any decimal digit (NFKC first), and
 * O, o, l, I and Cyrillic О where they may stand for digits. Everything else dropped.
 */
export function readDigits(text: string): string {
  return [...text.normalize('NFKC')]
    .map((char) => {
      if (/\p{Nd}/u.test(char)) {
        const code = char.codePointAt(0) ?? 0;
        let zero = code;
        while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
        return String(code - zero);
      }
      return /[Oo\u041E]/.test(char) ? '0' : /[lI]/.test(char) ? '1' : '';
    })
    .join('');
}

/** Whether most of a card number is still readable in a text: either end of it, 8 digits. */
export const holdsCard = (text: string, digits: string): boolean => {
  const read = readDigits(text);
  return read.includes(digits.slice(0, 8)) || read.includes(digits.slice(-8));
};
