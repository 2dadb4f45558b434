// Tokenization: POST {cdeUrl}/methods (spec §2 Method/CardInput, §4; interface-decisions §3, §9; README CardInput, Brands).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ALL_CARDS,
  ApiClient,
  CARDS,
  advanceClock,
  allStrings,
  assertError,
  http,
  methodSchema,
  newIdempotencyKey,
  newTenant,
  parseOk,
  simNow,
  type TestCard,
} from './support';

let sim: RunningSimulator;
let client: ApiClient;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  client = await newTenant(sim);
});

afterAll(async () => {
  await sim.close();
});

function assertNoCardData(text: string, body: unknown, card: { number: string; cvv: string }): void {
  expect(text).not.toContain(card.number);
  expect(text.toLowerCase()).not.toContain('"cvv"');
  expect(text.toLowerCase()).not.toContain('"number"');
  expect(allStrings(body)).not.toContain(card.cvv);
}

describe('tokenization of every test card (interface-decisions §9)', () => {
  it.each(ALL_CARDS.map((c): [string, TestCard] => [c.scenario, c]))(
    '%s: 201, brand and last4 only',
    async (_name, card) => {
      const input = await client.cardInput(card);
      const res = await client.post(client.methodsUrl(), { type: 'card', card: input });
      const method = parseOk(res, methodSchema, 201);
      expect(method.type).toBe('card');
      expect(method.card.brand).toBe(card.brand);
      expect(method.card.last4).toBe(card.number.slice(-4));
      expect(method.card.expMonth).toBe(input['expMonth']);
      expect(method.card.expYear).toBe(input['expYear']);
      expect(method.expiresAt).toBeUndefined(); // no method TTL configured
      assertNoCardData(res.text, res.body, card);
    },
  );

  it('createdAt is an ISO 8601 UTC timestamp on the simulator clock', async () => {
    const before = await simNow(sim);
    const method = await client.tokenize(CARDS.visa);
    expect(method.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const created = Date.parse(method.createdAt);
    expect(created).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(created).toBeLessThanOrEqual(before.getTime() + 60_000);
  });

  it('accepts optional currency, holderName and guestEmail', async () => {
    const res = await client.post(client.methodsUrl(), {
      type: 'card',
      guestEmail: 'guest@example.com',
      card: await client.cardInput(CARDS.mastercard, { currency: 'mxn', holderName: 'Ana Pérez' }),
    });
    const method = parseOk(res, methodSchema, 201);
    expect(method.card.brand).toBe('mastercard');
    expect(res.text).not.toContain(CARDS.mastercard.number);
  });

  it('each tokenization creates a new method id', async () => {
    const a = await client.tokenize(CARDS.visa);
    const b = await client.tokenize(CARDS.visa);
    expect(a.id).not.toBe(b.id);
  });

  it('any other Luhn-valid number is accepted with its brand from the leading digits', async () => {
    const cases: [string, string, string][] = [
      ['4111111111111111', '123', 'visa'],
      ['6011111111111117', '123', 'discover'],
      ['2223003122003222', '123', 'mastercard'],
      ['371449635398431', '1234', 'amex'],
    ];
    for (const [number, cvv, brand] of cases) {
      const method = await client.tokenize(number, { cvv });
      expect(method.card.brand, number).toBe(brand);
      expect(method.card.last4).toBe(number.slice(-4));
    }
  });

  it('a card is valid to the end of its expiry month (current month accepted)', async () => {
    const now = await simNow(sim);
    const method = await client.tokenize(CARDS.visa, {
      expMonth: now.getUTCMonth() + 1,
      expYear: now.getUTCFullYear(),
    });
    expect(method.card.expMonth).toBe(now.getUTCMonth() + 1);
  });

  it('tokenization is served only under cdeUrl (POST {baseUrl}/methods is a 404)', async () => {
    const res = await client.post(`${sim.baseUrl}/methods`, { type: 'card', card: await client.cardInput(CARDS.visa) });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(CARDS.visa.number);
  });
});

describe('card validation (interface-decisions §3, README CardInput)', () => {
  async function tokenizeWith(card: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    return client.post(client.methodsUrl(), { type: 'card', card, ...extra });
  }

  it('Luhn failure → 400 validation_error, param card.number, number not echoed', async () => {
    const bad = '4242424242424241';
    const res = await tokenizeWith(await client.cardInput(bad, { cvv: '123' }));
    assertError(res, 400, 'validation_error', { param: 'card.number' });
    expect(res.text).not.toContain(bad);
  });

  it('non-digit, too short and too long numbers → param card.number', async () => {
    for (const number of [
      '4242 4242 4242 4242',
      '4242-4242-4242-4242',
      '42424242424',
      '42424242424242424242',
      'abcd',
      '',
    ]) {
      const res = await tokenizeWith(await client.cardInput(number, { cvv: '123' }));
      assertError(res, 400, 'validation_error', { param: 'card.number' });
      if (number.length >= 12) expect(res.text).not.toContain(number);
    }
  });

  it('past expiry (previous month, previous year) → 400 validation_error on an expiry field', async () => {
    const now = await simNow(sim);
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth() + 1;
    const prev = m === 1 ? { expMonth: 12, expYear: y - 1 } : { expMonth: m - 1, expYear: y };
    for (const exp of [prev, { expMonth: 12, expYear: y - 1 }]) {
      const res = await tokenizeWith(await client.cardInput(CARDS.visa, exp));
      assertError(res, 400, 'validation_error', { param: /^card\.exp(Month|Year)$/ });
      expect(res.text).not.toContain(CARDS.visa.number);
    }
  });

  it('expiry follows the simulator clock: valid today, past after the clock passes the month', async () => {
    const tenant = await newTenant(sim);
    const now = await simNow(sim);
    const input = { expMonth: now.getUTCMonth() + 1, expYear: now.getUTCFullYear() };
    parseOk(await tenant.tokenizeRaw(CARDS.visa, input), methodSchema, 201);
    await advanceClock(sim, 40 * 24 * 3600);
    await tenant.refreshToken();
    assertError(await tenant.tokenizeRaw(CARDS.visa, input), 400, 'validation_error', {
      param: /^card\.exp(Month|Year)$/,
    });
    await client.refreshToken();
  });

  it('expMonth outside 1..12 and a two-digit expYear → 400', async () => {
    for (const expMonth of [0, 13]) {
      assertError(await tokenizeWith(await client.cardInput(CARDS.visa, { expMonth })), 400, 'validation_error', {
        param: 'card.expMonth',
      });
    }
    assertError(await tokenizeWith(await client.cardInput(CARDS.visa, { expYear: 35 })), 400, 'validation_error', {
      param: 'card.expYear',
    });
  });

  it('CVC length: amex needs 4 digits, other brands 3', async () => {
    assertError(await tokenizeWith(await client.cardInput(CARDS.amex, { cvv: '123' })), 400, 'validation_error', {
      param: 'card.cvv',
    });
    assertError(await tokenizeWith(await client.cardInput(CARDS.visa, { cvv: '1234' })), 400, 'validation_error', {
      param: 'card.cvv',
    });
    assertError(await tokenizeWith(await client.cardInput(CARDS.mastercard, { cvv: '12' })), 400, 'validation_error', {
      param: 'card.cvv',
    });
    assertError(await tokenizeWith(await client.cardInput(CARDS.visa, { cvv: '12a' })), 400, 'validation_error', {
      param: 'card.cvv',
    });
    parseOk(await tokenizeWith(await client.cardInput(CARDS.amex, { cvv: '1234' })), methodSchema, 201);
    parseOk(await tokenizeWith(await client.cardInput(CARDS.visa, { cvv: '123' })), methodSchema, 201);
  });

  it('missing required card fields → 400 with the field as param', async () => {
    for (const field of ['number', 'expMonth', 'expYear', 'cvv']) {
      const input = await client.cardInput(CARDS.visa);
      delete input[field];
      const res = await tokenizeWith(input);
      assertError(res, 400, 'validation_error', { param: `card.${field}` });
      expect(res.text).not.toContain(CARDS.visa.number);
    }
  });

  it('ill-typed card fields → 400 with the field as param', async () => {
    const cases: [string, unknown][] = [
      ['number', 4242424242424242],
      ['expMonth', '12'],
      ['expYear', 2031.5],
      ['cvv', 123],
      ['currency', 'USD'],
      ['currency', 'eur'],
      ['holderName', ''],
      ['holderName', 'x'.repeat(101)],
    ];
    for (const [field, value] of cases) {
      const input = await client.cardInput(CARDS.visa);
      input[field] = value;
      assertError(await tokenizeWith(input), 400, 'validation_error', { param: `card.${field}` });
    }
  });

  it('type other than card, missing card, bad guestEmail, unknown field → 400 with param', async () => {
    const card = await client.cardInput(CARDS.visa);
    assertError(await client.post(client.methodsUrl(), { type: 'bank', card }), 400, 'validation_error', {
      param: 'type',
    });
    assertError(await client.post(client.methodsUrl(), { card }), 400, 'validation_error', { param: 'type' });
    assertError(await client.post(client.methodsUrl(), { type: 'card' }), 400, 'validation_error', { param: 'card' });
    assertError(
      await client.post(client.methodsUrl(), { type: 'card', card, guestEmail: 'not-an-email' }),
      400,
      'validation_error',
      { param: 'guestEmail' },
    );
    assertError(
      await client.post(client.methodsUrl(), { type: 'card', card: { ...card, foo: 1 } }),
      400,
      'validation_error',
      { param: 'card.foo' },
    );
    assertError(await client.post(client.methodsUrl(), { type: 'card', card, extra: true }), 400, 'validation_error', {
      param: 'extra',
    });
  });

  it('malformed JSON → 400 validation_error', async () => {
    const res = await client.post(client.methodsUrl(), undefined, { rawBody: '{"type":"card","card":{' });
    assertError(res, 400, 'validation_error');
  });

  it('missing Idempotency-Key → 400 param Idempotency-Key', async () => {
    const res = await client.tokenizeRaw(CARDS.visa, {}, { idempotencyKey: null });
    assertError(res, 400, 'validation_error', { param: 'Idempotency-Key' });
  });

  it('non-UUID-v4 Idempotency-Key → 400 param Idempotency-Key; uppercase v4 accepted', async () => {
    for (const key of [
      'not-a-uuid',
      '6fa459ea-ee8a-11ca-b3ef-00112233445a',
      '00000000-0000-0000-0000-000000000000',
      '',
    ]) {
      const res = await client.tokenizeRaw(CARDS.visa, {}, { idempotencyKey: key });
      assertError(res, 400, 'validation_error', { param: 'Idempotency-Key' });
    }
    const upper = newIdempotencyKey().toUpperCase();
    parseOk(await client.tokenizeRaw(CARDS.visa, {}, { idempotencyKey: upper }), methodSchema, 201);
  });
});

describe('method TTL (methodTtlS)', () => {
  let ttlSim: RunningSimulator;
  beforeAll(async () => {
    ttlSim = await startSimulator({ port: 0, methodTtlS: 600 });
  });
  afterAll(async () => {
    await ttlSim.close();
  });

  it('methods carry expiresAt = createdAt + TTL; a payment before it works, after it → 422 method_expired', async () => {
    const c = new ApiClient(ttlSim);
    const method = await c.tokenize(CARDS.visa);
    expect(method.expiresAt).toBeDefined();
    expect(Date.parse(method.expiresAt ?? '') - Date.parse(method.createdAt)).toBe(600_000);
    await c.createPayment(method.id);
    await advanceClock(ttlSim, 601);
    const res = await c.createPaymentRaw({ methodId: method.id, amount: 10, currency: 'usd', reservationId: 'R' });
    assertError(res, 422, 'method_expired');
    // a freshly tokenized method works again
    const fresh = await c.tokenize(CARDS.visa);
    await c.createPayment(fresh.id);
  });
});

describe('raw transport', () => {
  it('the response is JSON', async () => {
    const res = await client.tokenizeRaw(CARDS.visa);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type') ?? '').toMatch(/application\/json/);
  });

  it('an unknown path on cdeUrl is a 4xx', async () => {
    const res = await http({ method: 'GET', url: `${sim.cdeUrl}/nothing-here` });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
