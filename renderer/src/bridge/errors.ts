/**
 * Main's refusals in the renderer: ApiError (what `unwrap` throws), which of them leave an operation's answer unknown
 * (retry with the same id), and what the agent reads — always from the catalogues in the desk's language, by the
 * error's code and params (`error.<code>`), the field named by its label; main's own English `message` is never shown.
 */
import type { z } from 'zod';
import { UNLISTED_ERROR_CODE, type ErrorParams, type IpcError } from '../../../shared/ipc';
import { centsForDisplay } from '../../../shared/payments/money';
import { textIssueCode, type TextIssueCode } from '../../../shared/text';
import {
  CATALOGUES,
  placeholdersOf,
  type MessageKey,
  type PlainKey,
  type TemplateKey,
  type Translate,
} from '../i18n/catalogue';
import { formatDateTime, formatMoney, moneyCurrency } from '../i18n/format';

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

/** Codes that say "the answer is unknown or late", never "no". */
const RETRYABLE = new Set([
  'network_error',
  'timeout',
  'unexpected_response',
  'rate_limited',
  'idempotency_in_progress',
  'internal',
  'internal_error',
  'unavailable',
]);

/**
 * True when the same operation (same id) should be sent again rather than a new one started: the answer may not have
 * arrived. A refusal for good (any other ApiError) ends the operation: the next attempt is a new one, with a new id.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  const serviceCode = error.code === UNLISTED_ERROR_CODE ? error.params?.serviceCode : undefined;
  return RETRYABLE.has(error.code) || (typeof serviceCode === 'string' && RETRYABLE.has(serviceCode));
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
  shortReference: 'payments.shortReference',
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

const isKey = (key: string): key is MessageKey => Object.hasOwn(CATALOGUES['en-US'], key);

/** The language a bound `t` speaks, found from a message every catalogue words differently. */
const languageOf = (t: Translate) => (t('common.cancel') === CATALOGUES['en-US']['common.cancel'] ? 'en-US' : 'es-MX');

/** The field's label on screen, or '' when the field has none the agent would know. */
function labelOf(field: string | undefined, t: Translate): string {
  return field !== undefined && Object.hasOwn(FIELD_LABELS, field) ? t(FIELD_LABELS[field] as PlainKey) : '';
}

/**
 * A message's values from the error's params: `…Cents` with `currency` as amounts (`leftCents` → `{left}`), a role by its
 * name on screen, `…At` moments in the desk's date format, names and numbers as they are.
 */
function varsOf(params: ErrorParams | undefined, t: Translate): Record<string, string | number> {
  const vars: Record<string, string | number> = {};
  if (params === undefined) return vars;
  const currency = typeof params.currency === 'string' ? moneyCurrency(params.currency) : undefined;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'boolean') continue;
    if (name.endsWith('Cents') && typeof value === 'number' && currency !== undefined)
      vars[name.slice(0, -'Cents'.length)] = formatMoney(centsForDisplay(value), currency, languageOf(t));
    else if (name === 'role' && isKey(`role.${value}`)) vars[name] = t(`role.${value}` as PlainKey);
    // A moment (`sinceAt`, `approvedAt`): in the desk's date format; a text that is not a date as it came.
    else if (name.endsWith('At') && typeof value === 'string') vars[name] = formatDateTime(value, languageOf(t));
    else vars[name] = value;
  }
  return vars;
}

/** The first of `keys` in the catalogue whose placeholders `vars` all fill. */
function firstWorded(keys: readonly string[], vars: Readonly<Record<string, string | number>>): MessageKey | undefined {
  return keys
    .filter(isKey)
    .find((key) => placeholdersOf(CATALOGUES['en-US'][key]).every((name) => Object.hasOwn(vars, name)));
}

/** True when the catalogues word this code themselves (a code main can emit, or the card form's). */
export const knowsCode = (code: string): boolean =>
  isTextIssue(code) || [`error.${code}`, `error.${code}.plain`, `card.error.${code}`].some(isKey);

/**
 * The refusal in words for the agent, in the language `t` speaks: `error.<code>` (or the card form's and the text
 * checks' own sentences) with the params main sent; a code the catalogues do not know yet is named in a generic
 * sentence. Main's English `message` is never shown.
 */
export function describeError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t('error.unexpected');
  // A service code the contract does not list crosses as service_refused (shared/ipc/errors.ts): worded as itself when
  // the catalogues know it (the simulator's internal_error, say), its retry rules kept by isRetryable below.
  const serviceCode = error.code === UNLISTED_ERROR_CODE ? error.params?.serviceCode : undefined;
  if (typeof serviceCode === 'string' && serviceCode !== UNLISTED_ERROR_CODE && knowsCode(serviceCode)) {
    const params = Object.fromEntries(Object.entries(error.params ?? {}).filter(([name]) => name !== 'serviceCode'));
    return describeError(
      new ApiError({
        code: serviceCode,
        message: '',
        ...(error.field === undefined ? {} : { field: error.field }),
        params,
      }),
      t,
    );
  }
  const say = t as (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => string;
  const label = labelOf(error.field, t);
  if (isTextIssue(error.code)) {
    const named = label || (error.field ?? '');
    const text = t(MESSAGES[error.code] as 'refusal.cardNumber', { field: named });
    return named === '' ? text.replace(/^: /, '').replace(/^\p{Ll}/u, (c) => c.toUpperCase()) : text;
  }
  const vars = { ...varsOf(error.params, t), ...(label === '' ? {} : { field: label }) };
  // The most specific sentence first: for this field, for a param main sent, for any named field, then the code's own.
  const specific = [...(error.field === undefined ? [] : [error.field]), ...Object.keys(error.params ?? {})].map(
    (part) => `error.${error.code}.${part}`,
  );
  const key = firstWorded(
    [
      ...specific,
      ...(label === '' ? [] : [`error.${error.code}.field`]),
      `error.${error.code}`,
      `error.${error.code}.plain`,
      `card.error.${error.code}`,
    ],
    vars,
  );
  return key === undefined ? t('error.unknown', { code: error.code }) : say(key, vars);
}

/**
 * A free-text value checked by the contract's own schema before anything is sent (main checks it again): its card-data
 * or hidden-character refusal in words, or undefined when main will take it.
 */
export function textProblem(schema: z.ZodType, value: string, field: string, t: Translate): string | undefined {
  const code = textIssueCode(schema.safeParse(value).error?.issues.find((issue) => textIssueCode(issue) !== undefined));
  return code === undefined ? undefined : describeError(new ApiError({ code, message: '', field }), t);
}

/** Card data in a free-text value: a card number or a security code. */
export type CardDataIssue = Extract<TextIssueCode, 'card_number_in_text' | 'security_code_in_text'>;

/**
 * The card data a free-text value holds, by the contract's own schema (main checks it again), or undefined. A field that
 * holds it is emptied at once (never kept on screen or in a store), and `clearedText` says why.
 */
export function cardDataIn(schema: z.ZodType, value: string): CardDataIssue | undefined {
  const code = textIssueCode(schema.safeParse(value).error?.issues.find((issue) => textIssueCode(issue) !== undefined));
  return code === 'card_number_in_text' || code === 'security_code_in_text' ? code : undefined;
}

/** Why a field was emptied, in words: the field named, what was in it, and that card data goes only in the card form. */
export function clearedText(code: CardDataIssue, field: string, t: Translate): string {
  return t(code === 'card_number_in_text' ? 'refusal.cardNumber.cleared' : 'refusal.securityCode.cleared', {
    field: labelOf(field, t) || field,
  });
}
