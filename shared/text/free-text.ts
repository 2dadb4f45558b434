/**
 * The zod building block every free-text field of the contract is made of: a text far longer than any field is refused
 * first, unread; then card data (so a card number is never taken for a too-long note or a badly formed id), then
 * invisible control and text-direction characters. Chain the field's own rules after it: `freeText().trim().min(1).max(80)`.
 */
import { z } from 'zod';
import { findCardData } from './card-data';

/** Why a free-text field was refused: the code crosses the door with the field's name; the renderer words it. */
export const TEXT_ISSUES = {
  card_number_in_text: 'This looks like a card number. Card numbers go only in the card form.',
  security_code_in_text: 'This looks like a card’s security code. The security code goes only in the card form.',
  hidden_characters: 'This has invisible control or text-direction characters: type it again without them.',
} as const;
export type TextIssueCode = keyof typeof TEXT_ISSUES;

const isTextIssueCode = (code: unknown): code is TextIssueCode =>
  typeof code === 'string' && Object.hasOwn(TEXT_ISSUES, code);

/** The code of a free-text refusal (zod keeps it in the issue's params), or undefined for any other issue. */
export function textIssueCode(issue: z.core.$ZodIssue | undefined): TextIssueCode | undefined {
  if (issue?.code !== 'custom') return undefined;
  const code: unknown = issue.params?.['code'];
  return isTextIssueCode(code) ? code : undefined;
}

/**
 * C0 and C1 controls, and the bidirectional marks, embeddings, overrides and isolates (U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069) that can make a name or an id read differently from what it is ("Trojan Source").
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS_IN_A_LINE = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** The same in a note, where tabs and line breaks are text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS_IN_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/**
 * The longest text any free-text field reads for card data: four times its longest field (a note, 500 characters), room
 * for the spaces its own rules trim. Longer, it is refused before the detector reads a character of it, and nothing
 * after it runs: an 8 MB note is answered at once. A field that takes longer texts says so with `maxLength`.
 */
export const MAX_FREE_TEXT_LENGTH = 2_000;

export interface FreeTextOptions {
  /** A note: tabs and line breaks allowed. Otherwise one line (names, ids, search text, filters, destinations). */
  multiline?: boolean;
  /** The message when the value is not a string at all. */
  error?: string;
  /** Longer than this, refused unread (default MAX_FREE_TEXT_LENGTH). The field's own `.max()` still words its limit. */
  maxLength?: number;
}

/**
 * A string refused when it holds card data (a card number however spelled, or a CVV after its name: the shared
 * detector) or, once trimmed, control or text-direction characters. The issue carries its code for the door.
 */
export function freeText(options: FreeTextOptions = {}): z.ZodString {
  const controls = options.multiline === true ? CONTROLS_IN_LINES : CONTROLS_IN_A_LINE;
  const base = options.error === undefined ? z.string() : z.string({ error: options.error });
  const maxLength = options.maxLength ?? MAX_FREE_TEXT_LENGTH;
  return base.superRefine((value, ctx) => {
    if (value.length > maxLength) {
      // `continue: false`: no later check of the field runs either (its own length rule would only say it again).
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: maxLength,
        inclusive: true,
        message: `This text is far too long: at most ${maxLength.toLocaleString('en-US')} characters.`,
        continue: false,
      });
      return;
    }
    const found = findCardData(value);
    if (found.length > 0) {
      const code: TextIssueCode = found.some((match) => match.kind === 'card_number')
        ? 'card_number_in_text'
        : 'security_code_in_text';
      ctx.addIssue({ code: 'custom', message: TEXT_ISSUES[code], params: { code } });
    }
    if (controls.test(value.trim()))
      ctx.addIssue({ code: 'custom', message: TEXT_ISSUES.hidden_characters, params: { code: 'hidden_characters' } });
  });
}
