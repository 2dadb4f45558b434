// Fault injection, rate limit and latency (simulator.md; interface-decisions §3; README Faults, Rate limit, Latency).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ApiClient,
  CARDS,
  assertError,
  injectFault,
  methodSchema,
  newIdempotencyKey,
  newTenant,
  parseOk,
  paymentSchema,
  refundSchema,
  simNow,
  sleep,
  unknownPaymentId,
  type HttpResult,
} from './support';

let sim: RunningSimulator;
let client: ApiClient;
let methodId: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, processingDelayMs: 1000 });
  client = await newTenant(sim);
  methodId = (await client.tokenize(CARDS.visa)).id;
});

afterAll(async () => {
  await sim.close();
});

function paymentBody(amount: number): Record<string, unknown> {
  return { methodId, amount, currency: 'usd', reservationId: 'RES-FAULT' };
}

function replayed(res: HttpResult): boolean {
  return res.headers.get('idempotent-replayed') === 'true';
}

function retryAfterSeconds(res: HttpResult): number {
  const value = res.headers.get('retry-after');
  if (value === null || !/^\d+$/.test(value)) throw new Error(`no integer Retry-After header: ${String(value)}`);
  return Number(value);
}

describe('error faults', () => {
  it('error_500 → 500 internal_error with the §3 body; the next request is normal', async () => {
    await injectFault(sim, { operation: 'POST /payments', fault: 'error_500' });
    assertError(await client.createPaymentRaw(paymentBody(1)), 500, 'internal_error');
    parseOk(await client.createPaymentRaw(paymentBody(1)), paymentSchema, 201);
  });

  it('error_503 → 503 unavailable', async () => {
    const p = await client.createPayment(methodId);
    await injectFault(sim, { operation: 'GET /payments/{id}', fault: 'error_503' });
    assertError(await client.getPaymentRaw(p.id), 503, 'unavailable');
    parseOk(await client.getPaymentRaw(p.id), paymentSchema, 200);
  });

  it('error_429 → 429 rate_limited with Retry-After: 1', async () => {
    await injectFault(sim, { operation: 'POST /methods', fault: 'error_429' });
    const res = await client.tokenizeRaw(CARDS.visa);
    assertError(res, 429, 'rate_limited');
    expect(retryAfterSeconds(res)).toBe(1);
    parseOk(await client.tokenizeRaw(CARDS.visa), methodSchema, 201);
  });

  it('count N: exactly the next N matching requests get the fault', async () => {
    await injectFault(sim, { operation: 'POST /payments', fault: 'error_503', count: 2 });
    assertError(await client.createPaymentRaw(paymentBody(2)), 503, 'unavailable');
    // a different operation is not affected
    parseOk(await client.tokenizeRaw(CARDS.visa), methodSchema, 201);
    assertError(await client.createPaymentRaw(paymentBody(2)), 503, 'unavailable');
    parseOk(await client.createPaymentRaw(paymentBody(2)), paymentSchema, 201);
  });

  it('faults apply before auth (a request without a token still gets the fault)', async () => {
    await injectFault(sim, { operation: 'GET /payments/{id}', fault: 'error_500' });
    assertError(await client.getPaymentRaw(unknownPaymentId(), { token: null }), 500, 'internal_error');
    assertError(await client.getPaymentRaw(unknownPaymentId(), { token: null }), 401, 'invalid_token');
  });

  it('faults on PATCH, confirmation, refunds and the token endpoint', async () => {
    const msi = await client.tokenize(CARDS.msi);
    const p = await client.createPayment(msi.id, { amount: 900, currency: 'mxn', installments: { required: true } });
    await injectFault(sim, { operation: 'PATCH /payments/{id}', fault: 'error_500' });
    assertError(await client.patchPaymentRaw(p.id, { amount: 950 }), 500, 'internal_error');
    expect((await client.getPayment(p.id)).amount).toBe(900);
    await injectFault(sim, { operation: 'POST /payments/{id}/confirmation', fault: 'error_503' });
    assertError(await client.confirmRaw(p.id, {}), 503, 'unavailable');
    expect((await client.getPayment(p.id)).status).toBe('pending_confirmation');

    const paid = await client.succeededPayment({ amount: 10 });
    await injectFault(sim, { operation: 'POST /payments/{id}/refunds', fault: 'error_500' });
    const key = newIdempotencyKey();
    assertError(
      await client.refundRaw(paid.id, { reason: 'duplicate' }, { idempotencyKey: key }),
      500,
      'internal_error',
    );
    const retry = await client.refundRaw(paid.id, { reason: 'duplicate' }, { idempotencyKey: key });
    expect(parseOk(retry, refundSchema, 201).amount).toBe(10);
    expect(replayed(retry)).toBe(false);

    await injectFault(sim, { operation: 'POST /oauth2/token', fault: 'error_503' });
    expect((await client.requestToken()).status).toBe(503);
    expect((await client.requestToken()).status).toBe(200);
  });

  it('an unknown fault kind or operation is refused by the control endpoint', async () => {
    const res = await fetch(`${sim.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'POST /payments', fault: 'explode', count: 1 }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    // nothing queued: the next request is normal
    parseOk(await client.createPaymentRaw(paymentBody(3)), paymentSchema, 201);
  });
});

describe('delay', () => {
  it('holds the request delayMs before it is processed, then answers normally', async () => {
    await injectFault(sim, { operation: 'POST /payments', fault: 'delay', delayMs: 400 });
    const res = await client.createPaymentRaw(paymentBody(4));
    expect(res.durationMs).toBeGreaterThanOrEqual(380);
    parseOk(res, paymentSchema, 201);
    const quick = await client.createPaymentRaw(paymentBody(4));
    expect(quick.durationMs).toBeLessThan(380);
  });
});

describe('dropped connections', () => {
  it('drop_before_commit: no answer, nothing created; retry with the same key → fresh 201 without the replay header', async () => {
    const key = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /payments', fault: 'drop_before_commit' });
    await expect(client.createPaymentRaw(paymentBody(5), { idempotencyKey: key })).rejects.toThrow();
    const retry = await client.createPaymentRaw(paymentBody(5), { idempotencyKey: key });
    parseOk(retry, paymentSchema, 201);
    expect(replayed(retry)).toBe(false);
    // and the key is now stored
    const again = await client.createPaymentRaw(paymentBody(5), { idempotencyKey: key });
    expect(replayed(again)).toBe(true);
  });

  it('drop_after_commit: no answer, but processed; retry with the same key is a replay with the same id', async () => {
    const key = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /payments', fault: 'drop_after_commit' });
    await expect(client.createPaymentRaw(paymentBody(6), { idempotencyKey: key })).rejects.toThrow();
    const retry = await client.createPaymentRaw(paymentBody(6), { idempotencyKey: key });
    const p = parseOk(retry, paymentSchema, 201);
    expect(replayed(retry)).toBe(true);
    const read = await client.getPayment(p.id);
    expect(read.amount).toBe(6);
  });

  it('drop_after_commit on tokenization: the retry replays the same method', async () => {
    const key = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /methods', fault: 'drop_after_commit' });
    await expect(client.tokenizeRaw(CARDS.mastercard, {}, { idempotencyKey: key })).rejects.toThrow();
    const retry = await client.tokenizeRaw(CARDS.mastercard, {}, { idempotencyKey: key });
    const m = parseOk(retry, methodSchema, 201);
    expect(replayed(retry)).toBe(true);
    expect(m.card.brand).toBe('mastercard');
  });

  it('drop_before_commit on a refund: nothing refunded; drop_after_commit: refunded once', async () => {
    const p = await client.succeededPayment({ amount: 40 });
    const k1 = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /payments/{id}/refunds', fault: 'drop_before_commit' });
    await expect(client.refundRaw(p.id, { amount: 10, reason: 'duplicate' }, { idempotencyKey: k1 })).rejects.toThrow();
    expect((await client.getPayment(p.id)).refunds ?? []).toEqual([]);

    const k2 = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /payments/{id}/refunds', fault: 'drop_after_commit' });
    await expect(client.refundRaw(p.id, { amount: 10, reason: 'duplicate' }, { idempotencyKey: k2 })).rejects.toThrow();
    expect((await client.getPayment(p.id)).refunds).toHaveLength(1);
    const retry = await client.refundRaw(p.id, { amount: 10, reason: 'duplicate' }, { idempotencyKey: k2 });
    expect(replayed(retry)).toBe(true);
    expect((await client.getPayment(p.id)).refunds).toHaveLength(1);
  });

  it('drop on GET: no answer, then the next GET answers', async () => {
    const p = await client.createPayment(methodId);
    await injectFault(sim, { operation: 'GET /payments/{id}', fault: 'drop_before_commit' });
    await expect(client.getPaymentRaw(p.id)).rejects.toThrow();
    parseOk(await client.getPaymentRaw(p.id), paymentSchema, 200);
  });
});

describe('rate limit (rateLimit option)', () => {
  let limited: RunningSimulator;
  beforeAll(async () => {
    limited = await startSimulator({ port: 0, rateLimit: 3 });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('over the limit → 429 rate_limited with Retry-After ≥ 1; served again after Retry-After', async () => {
    const c = new ApiClient(limited);
    const token = await c.token();
    // wait for a fresh one-second window so the burst is not split needlessly
    await sleep(1000);
    const results = await Promise.all(Array.from({ length: 10 }, () => c.getPaymentRaw(unknownPaymentId(), { token })));
    const limitedAnswers = results.filter((r) => r.status === 429);
    const served = results.filter((r) => r.status === 404);
    expect(served.length + limitedAnswers.length).toBe(10);
    expect(served.length).toBeGreaterThanOrEqual(1);
    expect(served.length).toBeLessThanOrEqual(6); // at most two windows of 3
    expect(limitedAnswers.length).toBeGreaterThanOrEqual(4);
    let wait = 1;
    for (const r of limitedAnswers) {
      assertError(r, 429, 'rate_limited');
      wait = Math.max(wait, retryAfterSeconds(r));
      expect(retryAfterSeconds(r)).toBeGreaterThanOrEqual(1);
    }
    expect(wait).toBeLessThanOrEqual(2);
    await sleep(wait * 1000 + 50);
    assertError(await c.getPaymentRaw(unknownPaymentId(), { token }), 404, 'not_found');
  });

  it('the limit is per client: another tenant is still served', async () => {
    const a = new ApiClient(limited);
    const b = await newTenant(limited);
    await sleep(1000);
    const tokenA = await a.refreshToken();
    await Promise.all(Array.from({ length: 6 }, () => a.getPaymentRaw(unknownPaymentId(), { token: tokenA })));
    assertError(await b.getPaymentRaw(unknownPaymentId()), 404, 'not_found');
  });

  it('applies to the token endpoint too (by client_id)', async () => {
    const c = new ApiClient(limited);
    await sleep(1000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => c.requestToken()));
    const statuses = answers.map((r) => r.status);
    expect(statuses).toContain(429);
    const limitedAnswer = answers.find((r) => r.status === 429);
    if (limitedAnswer === undefined) throw new Error('no 429');
    expect(retryAfterSeconds(limitedAnswer)).toBeGreaterThanOrEqual(1);
  });
});

describe('latency option', () => {
  let slow: RunningSimulator;
  const LATENCY = 300;
  beforeAll(async () => {
    slow = await startSimulator({ port: 0, latencyMs: LATENCY });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('adds the delay to every service answer (token, cde, base), errors included', async () => {
    const c = new ApiClient(slow);
    const tok = await c.requestToken();
    expect(tok.durationMs).toBeGreaterThanOrEqual(LATENCY - 20);
    await c.token();
    const m = await c.tokenizeRaw(CARDS.visa);
    expect(m.durationMs).toBeGreaterThanOrEqual(LATENCY - 20);
    const g = await c.getPaymentRaw(unknownPaymentId());
    expect(g.status).toBe(404);
    expect(g.durationMs).toBeGreaterThanOrEqual(LATENCY - 20);
  });

  it('does not delay the control endpoints', async () => {
    const started = performance.now();
    await simNow(slow);
    expect(performance.now() - started).toBeLessThan(LATENCY - 50);
  });
});
