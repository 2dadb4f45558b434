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
import cardValidator from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10.js';
import { isValidPhoneNumber } from 'libphonenumber-js';

export const MIN_CARD_DIGITS = 12;
export const MAX_CARD_DIGITS = 19;
/**
 * Inside a longer run of digit groups, a card is looked for only among windows of at least this many digits (Visa's
 * shortest): a 12-digit Maestro only standing alone, as a window of 12 digits among other numbers is too often none.
 */
const MIN_DIGITS_INSIDE_A_RUN = 13;
/** The longest phone number (E.164). */
const MAX_PHONE_DIGITS = 15;

export type CardDataKind = 'card_number' | 'security_code';

/** Where card data is in a text: UTF-16 offsets in the text as given, [start, end). A security code: its digits only. */
export interface CardDataMatch {
  kind: CardDataKind;
  start: number;
  end: number;
}

// --- Which digits can be a card: Luhn, and a length its brand issues. ---

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
const ANY_NUMBER = /\p{N}/u;

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
  from: (at: number) => number;
  to: (at: number) => number;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included
const ASCII_ONLY = /^[\u0000-\u007F]*$/;

function fold(text: string): Folded {
  // Most texts are ASCII: nothing to fold, and each character stays where it is (no tables as long as the text).
  if (ASCII_ONLY.test(text)) return { text, from: (at) => at, to: (at) => at + 1 };
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
  return { text: out, from: (at) => from[at] ?? text.length, to: (at) => to[at] ?? text.length };
}

// --- Letters that stand for digits. ---

/**
 * O and o (Latin, Cyrillic, Greek) for 0, l and I for 1: read as digits in a word made only of digits and these letters
 * that has a digit ("42O2", "l242"), or in a word of two or more of these letters beside such a word, across separators
 * only ("4OOO OOOO"). Never a lone letter ("o" is Spanish for "or", "I" English's pronoun), nor a word with any other
 * letter ("Oil", "lleva"): those are read as letters, and letters end a run of digits. Other look-alikes (S for 5, B for
 * 8, Z for 2) are left out: they are as often a reference's letters.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  O: '0',
  o: '0',
  '\u041E': '0',
  '\u043E': '0',
  '\u039F': '0',
  '\u03BF': '0',
  l: '1',
  I: '1',
};
const WORD = /[\p{L}\p{N}]+/gu;
const DIGITS_AND_LOOK_ALIKES = /^[0-9Oo\u041E\u043E\u039F\u03BFlI]+$/;
const HAS_DIGIT = /[0-9]/;
const HAS_LETTER = /[\p{L}\p{N}]/u;

function readLookAlikes(text: string): string {
  if (!/[Oo\u041E\u043E\u039F\u03BFlI]/.test(text)) return text;
  const words: { start: number; end: number; text: string; digits: boolean; maybe: boolean }[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    const candidate = DIGITS_AND_LOOK_ALIKES.test(word);
    words.push({
      start: match.index,
      end: match.index + word.length,
      text: word,
      digits: candidate && HAS_DIGIT.test(word),
      maybe: candidate && word.length >= 2,
    });
  }
  // A word of look-alikes only is digits next to digits, across separators only: both directions, so chains are read.
  for (let i = 1; i < words.length; i++) {
    const [before, word] = [words[i - 1], words[i]];
    if (before?.digits === true && word !== undefined && !word.digits && word.maybe) word.digits = true;
  }
  for (let i = words.length - 2; i >= 0; i--) {
    const [word, after] = [words[i], words[i + 1]];
    if (after?.digits === true && word !== undefined && !word.digits && word.maybe) word.digits = true;
  }
  let out = '';
  let at = 0;
  for (const word of words) {
    if (!word.digits || !/[^0-9]/.test(word.text)) continue;
    out += text.slice(at, word.start) + [...word.text].map((char) => LOOK_ALIKES[char] ?? char).join('');
    at = word.end;
  }
  return out + text.slice(at);
}

// --- What is not a card: ids, amounts, dates and times. Their digits never make one. ---

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A hexadecimal id (pay_…, a hash): 20 or more hex characters, at least one a letter, standing alone. */
const HEX_ID = /(?<![0-9a-z])[0-9a-f]{20,}(?![0-9a-z])/gi;
/** 12,450.00 — 1,234,567.89 — 12450.00: an amount ends with its two decimals; its whole part is no longer than a price. */
const AMOUNT = /(?<![\d.,])(?:\d{1,3}(?:,\d{3}){1,3}|\d{1,10})\.\d{2}(?!\d|[.,]\d)/g;
/** 2026-03-14, 2026/3/14, 14/03/2026, 27.11.2026, 03-14-2026: a day, with its four-digit year. */
const DATE =
  /(?<![\d.,/-])(?:(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})|(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}))(?![\d/-]|[.,]\d)/g;
/** 10:42, 10:42:15, 12:30:45.123: a time of day. */
const TIME = /(?<![\d:.,])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?(?![\d:]|[.,]\d)/g;

const isYear = (text: string | undefined): boolean => Number(text) >= 1900 && Number(text) <= 2199;
const isMonthAndDay = (a: string | undefined, b: string | undefined): boolean => {
  const [x, y] = [Number(a), Number(b)];
  return (x >= 1 && x <= 12 && y >= 1 && y <= 31) || (y >= 1 && y <= 12 && x >= 1 && x <= 31);
};

/** A digit then up to three signs, at the end of what comes before an amount: the amount may continue its number. */
const DIGIT_THEN_SIGNS = /\d[^\p{L}\p{N}]{0,3}$/u;

/**
 * The text with ids, dates, times and amounts blanked out (letters in their place, which end a run of digits): their
 * digits never make a card. An amount right after a digit that is not blanked continues that number: only its decimals
 * are blanked, so a card written with an expiry after a dot ("…4242.12/28") keeps its last group.
 */
function hideNonCards(text: string): string {
  const mask = new Uint8Array(text.length);
  const mark = (start: number, length: number): void => {
    mask.fill(1, start, start + length);
  };
  for (const match of text.matchAll(UUID)) mark(match.index, match[0].length);
  for (const match of text.matchAll(HEX_ID)) if (/[a-f]/i.test(match[0])) mark(match.index, match[0].length);
  for (const match of text.matchAll(DATE)) {
    const [, y1, m1, d1, a2, b2, y2] = match;
    if (
      (y1 !== undefined && isYear(y1) && isMonthAndDay(m1, d1)) ||
      (y2 !== undefined && isYear(y2) && isMonthAndDay(a2, b2))
    )
      mark(match.index, match[0].length);
  }
  for (const match of text.matchAll(TIME)) mark(match.index, match[0].length);
  for (const match of text.matchAll(AMOUNT)) {
    const before = text.slice(Math.max(0, match.index - 4), match.index);
    const digit = before.search(DIGIT_THEN_SIGNS);
    if (digit >= 0 && mask[match.index - before.length + digit] === 0) mark(match.index + match[0].length - 3, 3);
    else mark(match.index, match[0].length);
  }
  let out = '';
  let at = 0;
  for (let i = mask.indexOf(1); i >= 0 && i < text.length; ) {
    let end = mask.indexOf(0, i);
    if (end < 0) end = text.length;
    out += text.slice(at, i) + 'x'.repeat(end - i);
    at = end;
    i = mask.indexOf(1, end);
  }
  return out + text.slice(at);
}

// --- Card numbers: runs of digit groups, with any separators between them. ---

/** A separator longer than this, or with more line breaks than these, ends a run of digits. */
const MAX_SEPARATOR = 24;
const MAX_LINE_BREAKS = 3;
const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/g;
const HAS_LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;
/**
 * A wide separator — a line break, four spaces or more (columns lined up), a sign with spaces around it ("55 1234 / 55
 * 8765"), or more than 8 characters — joins only groups of 4 to 6 digits, as cards are grouped: a list of phone
 * numbers, one per line or with " / " between them, is not read as one number. Any other separator joins any groups.
 */
const SPACED_SIGN = /\s\S+\s/;
const isWide = (separator: string): boolean =>
  separator.length > 8 ||
  (separator.match(/\s/g)?.length ?? 0) >= 4 ||
  SPACED_SIGN.test(separator) ||
  HAS_LINE_BREAK.test(separator);
const isCardGroup = (group: Group): boolean => group.digits.length >= 4 && group.digits.length <= 6;

interface Group {
  digits: string;
  start: number;
  end: number;
  /** A + is right before it, not right after a digit: a phone number may start here. */
  afterPlus: boolean;
  /** It is part of a phone number written after a +. */
  phone: boolean;
  /** The separator before it in its run, its spaces made one ('' for the run's first group). */
  separator: string;
}

/** A separator that can list things: one with a comma, a semicolon, a slash or a bar ("55 1234 5678, 998 …"). */
const LIST_SEPARATOR = /[,;/|\\]/;

/**
 * Whether a window of groups reads as two numbers in a list: a list separator inside it, another separator inside it
 * that is not the same, and a group shorter than a card's (cards are written in groups of 4 to 6 digits). Two phone
 * numbers written with spaces and a comma between them are a list ("55 1234 5678, 998 123 4567"); a card dictated
 * group by group is not, whatever its separators ("4242, 4242, 4242 4242", "5555/5555/5555 4444").
 */
function isAList(window: readonly Group[]): boolean {
  const inside = window.slice(1).map((group) => group.separator);
  return (
    inside.some((separator) => LIST_SEPARATOR.test(separator)) &&
    new Set(inside).size > 1 &&
    window.some((group) => group.digits.length < 4)
  );
}

/**
 * A + right before a group (and not between two digits, where it separates a card's groups) starts a phone number: the
 * longest run of groups from there, at most 15 digits, that libphonenumber-js finds a valid number with that +. Those
 * groups are the phone's. A + before digits that are no valid phone protects nothing: "+4242 4242 4242 4242" is a card.
 */
function markPhone(groups: readonly Group[], from: number): void {
  let digits = '';
  let last = -1;
  for (let i = from; i < groups.length; i++) {
    digits += groups[i]?.digits ?? '';
    if (digits.length > MAX_PHONE_DIGITS) break;
    if (isValidPhoneNumber(`+${digits}`)) last = i;
  }
  for (let i = from; i <= last; i++) {
    const group = groups[i];
    if (group !== undefined) group.phone = true;
  }
}

/**
 * The cards in one run of digit groups: the whole run when it is one; else every window of whole groups that is one
 * (at least 13 digits: a card followed by its expiry or CVV, or after a reference), overlapping windows taken together.
 * A window is no card when every group of it is a phone's, or when it reads as two numbers in a list.
 */
function cardsInRun(groups: readonly Group[]): { start: number; end: number }[] {
  const first = groups[0];
  const last = groups.at(-1);
  if (first === undefined || last === undefined) return [];
  // Phones are looked for only once a window passes as a card: libphonenumber-js is slow next to the rest.
  let phonesMarked = false;
  const isCard = (from: number, to: number, digits: string): boolean => {
    if (!isCardNumberDigits(digits)) return false;
    if (!phonesMarked) {
      groups.forEach((group, i) => {
        if (group.afterPlus) markPhone(groups, i);
      });
      phonesMarked = true;
    }
    const window = groups.slice(from, to + 1);
    return !window.every((group) => group.phone) && !isAList(window) && !isClabe(window, digits);
  };
  let whole = '';
  for (const group of groups) {
    whole += group.digits;
    if (whole.length > MAX_CARD_DIGITS) break;
  }
  if (whole.length <= MAX_CARD_DIGITS && whole.length >= MIN_CARD_DIGITS && isCard(0, groups.length - 1, whole))
    return [{ start: first.start, end: last.end }];
  const found: { start: number; end: number }[] = [];
  for (let i = 0; i < groups.length; i++) {
    let candidate = '';
    for (let j = i; j < groups.length; j++) {
      candidate += groups[j]?.digits ?? '';
      if (candidate.length > MAX_CARD_DIGITS) break;
      if (
        candidate.length < MIN_DIGITS_INSIDE_A_RUN ||
        (i === 0 && j === groups.length - 1) ||
        !isCard(i, j, candidate)
      )
        continue;
      const start = groups[i]?.start ?? 0;
      const end = groups[j]?.end ?? 0;
      const previous = found.at(-1);
      if (previous !== undefined && start < previous.end) previous.end = Math.max(previous.end, end);
      else found.push({ start, end });
    }
  }
  return found;
}

const DIGIT_GROUP = /[0-9]+/g;

function findCardNumbers(folded: string): { start: number; end: number }[] {
  const text = hideNonCards(folded);
  const found: { start: number; end: number }[] = [];
  let run: Group[] = [];
  const endRun = (): void => {
    if (run.length > 0) found.push(...cardsInRun(run));
    run = [];
  };
  for (const match of text.matchAll(DIGIT_GROUP)) {
    const start = match.index;
    const end = start + match[0].length;
    // The + of a phone: right before the group, and not right after a digit.
    const afterPlus = text[start - 1] === '+' && !/[0-9]/.test(text[start - 2] ?? '');
    const group: Group = { digits: match[0], start, end, afterPlus, phone: false, separator: '' };
    const previous = run.at(-1);
    if (previous !== undefined) {
      const separator = text.slice(previous.end, start);
      group.separator = separator.replace(/\s+/g, ' ');
      const joins =
        separator.length <= MAX_SEPARATOR &&
        !HAS_LETTER.test(separator) &&
        (separator.match(LINE_BREAK)?.length ?? 0) <= MAX_LINE_BREAKS &&
        (!isWide(separator) || (isCardGroup(previous) && isCardGroup(group)));
      if (!joins) endRun();
    }
    run.push(group);
  }
  endRun();
  return found;
}

// --- Security codes: 3 or 4 digits next to the code's name, in English or Spanish, abbreviated or dotted. ---

/** Between the letters of an abbreviation: a dot, a space, a hyphen ("c.v.v.", "C V V", "c-v-v"). */
const DOT = String.raw`[.\s\p{Pd}]?\s?`;
const ABBREVIATION = String.raw`c${DOT}(?:v${DOT}[vc2]|c${DOT}v)\.?(?:\s?2)?|cvn|cav|csc|cvd|cid`;
const ENGLISH_NAME = String.raw`card\s*(?:verification|security)\s*(?:value|code|number)|(?:security|verification|sec\.?)\s*(?:code|number|no\.?|#)`;
const SPANISH_NAME = String.raw`(?:c[oó]d(?:igo|\.)?|n[uú]m(?:ero|\.)?|clave)\s*(?:de\s*)?(?:seg(?:uridad|\.)?|verif(?:icaci[oó]n|\.)?)`;
/**
 * "the 3 digits on the back (of the card)", "los 3 dígitos de atrás", "números de atrás", "reverso de la tarjeta", and
 * the count alone before where they are: "los tres de atrás", "the 3 on the back".
 */
const BACK_OF_THE_CARD = String.raw`(?:(?:the|los|las)\s+)?(?:(?:[34]|three|four|tres|cuatro)\s+)?(?:digits?|d[ií]gitos?|numbers?|n[uú]meros?)\s+(?:on|at|in|of|de|del|en)\s+(?:(?:the|el|la)\s+)?(?:back|front|reverse|reverso|atr[aá]s|detr[aá]s|frente|enfrente)(?:\s+(?:of\s+the\s+card|de\s+la\s+tarjeta))?|(?:back|reverse)\s+of\s+the\s+card|reverso\s+de\s+la\s+tarjeta|(?:the|los|las)\s+(?:[34]|three|four|tres|cuatro)\s+(?:on|at|in|of|de|del|en)\s+(?:(?:the|el|la)\s+)?(?:back|front|reverse|reverso|atr[aá]s|detr[aá]s|frente|enfrente)`;
/** "código" alone: only before its number ("código 123"), never after one ("1204 código" is too often a room's). */
const CODE_ALONE = String.raw`c[oó]d(?:igo|\.)`;
const NAME = `${ABBREVIATION}|${ENGLISH_NAME}|${SPANISH_NAME}`;
/** Signs around a number or a name: colons, brackets, quotes of every kind, guillemets, marks of a question or an exclamation. */
const SIGN = String.raw`[\s:=#.,;/<>\u2192()\[\]'"\u2018\u2019\u201C\u201D\u00AB\u00BB*?!\u00BF\u00A1\p{Pd}]`;
/** The card itself named after the code's name: "cvv de la tarjeta", "code for this card", "CVV on the card". */
const OF_THE_CARD = String.raw`(?:(?:de|del|of|for|on|en)\s+(?:(?:la|the|this|esta|su|tu|your|my|mi)\s+)?(?:tarjeta|card)(?!\p{L})${SIGN}{0,4})?`;
/** Signs and small words between the name and its number: "cvv: es el 123", "the CVV is 741", "CVC (963)", "cvv de la tarjeta es 123". */
const FILLER = String.raw`${SIGN}{0,8}${OF_THE_CARD}(?:(?:is|es|are|son|was|era|number|n[uú]mero|no\.?|el|la|the)[\s:=#.]{1,4}){0,3}`;
/** 3 or 4 digits, maybe spaced ("1 2 3"), not part of a longer number ("123-456", "123.45"). */
const VALUE = String.raw`(\d(?:[ .\p{Pd}]?\d){2,3})(?!\d|[.,/\p{Pd}]\d)`;
const CVV_AFTER_NAME = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${NAME}|${BACK_OF_THE_CARD}|${CODE_ALONE})(?!\p{L})${FILLER}${VALUE}`,
  'giu',
);
const CVV_BEFORE_NAME = new RegExp(
  String.raw`(?<![\p{L}\p{N}]|\d[.,/\p{Pd}])(\d{3,4})(?!\d)[\s:=#,;()\[\]'"\u2018\u2019\u201C\u201D\u00AB\u00BB<>*\p{Pd}]{0,6}(?:(?:es|is|was|era)\s+)?(?:(?:el|la|the|my|mi|su|its|your)\s+)?(?:${NAME})(?![\p{L}\p{N}])`,
  'giu',
);

function findSecurityCodes(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const match of text.matchAll(CVV_AFTER_NAME)) {
    const value = match[1] ?? '';
    const end = match.index + match[0].length;
    found.push({ start: end - value.length, end });
  }
  for (const match of text.matchAll(CVV_BEFORE_NAME)) {
    const value = match[1] ?? '';
    found.push({ start: match.index, end: match.index + value.length });
  }
  return found;
}

// --- The detector. ---

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
