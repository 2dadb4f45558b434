/** A zod failure as a refusal: the one place that reads a failed parse's first issue. */
import type { z } from 'zod';
import { containsCardData, textIssueCode, type TextIssueCode } from '../../shared/text';

/** The longest key named in a refusal: the contract's own names are short. */
const MAX_FIELD_NAME = 64;

export interface ZodRefusal<Code extends string> {
  /** `code`, or the free-text check's own (card data, hidden characters) so that the renderer words it. */
  code: Code | TextIssueCode;
  /** The field at fault, dotted (`card.holderName`), when it can be named. */
  field?: string;
}

/**
 * The first issue of a failed parse as a refusal: its field and a code, never the value nor zod's English. An unknown
 * key is reported on its parent; it is named itself when it could be a field's name at all (short, no card data): the
 * caller made it up, and it goes back in the answer and into the audit trail. `within` names where the parsed value
 * sits (`['reservations']` for a setting), and is the field when the issue has no path of its own.
 */
export function zodRefusal<Code extends string>(
  error: z.ZodError,
  code: Code,
  within: readonly string[] = [],
): ZodRefusal<Code> {
  const issue = error.issues[0];
  const segments = [...within, ...(issue?.path.map(String) ?? [])];
  const unknownKey = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  if (unknownKey !== undefined && unknownKey.length <= MAX_FIELD_NAME && !containsCardData(unknownKey))
    segments.push(unknownKey);
  const joined = segments.join('.');
  const field = joined.length <= MAX_FIELD_NAME * 2 ? joined : '';
  return { code: textIssueCode(issue) ?? code, ...(field === '' ? {} : { field }) };
}
