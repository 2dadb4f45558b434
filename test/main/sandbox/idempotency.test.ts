// Idempotency (spec §7, §8; interface-decisions §3, §4, §5; README Idempotency-Key, Faults).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ApiClient,
  CARDS,
  advanceClock,
  assertError,
  injectFault,
  methodSchema,
  newIdempotencyKey,
  newTenant,
  parseOk,
  paymentSchema,
  refundSchema,
  sleep,
  type HttpResult,
} from './support';

let sim: RunningSimulator;
let client: ApiClient;
let methodId: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, processingDelayMs: 1000, refundDelayMs: 1000 });
  client = await newTenant(sim);
  methodId = (await client.tokenize(CARDS.visa)).id;
});

afterAll(async () => {
  await sim.close();
});

function replayed(res: HttpResult): boolean {
  return res.headers.get('idempotent-replayed') === 'true';
}

function paymentBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { methodId, amount: 25, currency: 'usd', reservationId: 'RES-IDEM', ...extra };
}

describe('replay', () => {
  it('POST /payments: same key and payload → same status and body, Idempotent-Replayed: true, no second payment', async () => {
    const key = newIdempotencyKey();
    const first = await client.createPaymentRaw(paymentBody(), { idempotencyKey: key });
    const p1 = parseOk(first, paymentSchema, 201);
    expect(replayed(first)).toBe(false);

    const second = await client.createPaymentRaw(paymentBody(), { idempotencyKey: key });
    expect(second.status).toBe(201);
    expect(replayed(second)).toBe(true);
    expect(second.body).toEqual(first.body);
    expect(parseOk(second, paymentSchema, 201).id).toBe(p1.id);

    // the stored response is returned even after the payment moved on
    await advanceClock(sim, 2);
    const third = await client.createPaymentRaw(paymentBody(), { idempotencyKey: key });
    expect(replayed(third)).toBe(true);
    expect(third.body).toEqual(first.body);
    expect((await client.getPayment(p1.id)).status).toBe('succeeded');
  });

  it('POST /methods: replay returns the same method id', async () => {
    const key = newIdempotencyKey();
    const card = await client.cardInput(CARDS.amex);
    const first = await client.post(client.methodsUrl(), { type: 'card', card }, { idempotencyKey: key });
    const second = await client.post(client.methodsUrl(), { type: 'card', card }, { idempotencyKey: key });
    expect(parseOk(second, methodSchema, 201).id).toBe(parseOk(first, methodSchema, 201).id);
    expect(replayed(second)).toBe(true);
    expect(second.body).toEqual(first.body);
    expect(second.text).not.toContain(CARDS.amex.number);
  });

  it('POST /payments/{id}/refunds: replay returns the same refund, only one refund recorded', async () => {
    const p = await client.succeededPayment({ amount: 90 });
    const key = newIdempotencyKey();
    const first = await client.refundRaw(p.id, { amount: 30, reason: 'duplicate' }, { idempotencyKey: key });
    const second = await client.refundRaw(p.id, { amount: 30, reason: 'duplicate' }, { idempotencyKey: key });
    expect(parseOk(second, refundSchema, 201).id).toBe(parseOk(first, refundSchema, 201).id);
    expect(replayed(second)).toBe(true);
    expect((await client.getPayment(p.id)).refunds).toHaveLength(1);
  });

  it('object key order does not matter (canonical JSON), nested objects included', async () => {
    const key = newIdempotencyKey();
    const a =
      `{"methodId":"${methodId}","amount":31,"currency":"usd","reservationId":"R-ORDER",` +
      `"metadata":{"a":"1","b":"2"},"installments":{"required":false}}`;
    const b =
      `{"installments":{"required":false},"metadata":{"b":"2","a":"1"},"reservationId":"R-ORDER",` +
      `"currency":"usd","amount":31,"methodId":"${methodId}"}`;
    const first = await client.createPaymentRaw({}, { idempotencyKey: key, rawBody: a });
    const second = await client.createPaymentRaw({}, { idempotencyKey: key, rawBody: b });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(replayed(second)).toBe(true);
    expect(second.body).toEqual(first.body);
  });

  it('whitespace in the JSON text does not matter', async () => {
    const key = newIdempotencyKey();
    const body = paymentBody({ amount: 32 });
    const first = await client.createPaymentRaw({}, { idempotencyKey: key, rawBody: JSON.stringify(body) });
    const second = await client.createPaymentRaw({}, { idempotencyKey: key, rawBody: JSON.stringify(body, null, 2) });
    expect(replayed(second)).toBe(true);
    expect(second.body).toEqual(first.body);
  });
});

describe('conflicts', () => {
  it('same key, different payload → 409 idempotency_conflict, nothing created', async () => {
    const key = newIdempotencyKey();
    const first = parseOk(await client.createPaymentRaw(paymentBody(), { idempotencyKey: key }), paymentSchema, 201);
    for (const changed of [
      paymentBody({ amount: 26 }),
      paymentBody({ metadata: { x: 'y' } }),
      paymentBody({ currency: 'mxn' }),
    ]) {
      assertError(await client.createPaymentRaw(changed, { idempotencyKey: key }), 409, 'idempotency_conflict');
    }
    // the original is still replayed afterwards
    const again = await client.createPaymentRaw(paymentBody(), { idempotencyKey: key });
    expect(replayed(again)).toBe(true);
    expect(parseOk(again, paymentSchema, 201).id).toBe(first.id);
  });

  it('same key on a different operation → 409 idempotency_conflict', async () => {
    const key = newIdempotencyKey();
    parseOk(await client.tokenizeRaw(CARDS.visa, {}, { idempotencyKey: key }), methodSchema, 201);
    assertError(await client.createPaymentRaw(paymentBody(), { idempotencyKey: key }), 409, 'idempotency_conflict');

    const key2 = newIdempotencyKey();
    const p = await client.succeededPayment({ amount: 10 });
    parseOk(await client.createPaymentRaw(paymentBody(), { idempotencyKey: key2 }), paymentSchema, 201);
    assertError(
      await client.refundRaw(p.id, { reason: 'duplicate' }, { idempotencyKey: key2 }),
      409,
      'idempotency_conflict',
    );
  });

  it('same key on a refund of another payment → 409 idempotency_conflict', async () => {
    const p1 = await client.succeededPayment({ amount: 10 });
    const p2 = await client.succeededPayment({ amount: 10 });
    const key = newIdempotencyKey();
    parseOk(await client.refundRaw(p1.id, { reason: 'duplicate' }, { idempotencyKey: key }), refundSchema, 201);
    assertError(
      await client.refundRaw(p2.id, { reason: 'duplicate' }, { idempotencyKey: key }),
      409,
      'idempotency_conflict',
    );
    expect((await client.getPayment(p2.id)).refunds ?? []).toEqual([]);
  });

  it('keys are scoped to the client id: another tenant may reuse a key', async () => {
    const other = await newTenant(sim);
    const otherMethod = await other.tokenize(CARDS.visa);
    const key = newIdempotencyKey();
    const mine = parseOk(await client.createPaymentRaw(paymentBody(), { idempotencyKey: key }), paymentSchema, 201);
    const theirs = await other.createPaymentRaw(
      { methodId: otherMethod.id, amount: 99, currency: 'usd', reservationId: 'X' },
      { idempotencyKey: key },
    );
    const p = parseOk(theirs, paymentSchema, 201);
    expect(replayed(theirs)).toBe(false);
    expect(p.id).not.toBe(mine.id);
  });
});

describe('in progress', () => {
  it('a concurrent request with the same key while the first is delayed → 409 idempotency_in_progress', async () => {
    const key = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /payments', fault: 'delay', delayMs: 700, count: 1 });
    const firstPromise = client.createPaymentRaw(paymentBody({ amount: 41 }), { idempotencyKey: key });
    await sleep(200);
    const second = await client.createPaymentRaw(paymentBody({ amount: 41 }), { idempotencyKey: key });
    assertError(second, 409, 'idempotency_in_progress');
    const first = await firstPromise;
    expect(first.durationMs).toBeGreaterThanOrEqual(650);
    const p = parseOk(first, paymentSchema, 201);
    expect(replayed(first)).toBe(false);
    // once done, the same key is a replay
    const third = await client.createPaymentRaw(paymentBody({ amount: 41 }), { idempotencyKey: key });
    expect(replayed(third)).toBe(true);
    expect(parseOk(third, paymentSchema, 201).id).toBe(p.id);
  });
});

describe('24-hour window', () => {
  it('replayed just before 24 h; after 24 h the same key creates a new resource', async () => {
    const key = newIdempotencyKey();
    const first = parseOk(
      await client.createPaymentRaw(paymentBody({ amount: 55 }), { idempotencyKey: key }),
      paymentSchema,
      201,
    );

    await advanceClock(sim, 24 * 3600 - 60);
    await client.refreshToken(); // access tokens last 3600 s of clock time
    const within = await client.createPaymentRaw(paymentBody({ amount: 55 }), { idempotencyKey: key });
    expect(replayed(within)).toBe(true);
    expect(parseOk(within, paymentSchema, 201).id).toBe(first.id);
    // a different payload still conflicts within the window
    assertError(
      await client.createPaymentRaw(paymentBody({ amount: 56 }), { idempotencyKey: key }),
      409,
      'idempotency_conflict',
    );

    await advanceClock(sim, 120);
    await client.refreshToken();
    const after = await client.createPaymentRaw(paymentBody({ amount: 55 }), { idempotencyKey: key });
    const fresh = parseOk(after, paymentSchema, 201);
    expect(replayed(after)).toBe(false);
    expect(fresh.id).not.toBe(first.id);
    // the original payment still exists
    expect((await client.getPayment(first.id)).id).toBe(first.id);
  });

  it('after 24 h a key may even be used with a different payload', async () => {
    await client.refreshToken();
    const key = newIdempotencyKey();
    parseOk(await client.createPaymentRaw(paymentBody({ amount: 57 }), { idempotencyKey: key }), paymentSchema, 201);
    await advanceClock(sim, 24 * 3600 + 1);
    await client.refreshToken();
    const other = await client.createPaymentRaw(paymentBody({ amount: 58 }), { idempotencyKey: key });
    expect(parseOk(other, paymentSchema, 201).amount).toBe(58);
    expect(replayed(other)).toBe(false);
  });
});

describe('what is stored', () => {
  it('a 5xx answer is not stored: error_500, then the same key succeeds fresh', async () => {
    await client.refreshToken();
    const key = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /payments', fault: 'error_500', count: 1 });
    assertError(
      await client.createPaymentRaw(paymentBody({ amount: 61 }), { idempotencyKey: key }),
      500,
      'internal_error',
    );
    const retry = await client.createPaymentRaw(paymentBody({ amount: 61 }), { idempotencyKey: key });
    parseOk(retry, paymentSchema, 201);
    expect(replayed(retry)).toBe(false);
  });

  it('a 503 answer is not stored either', async () => {
    const key = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /methods', fault: 'error_503', count: 1 });
    assertError(await client.tokenizeRaw(CARDS.visa, {}, { idempotencyKey: key }), 503, 'unavailable');
    const retry = await client.tokenizeRaw(CARDS.visa, {}, { idempotencyKey: key });
    parseOk(retry, methodSchema, 201);
    expect(replayed(retry)).toBe(false);
  });

  it('a 4xx validation answer is stored and replayed; a corrected payload with that key conflicts', async () => {
    const key = newIdempotencyKey();
    const rid = `rid-${key}`;
    const bad = paymentBody({ amount: 0 });
    const first = await client.createPaymentRaw(bad, { idempotencyKey: key, requestId: rid });
    const err1 = assertError(first, 400, 'validation_error', { param: 'amount' });
    expect(replayed(first)).toBe(false);

    const second = await client.createPaymentRaw(bad, { idempotencyKey: key, requestId: rid });
    const err2 = assertError(second, 400, 'validation_error', { param: 'amount' });
    expect(replayed(second)).toBe(true);
    expect(err2.message).toBe(err1.message);

    assertError(await client.createPaymentRaw(paymentBody(), { idempotencyKey: key }), 409, 'idempotency_conflict');
  });

  it('a 422 answer is stored and replayed too', async () => {
    const key = newIdempotencyKey();
    const p = await client.payWith(CARDS.visa); // processing: not refundable
    const first = await client.refundRaw(p.id, { reason: 'duplicate' }, { idempotencyKey: key });
    assertError(first, 422, 'invalid_state');
    await advanceClock(sim, 2); // now succeeded, but the stored answer stands
    const second = await client.refundRaw(p.id, { reason: 'duplicate' }, { idempotencyKey: key });
    assertError(second, 422, 'invalid_state', { checkRequestId: false });
    expect(replayed(second)).toBe(true);
    expect((await client.getPayment(p.id)).refunds ?? []).toEqual([]);
  });

  it('a 401 answer is not stored (the request was not processed)', async () => {
    const key = newIdempotencyKey();
    assertError(
      await client.createPaymentRaw(paymentBody({ amount: 62 }), { idempotencyKey: key, token: 'bogus' }),
      401,
      'invalid_token',
    );
    const retry = await client.createPaymentRaw(paymentBody({ amount: 62 }), { idempotencyKey: key });
    parseOk(retry, paymentSchema, 201);
    expect(replayed(retry)).toBe(false);
  });

  it('a 429 answer is not stored', async () => {
    const key = newIdempotencyKey();
    await injectFault(sim, { operation: 'POST /payments', fault: 'error_429', count: 1 });
    assertError(
      await client.createPaymentRaw(paymentBody({ amount: 63 }), { idempotencyKey: key }),
      429,
      'rate_limited',
    );
    const retry = await client.createPaymentRaw(paymentBody({ amount: 63 }), { idempotencyKey: key });
    parseOk(retry, paymentSchema, 201);
    expect(replayed(retry)).toBe(false);
  });

  it('PATCH and confirmation take no Idempotency-Key (they work without one)', async () => {
    const msi = await client.tokenize(CARDS.msi);
    const p = await client.createPayment(msi.id, { amount: 900, currency: 'mxn', installments: { required: true } });
    parseOk(await client.patchPaymentRaw(p.id, { amount: 950 }, { idempotencyKey: null }), paymentSchema, 200);
    parseOk(await client.confirmRaw(p.id, {}, { idempotencyKey: null }), paymentSchema, 200);
  });
});
