/**
 * What the agent reads when main refuses a call: free text holding card data or hidden characters (shared/text) is
 * worded from the catalogues in the desk's language, with the field named by its label; any other refusal keeps
 * main's own words.
 */
import type { z } from 'zod';
import { textIssueCode, type TextIssueCode } from '../../../shared/text';
import type { PlainKey, TemplateKey, Translate } from '../i18n/catalogue';
import { ApiError, messageOf } from './client';

/** The contract's free-text fields (as the door names them) and their labels on screen. */
export const FIELD_LABELS: Readonly<Record<string, PlainKey>> = {
  id: 'signin.id',
  approverId: 'override.id',
  displayName: 'accounts.name',
  note: 'field.note',
  text: 'field.search',
  reservationId: 'payments.reservation',
  paymentId: 'payments.paymentId',
  guestName: 'payments.guest',
  operatorId: 'payments.agent',
  actor: 'audit.actor',
  action: 'audit.col.action',
  resource: 'audit.resource',
  destination: 'field.destination',
  guestEmail: 'link.field.email',
  'card.holderName': 'card.holder.label',
};

const MESSAGES: { readonly [C in TextIssueCode]: TemplateKey } = {
  card_number_in_text: 'refusal.cardNumber',
  security_code_in_text: 'refusal.securityCode',
  hidden_characters: 'refusal.hiddenCharacters',
};

const isTextIssue = (code: string): code is TextIssueCode => Object.hasOwn(MESSAGES, code);

/** The refusal in words for the agent, in the language `t` speaks. */
export function describeError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError) || !isTextIssue(error.code)) return messageOf(error);
  const label = error.field !== undefined && Object.hasOwn(FIELD_LABELS, error.field) ? t(FIELD_LABELS[error.field] as PlainKey) : (error.field ?? '');
  const key = MESSAGES[error.code] as 'refusal.cardNumber';
  const text = t(key, { field: label });
  return label === '' ? text.replace(/^: /, '').replace(/^\p{Ll}/u, (c) => c.toUpperCase()) : text;
}

/**
 * A free-text value checked by the contract's own schema before anything is sent (main checks it again): its card-data
 * or hidden-character refusal in words, or undefined when main will take it.
 */
export function textProblem(schema: z.ZodType, value: string, field: string, t: Translate): string | undefined {
  const code = textIssueCode(schema.safeParse(value).error?.issues.find((issue) => textIssueCode(issue) !== undefined));
  return code === undefined ? undefined : describeError(new ApiError({ code, message: '', field }), t);
}
