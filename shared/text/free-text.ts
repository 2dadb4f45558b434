/**
 * The zod building block every free-text field of the contract is made of: card data is refused before anything else
 * (so a card number is never taken for a too-long note or a badly formed id). Chain the field's own rules after it:
 * `freeText().trim().min(1).max(80)`.
 */
import { z } from 'zod';
import { findCardData } from './card-data';

/** Why a free-text field was refused: the code crosses the door with the field's name; the renderer words it. */
export const TEXT_ISSUES = {
  card_number_in_text: 'This looks like a card number. Card numbers go only in the card form.',
  security_code_in_text: 'This looks like a card’s security code. The security code goes only in the card form.',
} as const;
export type TextIssueCode = keyof typeof TEXT_ISSUES;

const isTextIssueCode = (code: unknown): code is TextIssueCode => typeof code === 'string' && Object.hasOwn(TEXT_ISSUES, code);

/** The code of a free-text refusal (zod keeps it in the issue's params), or undefined for any other issue. */
export function textIssueCode(issue: z.core.$ZodIssue | undefined): TextIssueCode | undefined {
  if (issue?.code !== 'custom') return undefined;
  const code: unknown = issue.params?.['code'];
  return isTextIssueCode(code) ? code : undefined;
}

export interface FreeTextOptions {
  /** A note (several lines). Otherwise one line (names, ids, search text, filters, destinations). */
  multiline?: boolean;
  /** The message when the value is not a string at all. */
  error?: string;
}

/**
 * A string refused when it holds card data (a card number however spelled, or a CVV after its name: the shared
 * detector). The issue carries its code for the door.
 */
export function freeText(options: FreeTextOptions = {}): z.ZodString {
  const base = options.error === undefined ? z.string() : z.string({ error: options.error });
  return base.superRefine((value, ctx) => {
    const found = findCardData(value);
    if (found.length > 0) {
      const code: TextIssueCode = found.some((match) => match.kind === 'card_number') ? 'card_number_in_text' : 'security_code_in_text';
      ctx.addIssue({ code: 'custom', message: TEXT_ISSUES[code], params: { code } });
    }
  });
}
