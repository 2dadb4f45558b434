// Robustness: malformed requests to every endpoint are 4xx with the §3 error body, never 5xx
// (interface-decisions §3; README Strict bodies, 64 KiB limit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ApiClient,
  CARDS,
  errorBodySchema,
  http,
  newIdempotencyKey,
  newRequestId,
  newTenant,
  parseOk,
  paymentSchema,
  tokenErrorSchema,
  type HttpResult,
  type Payment,
} from './support';

let sim: RunningSimulator;
let client: ApiClient;
let pending: Payment;
let succeeded: Payment;
let methodId: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, processingDelayMs: 0, refundDelayMs: 0 });
  client = await newTenant(sim);
  methodId = (await client.tokenize(CARDS.visa)).id;
  const msi = await client.tokenize(CARDS.msi);
  pending = await client.createPayment(msi.id, { amount: 1200, currency: 'mxn', installments: { required: true } });
  succeeded = await client.succeededPayment({ amount: 50 });
});

afterAll(async () => {
  await sim.close();
});

interface Endpoint {
  name: string;
  method: 'POST' | 'PATCH';
  url: () => string;
  /** A valid body, to derive wrong-type variants from. */
  valid: () => Record<string, unknown>;
  /** Fields of `valid` that may be left out. */
  optional?: readonly string[];
  /** The body itself is optional (a JSON null may count as no body). */
  nullBodyOk?: boolean;
}

const huge = 'A'.repeat(70 * 1024);
const big = 'B'.repeat(20 * 1024);

function deepObject(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

function deepArray(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

/**
 * Bodies every JSON endpoint must refuse. `optional` lists the fields that may be left out
 * (so leaving them out is not malformed); `nullBodyOk` marks an endpoint whose body is optional.
 */
function malformedBodies(
  valid: Record<string, unknown>,
  optional: readonly string[],
  nullBodyOk: boolean,
): [string, string][] {
  const bodies: [string, string][] = [
    ...(nullBodyOk ? [] : [['null', 'null'] as [string, string]]),
    ['array', '[]'],
    ['array of object', JSON.stringify([valid])],
    ['number', '42'],
    ['string', '"hello"'],
    ['boolean', 'true'],
    ['truncated', '{"a":'],
    ['trailing garbage', `${JSON.stringify(valid)}xyz`],
    ['single quotes', "{'a': 1}"],
    ['NaN literal', '{"amount": NaN}'],
    ['huge string body', JSON.stringify(huge)],
    ['huge field', JSON.stringify({ ...valid, filler: huge })],
    ['deep object nesting 3000 (31 KB)', deepObject(3000)],
    ['deep object nesting 10000 (60 KB)', deepObject(10000)],
    ['deep array nesting 3000', deepArray(3000)],
    ['deep array nesting 20000 (40 KB)', deepArray(20000)],
    ['deep nesting inside a field', JSON.stringify(valid).replace(/}$/, `,"deep":${deepObject(3000)}}`)],
    ['__proto__ key', `{"__proto__": {"polluted": "yes"}, ${JSON.stringify(valid).slice(1)}`],
    ['constructor key', JSON.stringify({ ...valid, constructor: { prototype: { polluted: 'yes' } } })],
    ['prototype key', JSON.stringify({ ...valid, prototype: { polluted: 'yes' } })],
    ['unknown field', JSON.stringify({ ...valid, unknownField: 1 })],
    ['big unknown field', JSON.stringify({ ...valid, unknownField: big })],
    ['invalid utf-8 json', '\uFFFD{'],
  ];
  for (const key of Object.keys(valid)) {
    for (const [label, value] of [
      ['null', null],
      ['array', []],
      ['object', { x: 1 }],
      ['number', 123456789],
      ['negative', -1],
      ['huge number', 1e308],
      ['boolean', false],
      ['string', 'x'],
      ['big string', big],
    ] as const) {
      if (JSON.stringify(valid[key]) === JSON.stringify(value)) continue;
      if (label === 'string' && typeof valid[key] === 'string') continue; // may well be valid
      bodies.push([`${key} as ${label}`, JSON.stringify({ ...valid, [key]: value })]);
    }
    if (!optional.includes(key)) {
      const without = { ...valid };
      delete without[key];
      bodies.push([`without ${key}`, JSON.stringify(without)]);
    }
  }
  return bodies;
}

function endpoints(): Endpoint[] {
  return [
    {
      name: 'POST /methods',
      method: 'POST',
      url: () => client.methodsUrl(),
      valid: () => ({ type: 'card', card: { number: CARDS.visa.number, expMonth: 12, expYear: 2099, cvv: '123' } }),
    },
    {
      name: 'POST /payments',
      method: 'POST',
      url: () => client.paymentsUrl(),
      valid: () => ({ methodId, amount: 10, currency: 'usd', reservationId: 'R' }),
    },
    {
      name: 'PATCH /payments/{id}',
      method: 'PATCH',
      url: () => client.paymentsUrl(pending.id),
      valid: () => ({ amount: 1500 }),
    },
    {
      name: 'POST /payments/{id}/confirmation',
      method: 'POST',
      url: () => `${client.paymentsUrl(pending.id)}/confirmation`,
      valid: () => ({ installments: { count: 3 } }),
      optional: ['installments'],
      nullBodyOk: true,
    },
    {
      name: 'POST /payments/{id}/refunds',
      method: 'POST',
      url: () => `${client.paymentsUrl(succeeded.id)}/refunds`,
      valid: () => ({ amount: 1, reason: 'duplicate' }),
      optional: ['amount'],
    },
  ];
}

/** Why an answer is not a 4xx with the §3 error body (and the sent requestId), or undefined when it is. */
function problemWith(res: HttpResult, label: string): string | undefined {
  const excerpt = `${label}: HTTP ${res.status} ${res.text.slice(0, 160)}`;
  if (res.status < 400 || res.status >= 500) return excerpt;
  const parsed = errorBodySchema.safeParse(res.body);
  if (!parsed.success) return `${excerpt} (not a §3 error body)`;
  if (res.sentRequestId !== undefined && parsed.data.error.requestId !== res.sentRequestId) {
    return `${excerpt} (requestId differs from ${res.sentRequestId})`;
  }
  return undefined;
}

function assert4xxErrorBody(res: HttpResult, label: string): void {
  expect(problemWith(res, label)).toBeUndefined();
}

async function assertStillServing(): Promise<void> {
  const m = await client.tokenize(CARDS.mastercard);
  const p = await client.createPayment(m.id, { amount: 12.34 });
  expect(p.status).toBe('processing');
  expect((await client.getPayment(p.id)).status).toBe('succeeded');
  // the targets of the loop are unchanged
  const stillPending = await client.getPayment(pending.id);
  expect(stillPending.status).toBe('pending_confirmation');
  expect(stillPending.amount).toBe(1200);
  expect((await client.getPayment(succeeded.id)).refunds ?? []).toEqual([]);
}

describe('malformed JSON bodies to every endpoint', () => {
  it('every answer is a 4xx with the §3 error body; the simulator still serves afterwards', async () => {
    let count = 0;
    const problems: string[] = [];
    for (const ep of endpoints()) {
      for (const [label, body] of malformedBodies(ep.valid(), ep.optional ?? [], ep.nullBodyOk ?? false)) {
        const res = await client.call(ep.method, ep.url(), undefined, {
          rawBody: body,
          idempotencyKey: ep.method === 'POST' && !ep.name.includes('confirmation') ? newIdempotencyKey() : null,
        });
        const problem = problemWith(res, `${ep.name} ${label}`);
        if (problem !== undefined) problems.push(problem);
        count++;
      }
      // raw bytes that are not UTF-8
      const bytes = await client.call(ep.method, ep.url(), undefined, {
        rawBody: new Uint8Array([0x7b, 0xff, 0xfe, 0x22, 0x7d]),
        idempotencyKey: ep.method === 'POST' && !ep.name.includes('confirmation') ? newIdempotencyKey() : null,
      });
      const problem = problemWith(bytes, `${ep.name} invalid bytes`);
      if (problem !== undefined) problems.push(problem);
    }
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(100);
    await assertStillServing();
  });

  it('does not pollute Object.prototype (the simulator runs in this process)', () => {
    const probe: Record<string, unknown> = {};
    expect(probe['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('a metadata key named __proto__ is never a 5xx and pollutes nothing', async () => {
    const res = await client.createPaymentRaw(
      {},
      {
        rawBody: `{"methodId":"${methodId}","amount":1,"currency":"usd","reservationId":"R","metadata":{"__proto__":"x","constructor":"y"}}`,
      },
    );
    expect(res.status).toBeLessThan(500);
    if (res.status === 201) {
      const p = parseOk(res, paymentSchema, 201);
      const read = await client.getPayment(p.id);
      expect(read.metadata?.['constructor']).toBe('y');
    } else {
      assert4xxErrorBody(res, 'metadata __proto__');
    }
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    await assertStillServing();
  });
});

describe('malformed headers, paths and methods', () => {
  it('bad Idempotency-Key values (huge, control-like, empty) → 400', async () => {
    for (const key of ['k'.repeat(5000), ' ', '{}', `${newIdempotencyKey()} ${newIdempotencyKey()}`]) {
      const res = await client.tokenizeRaw(CARDS.visa, {}, { idempotencyKey: key });
      assert4xxErrorBody(res, `key ${key.slice(0, 20)}`);
      expect(res.status).toBe(400);
    }
  });

  it('bad Authorization headers → 401 invalid_token', async () => {
    for (const auth of ['Bearer', 'Bearer ', `Bearer ${'t'.repeat(5000)}`, 'bearer\tx', 'Token abc', '']) {
      const res = await client.getPaymentRaw(succeeded.id, { token: null, headers: { authorization: auth } });
      assert4xxErrorBody(res, `auth ${auth.slice(0, 20)}`);
      expect(res.status).toBe(401);
    }
  });

  it('odd payment paths are 4xx, never 5xx', async () => {
    const base = sim.baseUrl;
    const paths = [
      `${base}/payments/pay_%ZZ`,
      `${base}/payments/%E0%A4%A`,
      `${base}/payments/${'p'.repeat(5000)}`,
      `${base}/payments/pay_${'0'.repeat(32)}/confirmation/extra`,
      `${base}/payments/__proto__`,
      `${base}/payments/constructor`,
      `${base}/payments/%00`,
      `${base}/payments/pay_${'0'.repeat(32)}?x[__proto__]=1`,
      `${base}/nothing`,
      `${base}/`,
    ];
    for (const url of paths) {
      const res = await client.getPaymentRaw('x', { headers: {} }).then(() => client.get(url));
      assert4xxErrorBody(res, `GET ${url.slice(base.length, base.length + 60)}`);
    }
    for (const url of [`${base}/payments/pay_%ZZ/confirmation`, `${base}/payments/constructor/refunds`]) {
      const res = await client.post(url, { reason: 'duplicate' });
      assert4xxErrorBody(res, `POST ${url.slice(base.length)}`);
    }
    await assertStillServing();
  });

  it('unsupported methods on known paths are 4xx, never 5xx', async () => {
    for (const [method, url] of [
      ['DELETE', client.paymentsUrl(succeeded.id)],
      ['PUT', client.paymentsUrl(succeeded.id)],
      ['GET', client.methodsUrl()],
      ['GET', client.paymentsUrl()],
      ['PATCH', client.methodsUrl()],
    ] as const) {
      const res = await client.call(method, url, undefined, {});
      expect(res.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${url}`).toBeLessThan(500);
    }
  });
});

describe('malformed token requests', () => {
  it('are 4xx with an OAuth error body, never 5xx', async () => {
    const bodies: [string, string, string][] = [
      ['empty form', 'application/x-www-form-urlencoded', ''],
      ['garbage form', 'application/x-www-form-urlencoded', '%%%&&&==='],
      ['repeated fields', 'application/x-www-form-urlencoded', 'grant_type=client_credentials&grant_type=password'],
      ['huge form', 'application/x-www-form-urlencoded', `grant_type=client_credentials&client_id=${huge}`],
      ['json', 'application/json', '{"grant_type":"client_credentials"}'],
      ['null json', 'application/json', 'null'],
      ['text', 'text/plain', 'hello'],
      [
        '__proto__ form',
        'application/x-www-form-urlencoded',
        '__proto__=x&grant_type=client_credentials&client_id=a&client_secret=b',
      ],
    ];
    for (const [label, type, body] of bodies) {
      const res = await http({
        method: 'POST',
        url: `${sim.authUrl}/oauth2/token`,
        headers: { 'content-type': type, 'x-request-id': newRequestId() },
        body,
      });
      expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, label).toBeLessThan(500);
      expect(tokenErrorSchema.safeParse(res.body).success, `${label}: ${res.text.slice(0, 200)}`).toBe(true);
    }
    await client.refreshToken();
    await assertStillServing();
  });
});

describe('malformed control requests', () => {
  it('are 4xx, never 5xx, and change nothing', async () => {
    const control: [string, string][] = [
      ['/clock', '{"advanceSeconds": -5}'],
      ['/clock', '{"advanceSeconds": "10"}'],
      ['/clock', 'null'],
      ['/clock', '[]'],
      ['/clock', '{'],
      ['/faults', '{"operation": "POST /payments", "fault": "error_500", "count": -1}'],
      ['/faults', '{"operation": "DELETE /everything", "fault": "error_500"}'],
      ['/faults', '{"fault": "error_500"}'],
      ['/faults', 'null'],
      ['/faults', `{"__proto__": {"polluted": "yes"}, "operation": "POST /payments", "fault": "nope"}`],
    ];
    for (const [path, body] of control) {
      const res = await http({
        method: 'POST',
        url: `${sim.controlUrl}${path}`,
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status, `${path} ${body}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${body}`).toBeLessThan(500);
    }
    expect(Object.prototype).not.toHaveProperty('polluted');
    // no fault was queued by the refused requests: a normal request works
    await assertStillServing();
  });
});
