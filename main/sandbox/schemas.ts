/** Request bodies the simulator accepts, as zod schemas, and their failures as §3 errors. */
import { z } from 'zod';
import { cardFacts, isExpired, passesLuhn } from './cards';
import type { SimClock } from './clock';

export const CURRENCIES = ['usd', 'mxn'] as const;
export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'cancellation'] as const;
export const PAYMENT_ID = /^pay_[a-f0-9]{32}$/;
export const METHOD_ID = /^mth_[a-f0-9]{32}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A validation failure: a message for a person and the field at fault. */
export interface Invalid {
  message: string;
  param?: string;
}

/**
 * A JSON number with at most 2 decimals is exactly the double nearest some whole number of cents: no tolerance, so
 * 0.30000000000000004 (0.1 + 0.2 sent raw) is refused as decided (interface-decisions §3).
 */
const atMostTwoDecimals = (n: number): boolean => {
  const cents = Math.round(n * 100);
  return Number.isSafeInteger(cents) && cents / 100 === n;
};

/** Whole cents, 0.01 to 999999.99 (interface-decisions §3). */
const amount = (name: string) =>
  z
    .number()
    .refine((n) => n >= 0.01, `${name} must be at least 0.01.`)
    .refine((n) => n <= 999999.99, `${name} must be at most 999999.99.`)
    .refine(atMostTwoDecimals, `${name} can have at most 2 decimals.`);

const currency = z.enum(CURRENCIES, { error: 'currency must be usd or mxn (lowercase).' });

const metadata = z
  .record(
    z
      .string()
      .max(40, 'metadata keys can have at most 40 characters.')
      .refine((k) => k !== '__proto__', 'metadata keys cannot be __proto__.'),
    z
      .string({ error: 'metadata values must be strings.' })
      .max(500, 'metadata values can have at most 500 characters.'),
  )
  .refine((m) => Object.keys(m).length <= 50, 'metadata can have at most 50 keys.');

export function makeSchemas(clock: SimClock) {
  const card = z
    .strictObject({
      number: z.string().regex(/^\d{12,19}$/, 'card.number must be 12 to 19 digits, with no spaces or dashes.'),
      expMonth: z
        .number()
        .int('card.expMonth must be a whole number.')
        .min(1, 'card.expMonth must be 1 to 12.')
        .max(12, 'card.expMonth must be 1 to 12.'),
      expYear: z
        .number()
        .int('card.expYear must be a whole number.')
        .min(2000, 'card.expYear must have four digits.')
        .max(9999, 'card.expYear must have four digits.'),
      cvv: z.string().regex(/^\d{3,4}$/, 'card.cvv must be 3 or 4 digits.'),
      currency: currency.optional(),
      holderName: z
        .string()
        .min(1, 'card.holderName cannot be empty.')
        .max(100, 'card.holderName can have at most 100 characters.')
        .optional(),
    })
    .superRefine((c, ctx) => {
      if (!passesLuhn(c.number)) {
        ctx.addIssue({ code: 'custom', path: ['number'], message: 'The card number is not valid: check the digits.' });
        return;
      }
      if (isExpired(c.expMonth, c.expYear, clock.now())) {
        ctx.addIssue({ code: 'custom', path: ['expYear'], message: 'The card has expired: check the expiry date.' });
      }
      const { brand, cvcLength } = cardFacts(c.number);
      if (c.cvv.length !== cvcLength) {
        ctx.addIssue({
          code: 'custom',
          path: ['cvv'],
          message: `The security code must have ${cvcLength} digits for ${brand === 'amex' ? 'American Express' : 'this card'}.`,
        });
      }
    });

  return {
    tokenize: z.strictObject({
      type: z.literal('card', { error: 'type must be "card".' }),
      guestEmail: z.email('guestEmail must be an e-mail address.').max(254).optional(),
      card,
    }),
    createPayment: z.strictObject({
      methodId: z.string().regex(METHOD_ID, 'methodId must look like mth_ followed by 32 hex characters.'),
      amount: amount('amount'),
      currency,
      reservationId: z
        .string()
        .min(1, 'reservationId cannot be empty.')
        .max(64, 'reservationId can have at most 64 characters.'),
      installments: z.strictObject({ required: z.boolean() }).optional(),
      returnUrl: z
        .url('returnUrl must be a URL.')
        .regex(/^https:\/\/.+/, 'returnUrl must start with https://.')
        .max(2048)
        .optional(),
      metadata: metadata.optional(),
    }),
    updateAmount: z.strictObject({ amount: amount('amount') }),
    confirm: z.strictObject({
      installments: z.strictObject({ count: z.number().int('installments.count must be a whole number.') }).optional(),
    }),
    refund: z.strictObject({
      amount: amount('amount').optional(),
      reason: z.enum(REFUND_REASONS, {
        error: `reason must be one of ${REFUND_REASONS.join(', ')}.`,
      }),
    }),
  };
}

export type Schemas = ReturnType<typeof makeSchemas>;
export type TokenizeBody = z.infer<Schemas['tokenize']>;
export type CreatePaymentBody = z.infer<Schemas['createPayment']>;

export const controlSchemas = {
  clock: z.strictObject({
    advanceSeconds: z
      .number()
      .min(0, 'advanceSeconds must be 0 or more.')
      .max(10 * 365 * 86400),
  }),
  faults: z
    .strictObject({
      operation: z.string(),
      fault: z.enum(['error_500', 'error_503', 'error_429', 'delay', 'drop_before_commit', 'drop_after_commit']),
      count: z.number().int().min(1).max(1000).default(1),
      delayMs: z.number().int().min(0).max(600_000).optional(),
    })
    .refine((f) => f.fault !== 'delay' || f.delayMs !== undefined, {
      path: ['delayMs'],
      message: 'delayMs is required for the delay fault.',
    }),
};

export const isUuidV4 = (key: string): boolean => UUID_V4.test(key);

/** Parses with a schema; on failure, the first issue as a message a person understands. */
export function parseBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
): { ok: true; value: T } | { ok: false; invalid: Invalid } {
  if (body === undefined) return { ok: false, invalid: { message: 'The request needs a JSON body.' } };
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  if (!issue) return { ok: false, invalid: { message: 'The request body is not valid.' } };
  return { ok: false, invalid: describeIssue(issue, body) };
}

function describeIssue(issue: z.core.$ZodIssue, body: unknown): Invalid {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const param = [...path, issue.keys[0] ?? ''].join('.');
    return { param, message: `${param} is not a field of this request.` };
  }
  const param = path.length > 0 ? path.join('.') : undefined;
  const name = param ?? 'The body';
  if (issue.code === 'invalid_type') {
    if (valueAt(body, path) === undefined) return { param, message: `${name} is required.` };
    return { param, message: `${name} must be ${article(issue.expected)}.` };
  }
  // Our schemas give every other check a message for a person; zod's defaults are kept as a fallback.
  return { param, message: issue.message.startsWith('Invalid') ? `${name} is not valid.` : issue.message };
}

function valueAt(body: unknown, path: readonly string[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function article(expected: string): string {
  if (expected === 'object') return 'an object';
  if (expected === 'array') return 'a list';
  if (expected === 'int') return 'a whole number';
  return `a ${expected}`;
}
