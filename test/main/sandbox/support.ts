/**
 * A small typed client over Node's global fetch for the simulator integration suite.
 *
 * Written from the specification (shared/spec/*.md and main/sandbox/README.md), not
 * from the implementation. It deliberately does not import vitest, so the Playwright
 * spec can use it too: its assertion helpers throw plain Errors.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { SimulatorEndpoints } from '../../../main/sandbox';

// ---------------------------------------------------------------------------
// Simulator handle

/** The start line's keys (simulator.md), as the simulator itself declares them. */
export type SimInfo = SimulatorEndpoints;

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

// ---------------------------------------------------------------------------
// Test cards (interface-decisions §9)

export interface TestCard {
  scenario: string;
  number: string;
  cvv: string;
  brand: string;
  /** Final payment status once processed (3DS: the status right after creation). */
  outcome: 'succeeded' | 'failed' | 'requires_action';
  failureCode?: string;
}

export const CARDS = {
  visa: { scenario: 'Visa success', number: '4242424242424242', cvv: '314', brand: 'visa', outcome: 'succeeded' },
  mastercard: {
    scenario: 'Mastercard success',
    number: '5555555555554444',
    cvv: '271',
    brand: 'mastercard',
    outcome: 'succeeded',
  },
  amex: { scenario: 'Amex success', number: '378282246310005', cvv: '8642', brand: 'amex', outcome: 'succeeded' },
  msi: {
    scenario: 'MSI (Mexican credit card)',
    number: '4000004840000008',
    cvv: '592',
    brand: 'visa',
    outcome: 'succeeded',
  },
  threeDS: {
    scenario: '3D Secure challenge',
    number: '4000000000003220',
    cvv: '653',
    brand: 'visa',
    outcome: 'requires_action',
  },
  declined: {
    scenario: 'Declined',
    number: '4000000000000002',
    cvv: '589',
    brand: 'visa',
    outcome: 'failed',
    failureCode: 'card_declined',
  },
  insufficientFunds: {
    scenario: 'Insufficient funds',
    number: '4000000000009995',
    cvv: '793',
    brand: 'visa',
    outcome: 'failed',
    failureCode: 'insufficient_funds',
  },
  expiredCard: {
    scenario: 'Expired card',
    number: '4000000000000069',
    cvv: '238',
    brand: 'visa',
    outcome: 'failed',
    failureCode: 'expired_card',
  },
  incorrectCvc: {
    scenario: 'Incorrect CVC',
    number: '4000000000000127',
    cvv: '462',
    brand: 'visa',
    outcome: 'failed',
    failureCode: 'incorrect_cvc',
  },
} as const satisfies Record<string, TestCard>;

export type CardName = keyof typeof CARDS;
export const ALL_CARDS: readonly TestCard[] = Object.values(CARDS);

// ---------------------------------------------------------------------------
// Response schemas

export const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'ISO 8601 timestamp');

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string().regex(/^[a-z0-9_]+$/),
    message: z.string().min(1),
    param: z.string().optional(),
    requestId: z.string().min(1),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>['error'];

export const tokenErrorSchema = z.object({
  error: z.string().min(1),
  error_description: z.string().optional(),
});

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int(),
  token_type: z.literal('Bearer'),
});

export const methodSchema = z.object({
  id: z.string().regex(/^mth_[0-9a-f]{32}$/),
  type: z.literal('card'),
  card: z.object({
    last4: z.string().regex(/^\d{4}$/),
    brand: z.string().min(1),
    expMonth: z.number().int(),
    expYear: z.number().int(),
  }),
  createdAt: isoDate,
  expiresAt: isoDate.optional(),
});
export type Method = z.infer<typeof methodSchema>;

export const refundSchema = z.object({
  id: z.string().regex(/^ref_[0-9a-f]{32}$/),
  paymentId: z.string().regex(/^pay_[0-9a-f]{32}$/),
  status: z.enum(['pending', 'succeeded', 'failed']),
  amount: z.number(),
  currency: z.enum(['usd', 'mxn']),
  reason: z.enum(['duplicate', 'fraudulent', 'requested_by_customer', 'cancellation']),
  createdAt: isoDate,
});
export type Refund = z.infer<typeof refundSchema>;

export const paymentStatus = z.enum([
  'pending_confirmation',
  'processing',
  'requires_action',
  'succeeded',
  'failed',
  'expired',
]);
export type PaymentStatus = z.infer<typeof paymentStatus>;

export const paymentSchema = z.object({
  id: z.string().regex(/^pay_[0-9a-f]{32}$/),
  status: paymentStatus,
  amount: z.number(),
  originalAmount: z.number().optional(),
  currency: z.enum(['usd', 'mxn']),
  methodId: z.string().regex(/^mth_[0-9a-f]{32}$/),
  reservationId: z.string(),
  availableInstallments: z.array(z.number().int()).optional(),
  installments: z.object({ count: z.number().int(), perInstallment: z.number() }).optional(),
  nextAction: z.object({ type: z.string(), url: z.string() }).optional(),
  failure: z.object({ code: z.string(), message: z.string().min(1) }).optional(),
  refunds: z.array(refundSchema).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  returnUrl: z.string().optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
  expiresAt: isoDate.optional(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const clockSchema = z.object({ now: isoDate });
export const clientsSchema = z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) });

// ---------------------------------------------------------------------------
// HTTP

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  /** The X-Request-Id this request carried, if any. */
  sentRequestId: string | undefined;
  durationMs: number;
}

export interface RawRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  redirect?: 'manual' | 'follow' | 'error';
}

export async function http(req: RawRequest): Promise<HttpResult> {
  const started = performance.now();
  const init: RequestInit = { method: req.method, headers: req.headers ?? {}, redirect: req.redirect ?? 'manual' };
  if (req.body !== undefined) init.body = req.body;
  const res = await fetch(req.url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = text.length > 0 ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    body = undefined;
  }
  const sentRequestId = Object.entries(req.headers ?? {}).find(([k]) => k.toLowerCase() === 'x-request-id')?.[1];
  return {
    status: res.status,
    headers: res.headers,
    text,
    body,
    sentRequestId,
    durationMs: performance.now() - started,
  };
}

export function describeResult(res: HttpResult): string {
  return `HTTP ${res.status} ${res.text.slice(0, 600)}`;
}

/** Parses a 2xx body with a schema; throws with the response text otherwise. */
export function parseOk<T>(res: HttpResult, schema: z.ZodType<T>, expectedStatus: number): T {
  if (res.status !== expectedStatus) {
    throw new Error(`expected HTTP ${expectedStatus}, got ${describeResult(res)}`);
  }
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) {
    throw new Error(`response body does not match the schema: ${parsed.error.message}\n${res.text.slice(0, 600)}`);
  }
  return parsed.data;
}

/** Parses an interface-decisions §3 error body; throws when the body has another shape. */
export function parseError(res: HttpResult): ErrorBody {
  const parsed = errorBodySchema.safeParse(res.body);
  if (!parsed.success) {
    throw new Error(`not a §3 error body: ${parsed.error.message}\n${describeResult(res)}`);
  }
  return parsed.data.error;
}

export interface ErrorExpectation {
  /** Exact param, a pattern it must match, or undefined to not check. */
  param?: string | RegExp;
  /** Check that requestId equals the X-Request-Id sent (default true when one was sent). */
  checkRequestId?: boolean;
}

/**
 * Asserts HTTP status, §3 error body, error.code, a non-empty message, optionally the
 * param, and requestId equal to the X-Request-Id sent. Returns the error object.
 */
export function assertError(res: HttpResult, status: number, code: string, exp: ErrorExpectation = {}): ErrorBody {
  if (res.status !== status) {
    throw new Error(`expected HTTP ${status} ${code}, got ${describeResult(res)}`);
  }
  const err = parseError(res);
  if (err.code !== code) throw new Error(`expected error.code ${code}, got ${err.code}: ${res.text}`);
  if (err.message.trim().length === 0) throw new Error(`empty error.message: ${res.text}`);
  if (exp.param !== undefined) {
    const ok =
      typeof exp.param === 'string' ? err.param === exp.param : err.param !== undefined && exp.param.test(err.param);
    if (!ok) throw new Error(`expected error.param ${String(exp.param)}, got ${String(err.param)}: ${res.text}`);
  }
  if ((exp.checkRequestId ?? true) && res.sentRequestId !== undefined && err.requestId !== res.sentRequestId) {
    throw new Error(`expected error.requestId ${res.sentRequestId}, got ${err.requestId}`);
  }
  return err;
}

export function newRequestId(): string {
  return `test-${randomUUID()}`;
}

export function newIdempotencyKey(): string {
  return randomUUID();
}

/** A syntactically valid payment id that no simulator has issued. */
export function unknownPaymentId(): string {
  return `pay_${randomUUID().replace(/-/g, '')}`;
}

export function unknownMethodId(): string {
  return `mth_${randomUUID().replace(/-/g, '')}`;
}

// ---------------------------------------------------------------------------
// Control endpoints (simulator.md)

async function control(sim: SimInfo, path: string, body?: unknown): Promise<HttpResult> {
  return http({
    method: 'POST',
    url: `${sim.controlUrl}${path}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
}

/** Moves the simulator clock forward; returns the new simulator time. */
export async function advanceClock(sim: SimInfo, seconds: number): Promise<Date> {
  const res = await control(sim, '/clock', { advanceSeconds: seconds });
  return new Date(parseOk(res, clockSchema, 200).now);
}

/** The simulator's current time. */
export async function simNow(sim: SimInfo): Promise<Date> {
  return advanceClock(sim, 0);
}

export type FaultKind = 'error_500' | 'error_503' | 'error_429' | 'delay' | 'drop_before_commit' | 'drop_after_commit';

export interface FaultRequest {
  operation: string;
  fault: FaultKind;
  count?: number;
  delayMs?: number;
}

export async function injectFault(sim: SimInfo, fault: FaultRequest): Promise<void> {
  const res = await control(sim, '/faults', { count: 1, ...fault });
  if (res.status !== 201) throw new Error(`injecting a fault failed: ${describeResult(res)}`);
}

export async function registerClient(sim: SimInfo): Promise<Credentials> {
  return parseOk(await control(sim, '/clients'), clientsSchema, 201);
}

export async function resetSim(sim: SimInfo): Promise<void> {
  const res = await control(sim, '/reset');
  if (res.status !== 200) throw new Error(`reset failed: ${describeResult(res)}`);
}

// ---------------------------------------------------------------------------
// The API client

export interface CallOptions {
  /** Idempotency-Key: a string to send, null to omit; default: a fresh UUID v4 on POST, none otherwise. */
  idempotencyKey?: string | null;
  /** X-Request-Id: a string to send, null to omit; default: a fresh one. */
  requestId?: string | null;
  /** Bearer token: a string to send, null to omit; default: this client's token. */
  token?: string | null;
  /** Send this text as the body instead of JSON.stringify(body). */
  rawBody?: string | Uint8Array;
  /** Extra or overriding headers. */
  headers?: Record<string, string>;
}

export interface CardOverrides {
  number?: string;
  cvv?: string;
  expMonth?: number;
  expYear?: number;
  currency?: string;
  holderName?: string;
}

export class ApiClient {
  private accessToken: string | undefined;

  constructor(
    readonly sim: SimInfo,
    readonly creds: Credentials = { clientId: sim.clientId, clientSecret: sim.clientSecret },
  ) {}

  /** Raw call of the token endpoint with these form fields. */
  async requestToken(
    form?: Record<string, string>,
    opts: { requestId?: string; headers?: Record<string, string> } = {},
  ): Promise<HttpResult> {
    const fields = form ?? {
      grant_type: 'client_credentials',
      client_id: this.creds.clientId,
      client_secret: this.creds.clientSecret,
    };
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers };
    if (opts.requestId !== undefined) headers['x-request-id'] = opts.requestId;
    return http({
      method: 'POST',
      url: `${this.sim.authUrl}/oauth2/token`,
      headers,
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** A cached access token (obtains one when none is cached). */
  async token(): Promise<string> {
    if (this.accessToken === undefined) await this.refreshToken();
    if (this.accessToken === undefined) throw new Error('no token');
    return this.accessToken;
  }

  /** Obtains a new access token (e.g. after moving the clock past its lifetime). */
  async refreshToken(): Promise<string> {
    const res = await this.requestToken();
    const tok = parseOk(res, tokenResponseSchema, 200);
    this.accessToken = tok.access_token;
    return tok.access_token;
  }

  async call(method: string, url: string, body: unknown, opts: CallOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = {};
    const token = opts.token === undefined ? await this.token() : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const requestId = opts.requestId === undefined ? newRequestId() : opts.requestId;
    if (requestId !== null) headers['x-request-id'] = requestId;
    const key =
      opts.idempotencyKey === undefined ? (method === 'POST' ? newIdempotencyKey() : null) : opts.idempotencyKey;
    if (key !== null) headers['idempotency-key'] = key;
    let payload: string | Uint8Array | undefined;
    if (opts.rawBody !== undefined) payload = opts.rawBody;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, opts.headers);
    const req: RawRequest = { method, url, headers };
    if (payload !== undefined) req.body = payload;
    return http(req);
  }

  post(url: string, body: unknown, opts?: CallOptions): Promise<HttpResult> {
    return this.call('POST', url, body, opts);
  }

  get(url: string, opts?: CallOptions): Promise<HttpResult> {
    return this.call('GET', url, undefined, opts);
  }

  patch(url: string, body: unknown, opts?: CallOptions): Promise<HttpResult> {
    return this.call('PATCH', url, body, opts);
  }

  // --- endpoints -----------------------------------------------------------

  methodsUrl(): string {
    return `${this.sim.cdeUrl}/methods`;
  }

  paymentsUrl(id?: string): string {
    return id === undefined ? `${this.sim.baseUrl}/payments` : `${this.sim.baseUrl}/payments/${id}`;
  }

  /** A CardInput for a card, with a future expiry computed from the simulator's clock. */
  async cardInput(card: TestCard | string, overrides: CardOverrides = {}): Promise<Record<string, unknown>> {
    const now = await simNow(this.sim);
    const number = typeof card === 'string' ? card : card.number;
    const cvv =
      typeof card === 'string' ? (number.startsWith('34') || number.startsWith('37') ? '1234' : '123') : card.cvv;
    return { number, expMonth: 12, expYear: now.getUTCFullYear() + 3, cvv, ...overrides };
  }

  /** Raw POST {cdeUrl}/methods for a card. */
  async tokenizeRaw(card: TestCard | string, overrides: CardOverrides = {}, opts?: CallOptions): Promise<HttpResult> {
    return this.post(this.methodsUrl(), { type: 'card', card: await this.cardInput(card, overrides) }, opts);
  }

  /** Tokenizes a card; asserts 201 and returns the method. */
  async tokenize(card: TestCard | string, overrides: CardOverrides = {}): Promise<Method> {
    return parseOk(await this.tokenizeRaw(card, overrides), methodSchema, 201);
  }

  async createPaymentRaw(body: Record<string, unknown>, opts?: CallOptions): Promise<HttpResult> {
    return this.post(this.paymentsUrl(), body, opts);
  }

  /** Creates a payment (usd 100.00 unless told otherwise); asserts 201. */
  async createPayment(methodId: string, extra: Record<string, unknown> = {}): Promise<Payment> {
    const body = { methodId, amount: 100, currency: 'usd', reservationId: 'RES-1', ...extra };
    return parseOk(await this.createPaymentRaw(body), paymentSchema, 201);
  }

  /** Tokenizes a card and creates a payment with it. */
  async payWith(card: TestCard, extra: Record<string, unknown> = {}): Promise<Payment> {
    const method = await this.tokenize(card);
    return this.createPayment(method.id, extra);
  }

  async getPaymentRaw(id: string, opts?: CallOptions): Promise<HttpResult> {
    return this.get(this.paymentsUrl(id), opts);
  }

  async getPayment(id: string): Promise<Payment> {
    return parseOk(await this.getPaymentRaw(id), paymentSchema, 200);
  }

  async patchPaymentRaw(id: string, body: unknown, opts?: CallOptions): Promise<HttpResult> {
    return this.patch(this.paymentsUrl(id), body, opts);
  }

  async confirmRaw(id: string, body: unknown = {}, opts: CallOptions = {}): Promise<HttpResult> {
    return this.post(`${this.paymentsUrl(id)}/confirmation`, body, { idempotencyKey: null, ...opts });
  }

  async refundRaw(id: string, body: unknown, opts?: CallOptions): Promise<HttpResult> {
    return this.post(`${this.paymentsUrl(id)}/refunds`, body, opts);
  }

  async refund(id: string, body: unknown): Promise<Refund> {
    return parseOk(await this.refundRaw(id, body), refundSchema, 201);
  }

  /**
   * A succeeded payment: creates one with a success card and moves the clock past the
   * processing delay.
   */
  async succeededPayment(extra: Record<string, unknown> = {}, settleSeconds = 60): Promise<Payment> {
    const p = await this.payWith(CARDS.visa, extra);
    await advanceClock(this.sim, settleSeconds);
    const settled = await this.getPayment(p.id);
    if (settled.status !== 'succeeded') throw new Error(`payment did not succeed: ${JSON.stringify(settled)}`);
    return settled;
  }
}

/** A fresh tenant registered through the control endpoint, with a token already obtained. */
export async function newTenant(sim: SimInfo): Promise<ApiClient> {
  const client = new ApiClient(sim, await registerClient(sim));
  await client.token();
  return client;
}

/** A short real-time pause (only for brief waits; time is driven with the clock). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** MSI plans expected by interface-decisions §8 for an amount. */
export function expectedPlans(amount: number): number[] {
  return [3, 6, 9, 12, 18, 24].filter((n) => n * 100 <= amount + 1e-9);
}

/** Every string value anywhere in a JSON value. */
export function allStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(allStrings);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [k, ...allStrings(v)]);
  }
  return [];
}
