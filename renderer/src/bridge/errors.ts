/**
 * Main's refusals in the renderer: ApiError (what `unwrap` throws), which of them leave an operation's answer unknown
 * (retry with the same id), and what the agent reads — free text holding card data or hidden characters (shared/text)
 * is worded from the catalogues in the desk's language, with the field named by its label; any other refusal keeps
 * main's own words.
 */
import type { z } from 'zod';
import type { ErrorParams, IpcError } from '../../../shared/ipc';
import { textIssueCode, type TextIssueCode } from '../../../shared/text';
import type { PlainKey, TemplateKey, Translate } from '../i18n/catalogue';

/** An answer main refused: a code to branch on and a message a person can read. */
export class ApiError extends Error {
  readonly code: string;
  readonly field: string | undefined;
  /** The numbers and names main's message is made of, to say it again in the desk's language. */
  readonly params: ErrorParams | undefined;

  constructor(error: IpcError) {
    super(error.message);
    this.name = 'ApiError';
    this.code = error.code;
    this.field = error.field;
    this.params = error.params;
  }
}

export const messageOf = (error: unknown): string =>
  error instanceof ApiError ? error.message : 'Something went wrong in the app. Try again; if it happens again, tell IT.';

/** Codes that say "the answer is unknown or late", never "no". */
const RETRYABLE = new Set(['network_error', 'timeout', 'unexpected_response', 'rate_limited', 'idempotency_in_progress', 'internal', 'api_error', 'service_unavailable']);

/**
 * True when the same operation (same id) should be sent again rather than a new one started: the answer may not have
 * arrived. A refusal for good (any other ApiError) ends the operation: the next attempt is a new one, with a new id.
 */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || RETRYABLE.has(error.code);
}

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
