// Card numbers in a folded text: runs of digit groups, with any separators between them, and the cards in each run.
import cardValidator from 'card-validator';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { MAX_CARD_DIGITS, MIN_CARD_DIGITS, isCardNumberDigits } from './card-digits';
import { HAS_LETTER } from './fold';
import { hideNonCards } from './non-cards';

/**
 * Inside a longer run of digit groups, a card is looked for only among windows of at least this many digits (Visa's
 * shortest): a 12-digit Maestro only standing alone, as a window of 12 digits among other numbers is too often none.
 */
const MIN_DIGITS_INSIDE_A_RUN = 13;
/** The longest phone number (E.164). */
const MAX_PHONE_DIGITS = 15;

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

export function findCardNumbers(folded: string): { start: number; end: number }[] {
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
