// What is not a card number although it has its digits: ids, amounts, dates and times, blanked out before looking.

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
export function hideNonCards(text: string): string {
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
