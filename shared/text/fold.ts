// Folding a text for the card-data detector: one ASCII digit per decimal digit of any script, invisible characters gone,
// look-alike separators made plain, and the letters that stand for digits read as digits.

/** Removed before looking: zero-width characters (ZWSP, ZWNJ, ZWJ, word joiner, BOM), soft hyphen, bidi marks, combining marks. */
const INVISIBLE = /^[\p{Cf}\p{Mn}\p{Me}]$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;
/** Any number character: decimal digits of every script, and superscripts, subscripts, circled digits (which NFKC folds to digits). */
export const ANY_NUMBER = /\p{N}/u;

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

export interface Folded {
  text: string;
  /** For each UTF-16 unit of `text`: where the character it came from starts and ends in the original. */
  from: (at: number) => number;
  to: (at: number) => number;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included
const ASCII_ONLY = /^[\u0000-\u007F]*$/;

export function fold(text: string): Folded {
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
export const HAS_LETTER = /[\p{L}\p{N}]/u;

export function readLookAlikes(text: string): string {
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
