// Payments: flows A and D, card outcomes, payment validation (spec §1–§4; interface-decisions §2, §3, §6, §7, §9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ALL_CARDS,
  ApiClient,
  CARDS,
  advanceClock,
  assertError,
  newIdempotencyKey,
  newTenant,
  parseOk,
  paymentSchema,
  simNow,
  unknownMethodId,
  unknownPaymentId,
  type TestCard,
} from './support';

const PROCESSING_DELAY_MS = 2000;
let sim: RunningSimulator;
let client: ApiClient;
let visaMethodId: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, processingDelayMs: PROCESSING_DELAY_MS });
  client = await newTenant(sim);
  visaMethodId = (await client.tokenize(CARDS.visa)).id;
});

afterAll(async () => {
  await sim.close();
});

function validBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { methodId: visaMethodId, amount: 100, currency: 'usd', reservationId: 'RES-100', ...extra };
}

describe('flow A: simple payment', () => {
  it('POST /payments → 201 processing; after the processing delay GET → succeeded', async () => {
    const method = await client.tokenize(CARDS.visa);
    const res = await client.createPaymentRaw({
      methodId: method.id,
      amount: 123.45,
      currency: 'usd',
      reservationId: 'HTL-2024-0001',
      returnUrl: 'https://partner.example/return',
      metadata: { agent: 'a-17', channel: 'phone' },
    });
    const created = parseOk(res, paymentSchema, 201);
    expect(created.status).toBe('processing');
    expect(created.amount).toBe(123.45);
    expect(created.currency).toBe('usd');
    expect(created.methodId).toBe(method.id);
    expect(created.reservationId).toBe('HTL-2024-0001');
    expect(created.metadata).toEqual({ agent: 'a-17', channel: 'phone' });
    expect(created.nextAction).toBeUndefined();
    expect(created.expiresAt).toBeUndefined();
    expect(created.failure).toBeUndefined();

    const polled = await client.getPayment(created.id);
    expect(polled.status).toBe('processing');
    expect(polled.metadata).toEqual({ agent: 'a-17', channel: 'phone' });

    await advanceClock(sim, Math.ceil(PROCESSING_DELAY_MS / 1000) + 1);
    const done = await client.getPayment(created.id);
    expect(done.status).toBe('succeeded');
    expect(done.id).toBe(created.id);
    expect(done.amount).toBe(123.45);
    expect(done.metadata).toEqual({ agent: 'a-17', channel: 'phone' });
    expect(done.failure).toBeUndefined();
    expect(done.refunds ?? []).toEqual([]);
    expect(Date.parse(done.updatedAt)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
    expect(Date.parse(done.updatedAt)).toBeLessThanOrEqual(Date.parse(done.createdAt) + PROCESSING_DELAY_MS + 1000);
  });

  it('is still processing just before the processing delay has passed', async () => {
    const p = await client.createPayment(visaMethodId);
    const again = await client.getPayment(p.id);
    expect(again.status).toBe('processing');
  });

  it('GET of an unknown (well-formed) id → 404 not_found', async () => {
    assertError(await client.getPaymentRaw(unknownPaymentId()), 404, 'not_found');
  });

  it('GET with an id not matching ^pay_[a-f0-9]{32}$ → 400 validation_error', async () => {
    for (const id of ['pay_123', `pay_${'A'.repeat(32)}`, `pay_${'g'.repeat(32)}`, `mth_${'0'.repeat(32)}`]) {
      assertError(await client.getPaymentRaw(id), 400, 'validation_error');
    }
  });
});

describe('flow D: a second payment on an earlier method', () => {
  it('charges a tokenized method again without card details', async () => {
    const method = await client.tokenize(CARDS.mastercard);
    const first = await client.createPayment(method.id, { amount: 50 });
    await advanceClock(sim, 5);
    expect((await client.getPayment(first.id)).status).toBe('succeeded');

    // later: only the methodId, no card data at all
    await advanceClock(sim, 7 * 24 * 3600);
    await client.refreshToken();
    const second = await client.createPayment(method.id, { amount: 75.5, reservationId: 'RES-LATER' });
    expect(second.id).not.toBe(first.id);
    expect(second.methodId).toBe(method.id);
    expect(second.status).toBe('processing');
    await advanceClock(sim, 5);
    const done = await client.getPayment(second.id);
    expect(done.status).toBe('succeeded');
    expect(done.amount).toBe(75.5);
    // the first payment is unchanged
    expect((await client.getPayment(first.id)).amount).toBe(50);
  });
});

describe('payment outcome of every test card (interface-decisions §9)', () => {
  it.each(ALL_CARDS.map((c): [string, TestCard] => [c.scenario, c]))('%s', async (_name, card) => {
    const method = await client.tokenize(card);
    const currency = card === CARDS.msi ? 'mxn' : 'usd';
    const created = await client.createPayment(method.id, { currency, amount: 250 });
    if (card.outcome === 'requires_action') {
      expect(created.status).toBe('requires_action');
      expect(created.nextAction?.type).toBe('three_d_secure');
      expect(created.nextAction?.url ?? '').toMatch(/^https?:\/\//);
      const read = await client.getPayment(created.id);
      expect(read.status).toBe('requires_action');
      expect(read.nextAction?.url).toBe(created.nextAction?.url);
      return;
    }
    // README: the payment is created processing; the card's outcome shows after the delay
    expect(created.status).toBe('processing');
    await advanceClock(sim, Math.ceil(PROCESSING_DELAY_MS / 1000) + 1);
    const done = await client.getPayment(created.id);
    expect(done.status).toBe(card.outcome);
    if (card.outcome === 'failed') {
      expect(done.failure?.code).toBe(card.failureCode);
      expect(done.failure?.message ?? '').not.toBe('');
    } else {
      expect(done.failure).toBeUndefined();
    }
    expect(JSON.stringify(done)).not.toContain(card.number);
  });
});

describe('payment validation (interface-decisions §3, §6)', () => {
  it('amount boundaries: 0.01 and 999999.99 accepted', async () => {
    for (const amount of [0.01, 999999.99, 10.1, 7]) {
      const p = parseOk(await client.createPaymentRaw(validBody({ amount })), paymentSchema, 201);
      expect(p.amount).toBe(amount);
    }
  });

  it('amount < 0.01, > 999999.99, more than 2 decimals (also a double just off the cent), negative, ill-typed → 400 param amount', async () => {
    for (const amount of [
      0,
      0.001,
      0.009,
      -1,
      1000000,
      999999.991,
      10.123,
      1.005,
      0.1 + 0.2,
      1.1 * 1.1,
      10.0000000001,
      '10.00',
      null,
      true,
      [10],
      { v: 1 },
    ]) {
      const res = await client.createPaymentRaw(validBody({ amount }));
      assertError(res, 400, 'validation_error', { param: 'amount' });
    }
  });

  it('missing required fields → 400 with the field as param', async () => {
    for (const field of ['methodId', 'amount', 'currency', 'reservationId']) {
      const body = validBody();
      delete body[field];
      assertError(await client.createPaymentRaw(body), 400, 'validation_error', { param: field });
    }
  });

  it('currency: uppercase or unknown → 400 param currency', async () => {
    for (const currency of ['USD', 'Mxn', 'eur', '', 1]) {
      assertError(await client.createPaymentRaw(validBody({ currency })), 400, 'validation_error', {
        param: 'currency',
      });
    }
    parseOk(await client.createPaymentRaw(validBody({ currency: 'mxn' })), paymentSchema, 201);
  });

  it('returnUrl must be https → 400 param returnUrl otherwise', async () => {
    for (const returnUrl of ['http://partner.example/return', 'ftp://x.example', 'partner.example', '', 42]) {
      assertError(await client.createPaymentRaw(validBody({ returnUrl })), 400, 'validation_error', {
        param: 'returnUrl',
      });
    }
    parseOk(
      await client.createPaymentRaw(validBody({ returnUrl: 'https://partner.example/r?x=1' })),
      paymentSchema,
      201,
    );
  });

  it('reservationId: 1 to 64 characters', async () => {
    parseOk(await client.createPaymentRaw(validBody({ reservationId: 'r' })), paymentSchema, 201);
    const p = parseOk(await client.createPaymentRaw(validBody({ reservationId: 'R'.repeat(64) })), paymentSchema, 201);
    expect(p.reservationId).toBe('R'.repeat(64));
    for (const reservationId of ['', 'R'.repeat(65), 123]) {
      assertError(await client.createPaymentRaw(validBody({ reservationId })), 400, 'validation_error', {
        param: 'reservationId',
      });
    }
  });

  it('metadata: up to 50 keys of ≤ 40 characters with string values ≤ 500 characters', async () => {
    const max: Record<string, string> = {};
    for (let i = 0; i < 50; i++) max[`k${String(i).padStart(2, '0')}${'x'.repeat(37)}`] = 'v'.repeat(500);
    const p = parseOk(await client.createPaymentRaw(validBody({ metadata: max })), paymentSchema, 201);
    expect(p.metadata).toEqual(max);
    expect((await client.getPayment(p.id)).metadata).toEqual(max);
  });

  it('metadata over the limits → 400 validation_error on metadata', async () => {
    const tooMany: Record<string, string> = {};
    for (let i = 0; i < 51; i++) tooMany[`k${i}`] = 'v';
    const longKey = { ['k'.repeat(41)]: 'v' };
    const longValue = { note: 'v'.repeat(501) };
    const numberValue = { count: 3 };
    const objectValue = { nested: { a: 'b' } };
    const nullValue = { gone: null };
    for (const metadata of [tooMany, longKey, longValue, numberValue, objectValue, nullValue, 'str', ['a']]) {
      const res = await client.createPaymentRaw(validBody({ metadata }));
      assertError(res, 400, 'validation_error', { param: /^metadata/ });
    }
    assertError(await client.createPaymentRaw(validBody({ metadata: longValue })), 400, 'validation_error', {
      param: 'metadata.note',
    });
  });

  it('installments must be an object with a boolean required', async () => {
    for (const installments of [true, { required: 'yes' }, { required: true, count: 3, extra: 1 }]) {
      assertError(await client.createPaymentRaw(validBody({ installments })), 400, 'validation_error', {
        param: /^installments/,
      });
    }
  });

  it('unknown top-level field → 400 with its name as param', async () => {
    assertError(await client.createPaymentRaw(validBody({ customer: 'x' })), 400, 'validation_error', {
      param: 'customer',
    });
  });

  it('malformed JSON → 400 validation_error', async () => {
    assertError(
      await client.createPaymentRaw({}, { rawBody: '{"methodId": "mth_x", "amount": 1,,}' }),
      400,
      'validation_error',
    );
  });

  it('unknown methodId → 404 not_found with param methodId', async () => {
    assertError(await client.createPaymentRaw(validBody({ methodId: unknownMethodId() })), 404, 'not_found', {
      param: 'methodId',
    });
  });

  it('missing or non-UUID-v4 Idempotency-Key → 400 param Idempotency-Key', async () => {
    assertError(await client.createPaymentRaw(validBody(), { idempotencyKey: null }), 400, 'validation_error', {
      param: 'Idempotency-Key',
    });
    for (const key of ['abc', '6fa459ea-ee8a-11ca-b3ef-00112233445a', `${newIdempotencyKey()}x`]) {
      assertError(await client.createPaymentRaw(validBody(), { idempotencyKey: key }), 400, 'validation_error', {
        param: 'Idempotency-Key',
      });
    }
  });

  it('createdAt follows the simulator clock', async () => {
    const now = await simNow(sim);
    const p = await client.createPayment(visaMethodId);
    expect(Math.abs(Date.parse(p.createdAt) - now.getTime())).toBeLessThan(60_000);
  });
});

describe('operations not allowed in the status (422 invalid_state)', () => {
  it('PATCH and confirmation of a non-MSI processing payment', async () => {
    const p = await client.createPayment(visaMethodId);
    assertError(await client.patchPaymentRaw(p.id, { amount: 50 }), 422, 'invalid_state');
    assertError(await client.confirmRaw(p.id, {}), 422, 'invalid_state');
  });

  it('PATCH and confirmation of a succeeded payment', async () => {
    const p = await client.succeededPayment();
    assertError(await client.patchPaymentRaw(p.id, { amount: 50 }), 422, 'invalid_state');
    assertError(await client.confirmRaw(p.id, {}), 422, 'invalid_state');
  });

  it('PATCH / confirmation of an unknown payment → 404 not_found', async () => {
    assertError(await client.patchPaymentRaw(unknownPaymentId(), { amount: 50 }), 404, 'not_found');
    assertError(await client.confirmRaw(unknownPaymentId(), {}), 404, 'not_found');
  });
});
