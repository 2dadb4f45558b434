/** Typed client for every operation of the service: X-Request-Id on each request, retries with the same Idempotency-Key. */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { z } from 'zod';
import type { ServiceConfig } from './config';
import { messageFor, noAnswer, ServiceError, unreadableAnswer } from './errors';
import { MethodResource, PaymentResource, RefundResource } from './resources';
import type { ServiceClock } from './service-clock';
import type { TokenManager } from './tokens';
import { ErrorBody, HEADERS, PATHS } from './wire';

export const MAX_ATTEMPTS = 3;
const MAX_RETRY_AFTER_MS = 30_000;

/** One HTTP attempt, as recorded for the journal and the logs (never a body, a token or a secret). */
export interface Attempt {
  operation: string;
  attempt: number;
  idempotencyKey: string | undefined;
  requestId: string;
  status: number | 'network_error' | 'timeout';
  elapsedMs: number;
}

export interface ClientDeps {
  config: ServiceConfig;
  tokens: TokenManager;
  /** The app's one fetch (Electron's net.fetch in the app): never the global one. */
  fetch: typeof fetch;
  onAttempt?: (attempt: Attempt) => void;
  /** Told the service's Date of every answer. */
  clock?: ServiceClock;
  /** Waits between attempts; tests may record instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** First backoff step; doubled on each retry. */
  backoffBaseMs?: number;
}

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvv: string;
  holderName?: string;
  currency?: 'usd' | 'mxn';
}

export interface CreatePaymentInput {
  methodId: string;
  amount: number;
  currency: 'usd' | 'mxn';
  reservationId: string;
  installments?: { required: boolean };
  returnUrl?: string;
  metadata?: Record<string, string>;
}

export interface Answer<T> {
  value: T;
  /** The service answered with a stored response (Idempotent-Replayed: true). */
  replayed: boolean;
  requestId: string;
}

interface Call<S extends z.ZodType> {
  operation: string;
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  body?: unknown;
  idempotencyKey?: string;
  schema: S;
  trace?: RequestTrace | undefined;
}

/**
 * The service request ids one call of the app made (its audit row names them): each request's id is pushed as it is
 * sent, retries included. Given explicitly by whoever asks (the IPC door's call, through the engine); requests made
 * for nobody's call (the poller, recovery) have none.
 */
export type RequestTrace = string[];

export class ServiceClient {
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly deps: ClientDeps) {
    this.fetch = deps.fetch;
    this.sleep = deps.sleep ?? ((ms) => delay(ms));
    this.random = deps.random ?? Math.random;
  }

  /** POST {cdeUrl}/methods. The card stays in this call's arguments: it is never recorded. */
  tokenize(
    card: CardInput,
    idempotencyKey: string,
    guestEmail?: string,
    trace?: RequestTrace,
  ): Promise<Answer<MethodResource>> {
    const body = { type: 'card', card, ...(guestEmail === undefined ? {} : { guestEmail }) };
    return this.send({
      operation: 'POST /methods',
      url: this.deps.config.cdeUrl + PATHS.methods,
      method: 'POST',
      body,
      idempotencyKey,
      schema: MethodResource,
      trace,
    });
  }

  createPayment(
    input: CreatePaymentInput,
    idempotencyKey: string,
    trace?: RequestTrace,
  ): Promise<Answer<PaymentResource>> {
    return this.send({
      operation: 'POST /payments',
      url: this.base(PATHS.payments),
      method: 'POST',
      body: input,
      idempotencyKey,
      schema: PaymentResource,
      trace,
    });
  }

  getPayment(id: string, trace?: RequestTrace): Promise<Answer<PaymentResource>> {
    return this.send({
      operation: 'GET /payments/{id}',
      url: this.base(PATHS.payment(id)),
      method: 'GET',
      schema: PaymentResource,
      trace,
    });
  }

  /**
   * PATCH carries no Idempotency-Key and is never re-sent blindly: when its answer is lost, the payment is read;
   * the amount it shows is compared with the one asked, and only a payment still pending confirmation with
   * another amount is sent the update again. The last failed round throws.
   */
  updateAmount(id: string, amount: number, trace?: RequestTrace): Promise<Answer<PaymentResource>> {
    const call = {
      operation: 'PATCH /payments/{id}',
      url: this.base(PATHS.payment(id)),
      method: 'PATCH',
      body: { amount },
      schema: PaymentResource,
      trace,
    } as const;
    return this.readBeforeResending(
      id,
      call,
      (read) => read.status !== 'pending_confirmation' || Math.round(read.amount * 100) === Math.round(amount * 100),
    );
  }

  /**
   * Confirmation carries no Idempotency-Key, so it is never sent blindly twice (interface-decisions §7): when its
   * answer is lost, the payment is read, and the confirmation is sent again only if the read shows it was not
   * applied (still pending_confirmation). A 422 invalid_state after a lost answer means an earlier send went
   * through: the payment is read and what the service holds is the answer. The last failed round throws.
   * `expectedAmount` (wire): a read holding another amount is not confirmed again (it would charge what the agent never
   * saw): that read is the answer, still pending_confirmation.
   */
  confirm(
    id: string,
    installmentsCount?: number,
    trace?: RequestTrace,
    expectedAmount?: number,
  ): Promise<Answer<PaymentResource>> {
    const body = installmentsCount === undefined ? {} : { installments: { count: installmentsCount } };
    const call = {
      operation: 'POST /payments/{id}/confirmation',
      url: this.base(PATHS.confirmation(id)),
      method: 'POST',
      body,
      schema: PaymentResource,
      trace,
    } as const;
    const changed = (read: PaymentResource): boolean =>
      expectedAmount !== undefined && Math.round(read.amount * 100) !== Math.round(expectedAmount * 100);
    return this.readBeforeResending(id, call, (read) => read.status !== 'pending_confirmation' || changed(read));
  }

  /** Sends a call without a key; after a lost answer, reads the payment and re-sends only when `settled` says the read does not already answer it. */
  private async readBeforeResending(
    id: string,
    call: Call<typeof PaymentResource>,
    settled: (read: PaymentResource) => boolean,
  ): Promise<Answer<PaymentResource>> {
    let lost = false;
    for (let round = 1; ; round++) {
      try {
        return await this.send(call, 'unsent-only');
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        // An earlier send whose answer was lost went through: report what the service holds now.
        if (lost && error.code === 'invalid_state') return this.getPayment(id, call.trace);
        if (!answerMayBeLost(error)) throw error;
        lost = true;
        const read = await this.getPayment(id, call.trace);
        if (settled(read.value)) return read;
        if (round >= MAX_ATTEMPTS) throw error;
        await this.sleep(this.backoff(round, undefined));
      }
    }
  }

  createRefund(
    paymentId: string,
    input: { amount?: number; reason: string },
    idempotencyKey: string,
    trace?: RequestTrace,
  ): Promise<Answer<RefundResource>> {
    return this.send({
      operation: 'POST /payments/{id}/refunds',
      url: this.base(PATHS.refunds(paymentId)),
      method: 'POST',
      body: input,
      idempotencyKey,
      schema: RefundResource,
      trace,
    });
  }

  private base(path: string): string {
    return this.deps.config.baseUrl + path;
  }

  /**
   * Sends with retries: network errors, timeouts, 5xx, 429 and 409 in-progress; never another 4xx. `unsent-only`
   * (a call without an Idempotency-Key that changes something) retries only what surely was not processed: a 429,
   * or no token to send it with.
   */
  private async send<S extends z.ZodType>(
    call: Call<S>,
    retry: 'any' | 'unsent-only' = 'any',
  ): Promise<Answer<z.output<S>>> {
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      let retryAfterMs: number | undefined;
      try {
        return await this.attempt(call, attempt);
      } catch (error) {
        if (!(error instanceof AttemptError)) throw error;
        if (error.staleToken !== undefined && !refreshed) {
          // One transparent refresh on 401 invalid_token; it does not count as an attempt.
          this.deps.tokens.invalidate(error.staleToken);
          refreshed = true;
          attempt--;
          continue;
        }
        if (!error.retryable || attempt >= MAX_ATTEMPTS) throw error.failure;
        if (retry === 'unsent-only' && !error.unsent) throw error.failure;
        retryAfterMs = error.retryAfterMs;
        if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) throw error.failure;
      }
      await this.sleep(this.backoff(attempt, retryAfterMs));
    }
  }

  private async attempt<S extends z.ZodType>(call: Call<S>, attempt: number): Promise<Answer<z.output<S>>> {
    const requestId = randomUUID();
    const started = performance.now();
    const record = (status: Attempt['status']): void => {
      call.trace?.push(requestId);
      this.deps.onAttempt?.({
        operation: call.operation,
        attempt,
        idempotencyKey: call.idempotencyKey,
        requestId,
        status,
        elapsedMs: performance.now() - started,
      });
    };

    let token: string;
    try {
      token = await this.deps.tokens.get();
    } catch (error) {
      if (error instanceof ServiceError) {
        const transient = error.kind === 'network' || error.kind === 'timeout' || (error.details.status ?? 0) >= 500;
        throw new AttemptError(error, transient, undefined, undefined, true);
      }
      throw error;
    }
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, [HEADERS.requestId]: requestId };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    if (call.idempotencyKey !== undefined) headers[HEADERS.idempotencyKey] = call.idempotencyKey;

    let response: Response;
    try {
      response = await this.fetch(call.url, {
        method: call.method,
        headers,
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
        signal: AbortSignal.timeout(this.deps.config.requestTimeoutMs),
      });
    } catch (error) {
      const failure = noAnswer(error, requestId);
      record(failure.kind === 'timeout' ? 'timeout' : 'network_error');
      throw new AttemptError(failure, true);
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      json = undefined;
    }
    record(response.status);
    this.deps.clock?.observe(response.headers.get('date'), started);

    if (response.ok) {
      const parsed = call.schema.safeParse(json);
      if (!parsed.success) throw unreadableAnswer(response.status, requestId);
      return { value: parsed.data, replayed: response.headers.get(HEADERS.replayed) === 'true', requestId };
    }

    const error = ErrorBody.safeParse(json);
    const code = error.success ? error.data.error.code : `http_${response.status}`;
    const failure = new ServiceError(
      'http',
      code,
      messageFor(code, response.status, error.success ? error.data.error.message : undefined),
      {
        status: response.status,
        requestId,
        ...(error.success && error.data.error.param !== undefined ? { param: error.data.error.param } : {}),
      },
    );
    if (response.status === 401 && code === 'invalid_token') throw new AttemptError(failure, false, undefined, token);
    const retryable = response.status >= 500 || response.status === 429 || code === 'idempotency_in_progress';
    throw new AttemptError(failure, retryable, retryAfterOf(response), undefined, response.status === 429);
  }

  /** Exponential backoff with jitter, or exactly what Retry-After asks. */
  private backoff(attempt: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) return retryAfterMs;
    const step = (this.deps.backoffBaseMs ?? 500) * 2 ** (attempt - 1);
    return Math.round(step / 2 + (this.random() * step) / 2);
  }
}

/** Whether a confirmation may have been applied although no answer came back. */
const answerMayBeLost = (e: ServiceError): boolean =>
  e.kind === 'network' || e.kind === 'timeout' || (e.details.status ?? 0) >= 500;

class AttemptError extends Error {
  constructor(
    readonly failure: ServiceError,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    readonly staleToken?: string,
    /** Surely not processed by the service (a 429, or never sent for want of a token). */
    readonly unsent = false,
  ) {
    super(failure.message);
  }
}

function retryAfterOf(response: Response): number | undefined {
  const header = response.headers.get(HEADERS.retryAfter);
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
