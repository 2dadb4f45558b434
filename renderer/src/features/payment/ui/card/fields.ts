/**
 * The card form's fields as pure functions: digits kept from what was typed, shown in groups (number) or as MM/YY
 * (expiry), and each field's state — empty, incomplete, valid or invalid with the message to show under it.
 */
import cardValidator from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10.js';
import {
  CardInput,
  MAX_HOLDER_NAME_LENGTH,
  cardBrand,
  cvcLength,
  isCardExpired,
} from '../../../../../../shared/payments/card';
import { textIssueCode } from '../../../../../../shared/text';
import type { MessageKey, Vars } from '../../../../i18n/catalogue';

// ---------------------------------------------------------------------------------------------------------------
// Editing: what the agent typed, pasted or deleted, turned into digits and a caret position.

/** How an input changed, from the browser's `InputEvent.inputType`. */
export type Deletion = 'backward' | 'forward' | undefined;

export const deletionOf = (inputType: string | undefined): Deletion =>
  inputType?.startsWith('deleteContentBackward') || inputType === 'deleteWordBackward'
    ? 'backward'
    : inputType?.startsWith('deleteContentForward') || inputType === 'deleteWordForward'
      ? 'forward'
      : undefined;

export interface Edited {
  /** The field's digits after the edit. */
  digits: string;
  /** The field's text as shown (groups, slash). */
  text: string;
  /** Where the caret goes in `text`. */
  caret: number;
}

const onlyDigits = (text: string): string => text.replace(/\D/g, '');

/** The position in `text` just after its `count`-th digit (0 → the start). */
export function caretAfterDigits(text: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (/\d/.test(text.charAt(i))) {
      seen += 1;
      if (seen === count) return i + 1;
    }
  }
  return text.length;
}

/**
 * The digits of an edited field and how many of them stand before the caret. Deleting only a separator
 * (a space or the slash) deletes the digit beside it, as the agent meant.
 */
function readEdit(
  previous: string,
  raw: string,
  caret: number,
  deletion: Deletion,
): { digits: string; before: number } {
  let digits = onlyDigits(raw);
  let before = onlyDigits(raw.slice(0, caret)).length;
  if (digits === previous && deletion !== undefined) {
    const at = deletion === 'backward' ? before - 1 : before;
    if (at >= 0 && at < digits.length) {
      digits = digits.slice(0, at) + digits.slice(at + 1);
      before = at;
    }
  }
  return { digits, before };
}

// ---------------------------------------------------------------------------------------------------------------
// Card number.

const MAX_NUMBER_LENGTH = 19;
const MIN_NUMBER_LENGTH = 12;
/** Groups of four all along, up to 19 digits: "4242 4242 4242 4242 424". */
const FOURS = [4, 8, 12, 16];
const DEFAULT_GAPS = FOURS;

/** The usual length of a brand's cards: focus moves on to the expiry once a valid number reaches it. */
const USUAL_LENGTH: Readonly<Record<string, number>> = {
  visa: 16,
  mastercard: 16,
  'american-express': 15,
  'diners-club': 14,
  discover: 16,
  jcb: 16,
  unionpay: 16,
  elo: 16,
  hiper: 16,
  hipercard: 16,
  mir: 16,
  troy: 16,
  naranja: 16,
  verve: 16,
};

interface BrandRules {
  /** card-validator's type ('visa', 'american-express', …) or 'unknown'. */
  brand: string;
  gaps: readonly number[];
  lengths: readonly number[];
}

function brandRules(digits: string): BrandRules {
  const brand = cardBrand(digits);
  // getTypeInfo() returns undefined for a name it does not know, whatever its declared type says.
  const info =
    brand === 'unknown'
      ? undefined
      : (cardValidator.creditCardType.getTypeInfo(brand) as
          | ReturnType<typeof cardValidator.creditCardType.getTypeInfo>
          | undefined);
  if (!info) return { brand, gaps: DEFAULT_GAPS, lengths: [] };
  // card-validator stops the groups of four at 12: a 19-digit card goes on in fours rather than ending in 7 digits.
  const inFours = info.gaps.every((gap, i) => gap === 4 * (i + 1));
  return { brand, gaps: inFours ? FOURS : info.gaps, lengths: info.lengths };
}

/** The most digits a number of this brand can have (19 while the brand is unknown). */
export function numberMaxLength(digits: string): number {
  const { lengths } = brandRules(digits);
  return lengths.length === 0 ? MAX_NUMBER_LENGTH : Math.max(...lengths);
}

/** The number in the brand's groups: "4242 4242 4242 4242", "3782 822463 10005". */
export function formatCardNumber(digits: string): string {
  const { gaps } = brandRules(digits);
  let text = '';
  for (let i = 0; i < digits.length; i += 1) {
    if (gaps.includes(i)) text += ' ';
    text += digits.charAt(i);
  }
  return text;
}

/** A keystroke, paste or deletion in the number field. */
export function editCardNumber(previous: string, raw: string, caret: number, deletion: Deletion): Edited {
  const read = readEdit(previous, raw, caret, deletion);
  let digits = read.digits.slice(0, MAX_NUMBER_LENGTH);
  digits = digits.slice(0, numberMaxLength(digits));
  const text = formatCardNumber(digits);
  return { digits, text, caret: caretAfterDigits(text, Math.min(read.before, digits.length)) };
}

// ---------------------------------------------------------------------------------------------------------------
// Expiry (MM/YY).

/** The expiry as shown: the slash appears with the third digit ("12" → "12", "1234" → "12/34"). */
export const formatExpiry = (digits: string): string =>
  digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;

/** A keystroke, paste or deletion in the expiry field; a first digit 2–9 can only be a month 02–09. */
export function editExpiry(previous: string, raw: string, caret: number, deletion: Deletion): Edited {
  const read = readEdit(previous, raw, caret, deletion);
  let { digits, before } = read;
  if (deletion === undefined && /^[2-9]/.test(digits)) {
    digits = `0${digits}`;
    before += 1;
  }
  digits = digits.slice(0, 4);
  const text = formatExpiry(digits);
  return { digits, text, caret: caretAfterDigits(text, Math.min(before, digits.length)) };
}

/** Month and four-digit year of four typed digits MMYY, or undefined while incomplete or impossible. */
export function parseExpiry(digits: string): { month: number; year: number } | undefined {
  if (!/^\d{4}$/.test(digits)) return undefined;
  const month = Number(digits.slice(0, 2));
  if (month < 1 || month > 12) return undefined;
  return { month, year: 2000 + Number(digits.slice(2)) };
}

// ---------------------------------------------------------------------------------------------------------------
// Security code.

/** Digits the CVC field accepts: the brand's length once the brand is known, else up to 4. */
export const cvcMaxLength = (numberDigits: string): number =>
  cardBrand(numberDigits) === 'unknown' ? 4 : cvcLength(numberDigits);

export function editCvc(previous: string, raw: string, caret: number, numberDigits: string): Edited {
  const read = readEdit(previous, raw, caret, undefined);
  const digits = read.digits.slice(0, cvcMaxLength(numberDigits));
  return { digits, text: digits, caret: Math.min(read.before, digits.length) };
}

// ---------------------------------------------------------------------------------------------------------------
// Field states: what to show under each field, and when.

/** A message under a field: a catalogue key, and the values it needs. */
export type FieldMessage =
  | { key: Exclude<FieldMessageKey, 'card.cvc.error.length' | 'card.holder.error.tooLong'> }
  | { key: 'card.cvc.error.length'; vars: Vars<'card.cvc.error.length'> }
  | { key: 'card.holder.error.tooLong'; vars: Vars<'card.holder.error.tooLong'> };

type FieldMessageKey = Extract<
  MessageKey,
  `card.${string}.error.${string}` | 'common.requiredField' | 'card.error.invalid_card'
>;

export type FieldStatus = 'empty' | 'incomplete' | 'valid' | 'invalid';

export interface FieldCheck {
  status: FieldStatus;
  /** Shown under the field (and the field marked aria-invalid) when present. */
  message?: FieldMessage;
}

/**
 * When a field's problem is shown: once the field is complete, once the agent has left it, or once the
 * agent has tried to continue (`submitted`, when an empty required field is also reported).
 */
export interface Shown {
  left: boolean;
  submitted: boolean;
}

const REQUIRED: FieldCheck = { status: 'invalid', message: { key: 'common.requiredField' } };

export function checkNumber(digits: string, shown: Shown): FieldCheck {
  if (digits === '') return shown.submitted ? REQUIRED : { status: 'empty' };
  const { lengths } = brandRules(digits);
  const length = digits.length;
  const lengthFits =
    lengths.length === 0 ? length >= MIN_NUMBER_LENGTH && length <= MAX_NUMBER_LENGTH : lengths.includes(length);
  if (lengthFits && luhn10(digits)) return { status: 'valid' };
  const complete = length >= numberMaxLength(digits);
  if (!complete && !shown.left && !shown.submitted) return { status: 'incomplete' };
  const shortest = lengths.length === 0 ? MIN_NUMBER_LENGTH : Math.min(...lengths);
  return {
    status: 'invalid',
    message: { key: length < shortest ? 'card.number.error.incomplete' : 'card.number.error.invalid' },
  };
}

/** A valid number of the brand's usual (or greatest) length: the agent has finished keying it. */
export function isNumberFinished(digits: string): boolean {
  if (checkNumber(digits, { left: false, submitted: false }).status !== 'valid') return false;
  const { brand } = brandRules(digits);
  return digits.length === USUAL_LENGTH[brand] || digits.length === numberMaxLength(digits);
}

/** The furthest ahead an expiry may be; card-validator allows 19 years, we allow a little more. */
const MAX_YEARS_AHEAD = 20;

export function checkExpiry(digits: string, shown: Shown, now: number): FieldCheck {
  if (digits === '') return shown.submitted ? REQUIRED : { status: 'empty' };
  if (digits.length >= 2) {
    const month = Number(digits.slice(0, 2));
    if (month < 1 || month > 12) return { status: 'invalid', message: { key: 'card.expiry.error.month' } };
  }
  const expiry = parseExpiry(digits);
  if (!expiry) {
    return shown.left || shown.submitted
      ? { status: 'invalid', message: { key: 'card.expiry.error.incomplete' } }
      : { status: 'incomplete' };
  }
  if (isCardExpired(expiry.month, expiry.year, now))
    return { status: 'invalid', message: { key: 'card.expiry.error.expired' } };
  if (expiry.year > new Date(now).getUTCFullYear() + MAX_YEARS_AHEAD)
    return { status: 'invalid', message: { key: 'card.expiry.error.tooFar' } };
  return { status: 'valid' };
}

export function checkCvc(cvc: string, numberDigits: string, shown: Shown): FieldCheck {
  if (cvc === '') return shown.submitted ? REQUIRED : { status: 'empty' };
  const length = cvcLength(numberDigits);
  if (cvc.length === length) return { status: 'valid' };
  if (cvc.length < length && !shown.left && !shown.submitted) return { status: 'incomplete' };
  return { status: 'invalid', message: { key: 'card.cvc.error.length', vars: { length } } };
}

/** The cardholder's name (optional): a name longer than the service takes is said at once, never cut. */
export function checkHolder(holder: string): FieldCheck {
  if (holder.trim().length > MAX_HOLDER_NAME_LENGTH)
    return { status: 'invalid', message: { key: 'card.holder.error.tooLong', vars: { max: MAX_HOLDER_NAME_LENGTH } } };
  return { status: holder.trim() === '' ? 'empty' : 'valid' };
}

// ---------------------------------------------------------------------------------------------------------------
// The card as sent to tokenization.

export interface CardFields {
  /** Digits only. */
  number: string;
  /** Digits only, MMYY. */
  expiry: string;
  cvc: string;
  holder: string;
}

export type CardFieldName = keyof CardFields;

export type BuiltCard =
  | { ok: true; card: CardInput }
  | {
      ok: false;
      field: CardFieldName;
      code: 'invalid_number' | 'invalid_expiry' | 'invalid_cvc' | 'invalid_card';
      message: FieldMessage;
    };

const SUBMITTED: Shown = { left: true, submitted: true };

/**
 * The card for `tokenize`, or the first field at fault (in tab order). The shared CardInput schema (what main
 * applies too) has the last word, so that the form never sends what main would refuse.
 */
export function buildCardInput(fields: CardFields, now: number): BuiltCard {
  const number = checkNumber(fields.number, SUBMITTED);
  if (number.status !== 'valid')
    return { ok: false, field: 'number', code: 'invalid_number', message: number.message ?? REQUIRED_MESSAGE };
  const expiryCheck = checkExpiry(fields.expiry, SUBMITTED, now);
  const expiry = parseExpiry(fields.expiry);
  if (expiryCheck.status !== 'valid' || !expiry)
    return { ok: false, field: 'expiry', code: 'invalid_expiry', message: expiryCheck.message ?? REQUIRED_MESSAGE };
  const cvc = checkCvc(fields.cvc, fields.number, SUBMITTED);
  if (cvc.status !== 'valid')
    return { ok: false, field: 'cvc', code: 'invalid_cvc', message: cvc.message ?? REQUIRED_MESSAGE };
  const holder = checkHolder(fields.holder);
  if (holder.message) return { ok: false, field: 'holder', code: 'invalid_card', message: holder.message };
  const holderName = fields.holder.trim();
  const parsed = CardInput.safeParse({
    number: fields.number,
    expMonth: expiry.month,
    expYear: expiry.year,
    cvv: fields.cvc,
    ...(holderName === '' ? {} : { holderName }),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path[0];
    const field: CardFieldName =
      path === 'number' ? 'number' : path === 'cvv' ? 'cvc' : path === 'holderName' ? 'holder' : 'expiry';
    // A card number, a CVV or hidden characters in the name (shared/text) are said in words of their own.
    const text = textIssueCode(issue);
    if (text !== undefined)
      return {
        ok: false,
        field,
        code: 'invalid_card',
        message: { key: text === 'hidden_characters' ? 'card.holder.error.hidden' : 'card.holder.error.cardData' },
      };
    return { ok: false, field, code: 'invalid_card', message: { key: 'card.error.invalid_card' } };
  }
  return { ok: true, card: parsed.data };
}

const REQUIRED_MESSAGE: FieldMessage = { key: 'common.requiredField' };
