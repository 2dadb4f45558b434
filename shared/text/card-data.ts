/**
 * The one card-data detector, used wherever text is accepted, logged or audited: card numbers (12–19 digits passing
 * Luhn, however they are spelled; under 14 digits, of a known brand too) and security codes after their name. Plain
 * TypeScript: no Node, no DOM.
 */
import cardValidator from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10.js';
import { isValidPhoneNumber } from 'libphonenumber-js';

export const MIN_CARD_DIGITS = 12;
export const MAX_CARD_DIGITS = 19;
/** Inside a longer run of digit groups, a card is looked for only among windows of at least this many digits. */
const MIN_DIGITS_INSIDE_A_RUN = 14;
/** The longest phone number (E.164): a run right after a + and no longer than this is a phone, not a card. */
const MAX_PHONE_DIGITS = 15;

export type CardDataKind = 'card_number' | 'security_code';

/** Where card data is in a text: UTF-16 offsets in the text as given, [start, end). A security code: its digits only. */
export interface CardDataMatch {
  kind: CardDataKind;
  start: number;
  end: number;
}

/**
 * Below this many digits, passing Luhn is not enough: the number must also be a card of a known brand and of a length
 * that brand issues (card-validator), and not a phone number written with its country code and no + (libphonenumber-js).
 * Phone numbers with their country code are 11 to 13 digits, and one in ten passes Luhn; the only cards that short are
 * Maestro's, whose prefixes (56–59, 6…) are also the country codes of Colombia, Venezuela, Ecuador, Paraguay…
 */
const MIN_DIGITS_FOR_LUHN_ALONE = 14;

/** 12 to 19 ASCII digits passing Luhn (card-validator's check); under 14, a known brand's card of that length that is not a phone number too. */
export function isCardNumberDigits(digits: string): boolean {
  if (digits.length < MIN_CARD_DIGITS || digits.length > MAX_CARD_DIGITS || !/^\d+$/.test(digits) || !luhn10(digits)) return false;
  return digits.length >= MIN_DIGITS_FOR_LUHN_ALONE || (cardValidator.number(digits).isValid && !isValidPhoneNumber(`+${digits}`));
}

const CLABE_WEIGHTS = [3, 7, 1] as const;

/**
 * A Mexican bank account number (CLABE) as banks print it: 18 digits in one group, or bank, place, account and check
 * digit (3-3-11-1), the last digit checking the first 17, and no known brand's card of 18 digits. One in ten CLABEs
 * passes Luhn too, and an agent may well write one in a refund note.
 */
function isClabe(groups: readonly Group[], digits: string): boolean {
  const layout = groups.map((group) => group.digits.length).join('-');
  if (digits.length !== 18 || (layout !== '18' && layout !== '3-3-11-1')) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(digits[i]) * (CLABE_WEIGHTS[i % 3] ?? 0)) % 10;
  return (10 - (sum % 10)) % 10 === Number(digits[17]) && !cardValidator.number(digits).isValid;
}

// --- Folding: one ASCII digit per decimal digit, invisible characters gone, look-alike separators made plain. ---

/** Removed before looking: zero-width characters (ZWSP, ZWNJ, ZWJ, word joiner, BOM), soft hyphen, bidi marks, combining marks. */
const INVISIBLE = /^[\p{Cf}\p{Mn}\p{Me}]$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;
/** Any number character: decimal digits of every script, and superscripts, subscripts, circled digits (which NFKC folds to digits). */
const ANY_NUMBER = /\p{N}/gu;
const ASCII_DIGIT = /[0-9]/g;

/**
 * The value of any Unicode decimal digit. Full-width and mathematical digits fold to ASCII under NFKC; for the other
 * scripts, Unicode encodes each set of decimal digits as ten consecutive code points from 0 to 9, so the value is the
 * distance from the start of the run of digits the code point is in, modulo 10.
 */
function digitValue(codePoint: number, char: string): string {
  const folded = char.normalize('NFKC');
  if (folded.length === 1 && folded >= '0' && folded <= '9') return folded;
  let zero = codePoint;
  while (zero > 0 && codePoint - zero < 100 && DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
  return String((codePoint - zero) % 10);
}

interface Folded {
  text: string;
  /** For each UTF-16 unit of `text`: where the character it came from starts and ends in the original. */
  from: number[];
  to: number[];
}

function fold(text: string): Folded {
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; ) {
    const codePoint = text.codePointAt(i) ?? 0;
    const width = codePoint > 0xffff ? 2 : 1;
    const char = text.slice(i, i + width);
    let folded: string;
    if (codePoint < 0x80) folded = char;
    else if (INVISIBLE.test(char)) folded = '';
    else if (DECIMAL_DIGIT.test(char)) folded = digitValue(codePoint, char);
    else folded = char.normalize('NFKC');
    for (let k = 0; k < folded.length; k++) {
      from.push(i);
      to.push(i + width);
    }
    out += folded;
    i += width;
  }
  return { text: out, from, to };
}

// --- What is not a card: ids, amounts and dates are hidden before digit runs are read. ---

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A hexadecimal id (pay_…, a hash): 20 or more hex characters, at least one a letter, standing alone. */
const HEX_ID = /(?<![0-9a-z])[0-9a-f]{20,}(?![0-9a-z])/gi;
/** 12,450.00 — 1,234,567.89 — 12450.00 (an amount's two decimals end the number). */
const AMOUNT = /(?<![\d.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+\.\d{1,2})(?![\d,]|\.\d)/g;
/** 2026-03-14, 2026/3/14, 14/03/2026, 03-14-2026: a day, with its four-digit year. */
const DATE = /(?<![\d.,/-])(?:(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})|(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}))(?![\d/-]|[.,]\d)/g;

const isYear = (text: string | undefined): boolean => Number(text) >= 1900 && Number(text) <= 2199;
const isMonthAndDay = (a: string | undefined, b: string | undefined): boolean => {
  const [x, y] = [Number(a), Number(b)];
  return (x >= 1 && x <= 12 && y >= 1 && y <= 31) || (y >= 1 && y <= 12 && x >= 1 && x <= 31);
};

const blank = (match: string): string => 'x'.repeat(match.length);

function hideNonCards(text: string): string {
  return text
    .replace(UUID, blank)
    .replace(HEX_ID, (match) => (/[a-f]/i.test(match) ? blank(match) : match))
    .replace(DATE, (match, y1?: string, m1?: string, d1?: string, a2?: string, b2?: string, y2?: string) =>
      (y1 !== undefined && isYear(y1) && isMonthAndDay(m1, d1)) || (y2 !== undefined && isYear(y2) && isMonthAndDay(a2, b2)) ? blank(match) : match,
    )
    .replace(AMOUNT, blank);
}

// --- Card numbers: runs of digit groups, with any separators between them. ---

/** Dashes of every kind (hyphen, en and em dash, figure dash, minus…), slashes, underscores. */
const JOINER = String.raw`[\p{Pd}\u2212\u2043\u02D7_/\\|\u2044\u2215]`;
/** Dots and middle dots, commas: between two digits, with no space after them (a space after is a sentence or a list). */
const POINT = String.raw`[.,\u00B7\u2022\u2027\u2219\u22C5\u30FB\u3001]`;
/** Spaces and tabs of every kind (no-break, thin, ideographic…), not line breaks. */
const SPACE = String.raw`[^\S\n\r\u2028\u2029]`;
/** A line break: LF, CR, CRLF (Windows), NEL, the line and paragraph separators. */
const LINE_BREAK = String.raw`(?:\r\n|[\n\r\u0085\u2028\u2029])`;
/**
 * Between two groups: up to three spaces, a joiner or a point. More spaces (columns lined up in a pasted text), line
 * breaks (up to two blank lines, "\r\n" as one) or a joiner with spaces around it ("4242 - 4242", "4242⏎4242") join
 * only groups of 4 to 6 digits, as cards are grouped: a list of phone numbers ("55 1234 5678 / 55 8765 4321", one per
 * line) is not read as one number.
 */
const SEPARATOR = String.raw`(?:${SPACE}{1,3}|${JOINER}|${POINT}|(?<=(?<!\d)\d{4,6})(?:${SPACE}{0,3}${JOINER}${SPACE}{0,3}|${SPACE}{4,}|(?:${SPACE}*${LINE_BREAK}){1,3}${SPACE}*)(?=\d{4,6}(?!\d)))`;
const DIGIT_RUN = new RegExp(String.raw`\d+(?:${SEPARATOR}\d+)*`, 'gu');

interface Group {
  digits: string;
  start: number;
  end: number;
}

/**
 * The cards in one run of digit groups: the whole run when it is one; else every window of whole groups that is one
 * (at least 14 digits: a card followed by its expiry or CVV, or after a reference), overlapping windows taken together.
 */
function cardsInRun(groups: readonly Group[], afterPlus: boolean): { start: number; end: number }[] {
  const first = groups[0];
  const last = groups.at(-1);
  const whole = groups.map((group) => group.digits).join('');
  if (first === undefined || last === undefined || whole.length < MIN_CARD_DIGITS || isClabe(groups, whole)) return [];
  const isPhone = (from: number, digits: number): boolean => from === 0 && afterPlus && digits <= MAX_PHONE_DIGITS;
  if (isCardNumberDigits(whole) && !isPhone(0, whole.length)) return [{ start: first.start, end: last.end }];
  const found: { start: number; end: number }[] = [];
  for (let i = 0; i < groups.length; i++) {
    let candidate = '';
    for (let j = i; j < groups.length; j++) {
      candidate += groups[j]?.digits ?? '';
      if (candidate.length > MAX_CARD_DIGITS) break;
      if (j - i + 1 === groups.length || candidate.length < MIN_DIGITS_INSIDE_A_RUN || isPhone(i, candidate.length) || !isCardNumberDigits(candidate)) continue;
      const start = groups[i]?.start ?? 0;
      const end = groups[j]?.end ?? 0;
      const previous = found.at(-1);
      if (previous !== undefined && start < previous.end) previous.end = Math.max(previous.end, end);
      else found.push({ start, end });
    }
  }
  return found;
}

function findCardNumbers(folded: string): { start: number; end: number }[] {
  const text = hideNonCards(folded);
  const found: { start: number; end: number }[] = [];
  for (const run of text.matchAll(DIGIT_RUN)) {
    const groups: Group[] = [];
    for (const group of run[0].matchAll(/\d+/g)) {
      groups.push({ digits: group[0], start: run.index + group.index, end: run.index + group.index + group[0].length });
    }
    found.push(...cardsInRun(groups, run.index > 0 && text[run.index - 1] === '+'));
  }
  return found;
}

// --- Security codes: 3 or 4 digits after the code's name, with or without a colon, in English or Spanish. ---

const CVV_NAME = String.raw`(?:cvv|cvc|ccv|cvn|cav|csc)2?|card\s*(?:verification|security)\s*(?:value|code|number)|security\s*code|c[oó]d(?:igo|\.)?\s*(?:de\s*)?(?:seguridad|verificaci[oó]n)`;
const CVV_FILLER = String.raw`[\s:=#.,;/>\u2192()\[\]'"\p{Pd}]*(?:(?:is|es|was|era|number|n[uú]mero|no\.?)[\s:=#.]*)?`;
const CVV = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${CVV_NAME})(?!\p{L})${CVV_FILLER}(\d(?:[ .-]?\d){2,3})(?![\d])`, 'giu');

function findSecurityCodes(folded: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const match of folded.matchAll(CVV)) {
    const value = match[1] ?? '';
    const end = match.index + match[0].length;
    found.push({ start: end - value.length, end });
  }
  return found;
}

// --- The detector. ---

/** Every card number and security code in the text, in order; overlapping finds are merged (a card number wins). */
export function findCardData(text: string): CardDataMatch[] {
  // No card data without at least three digits (any kind: superscripts, circled digits… fold to digits too): most
  // texts are answered here, however long.
  if ((text.match(ANY_NUMBER)?.length ?? 0) < 3) return [];
  const folded = fold(text);
  const digits = folded.text.match(ASCII_DIGIT)?.length ?? 0;
  const raw: CardDataMatch[] = [
    ...(digits >= MIN_CARD_DIGITS ? findCardNumbers(folded.text).map((m) => ({ kind: 'card_number' as const, ...m })) : []),
    ...findSecurityCodes(folded.text).map((m) => ({ kind: 'security_code' as const, ...m })),
  ];
  const inOriginal = raw
    .map((m) => ({ kind: m.kind, start: folded.from[m.start] ?? 0, end: folded.to[m.end - 1] ?? text.length }))
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
    out += text.slice(at, match.start) + (match.kind === 'card_number' ? (placeholders.card ?? '[card]') : (placeholders.securityCode ?? '[cvv]'));
    at = match.end;
  }
  return out + text.slice(at);
}
