// Headers: X-Request-Id echoed / generated (spec §4 common header; interface-decisions §4; README X-Request-Id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ApiClient,
  CARDS,
  assertError,
  http,
  newTenant,
  parseError,
  unknownPaymentId,
  type HttpResult,
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

const GENERATED = /^req_[0-9a-f]{24}$/;

function echoed(res: HttpResult): string | null {
  return res.headers.get('x-request-id');
}

describe('X-Request-Id echoed', () => {
  it('on success answers of every operation', async () => {
    const method = await client.tokenize(CARDS.msi);
    const calls: [string, () => Promise<HttpResult>][] = [
      ['token', () => client.requestToken(undefined, { requestId: 'rid-token-1' })],
      ['methods', () => client.tokenizeRaw(CARDS.visa, {}, { requestId: 'rid-methods-1' })],
      [
        'payments',
        () =>
          client.createPaymentRaw(
            {
              methodId: method.id,
              amount: 1200,
              currency: 'mxn',
              reservationId: 'R',
              installments: { required: true },
            },
            { requestId: 'rid-payments-1' },
          ),
      ],
    ];
    for (const [name, call] of calls) {
      const res = await call();
      expect(res.status, name).toBeLessThan(300);
      expect(echoed(res), name).toBe(res.sentRequestId);
    }
    const p = await client.createPayment(method.id, {
      amount: 1200,
      currency: 'mxn',
      installments: { required: true },
    });
    const get = await client.getPaymentRaw(p.id, { requestId: 'rid-get-1' });
    expect(echoed(get)).toBe('rid-get-1');
    const patch = await client.patchPaymentRaw(p.id, { amount: 1300 }, { requestId: 'rid-patch-1' });
    expect(patch.status).toBe(200);
    expect(echoed(patch)).toBe('rid-patch-1');
    const conf = await client.confirmRaw(p.id, {}, { requestId: 'rid-confirm-1' });
    expect(conf.status).toBe(200);
    expect(echoed(conf)).toBe('rid-confirm-1');
  });

  it('on error answers, in the header and in error.requestId', async () => {
    const res = await client.getPaymentRaw(unknownPaymentId(), { requestId: 'rid-err-404' });
    assertError(res, 404, 'not_found');
    expect(echoed(res)).toBe('rid-err-404');
    const unauth = await client.getPaymentRaw(unknownPaymentId(), { requestId: 'rid-err-401', token: null });
    assertError(unauth, 401, 'invalid_token');
    expect(echoed(unauth)).toBe('rid-err-401');
    const bad = await client.createPaymentRaw({}, { requestId: 'rid-err-400', rawBody: '{' });
    assertError(bad, 400, 'validation_error');
    expect(echoed(bad)).toBe('rid-err-400');
  });

  it('on token endpoint errors', async () => {
    const res = await client.requestToken({ grant_type: 'password' }, { requestId: 'rid-token-err' });
    expect(res.status).toBe(400);
    expect(echoed(res)).toBe('rid-token-err');
  });

  it('keeps a 200-character printable id as is', async () => {
    const long = `r${'-x'.repeat(99)}a`.slice(0, 200);
    expect(long).toHaveLength(200);
    const res = await client.getPaymentRaw(unknownPaymentId(), { requestId: long });
    expect(echoed(res)).toBe(long);
    expect(parseError(res).requestId).toBe(long);
  });
});

describe('X-Request-Id generated', () => {
  it('when absent: req_ + 24 hex, in the header and in error.requestId, different each time', async () => {
    const a = await client.getPaymentRaw(unknownPaymentId(), { requestId: null });
    const b = await client.getPaymentRaw(unknownPaymentId(), { requestId: null });
    const idA = echoed(a);
    expect(idA).toMatch(GENERATED);
    expect(parseError(a).requestId).toBe(idA);
    expect(echoed(b)).toMatch(GENERATED);
    expect(echoed(b)).not.toBe(idA);
  });

  it('on success answers and on the token endpoint', async () => {
    const m = await client.tokenizeRaw(CARDS.visa, {}, { requestId: null });
    expect(m.status).toBe(201);
    expect(echoed(m)).toMatch(GENERATED);
    const tok = await http({
      method: 'POST',
      url: `${sim.authUrl}/oauth2/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: sim.clientId,
        client_secret: sim.clientSecret,
      }).toString(),
    });
    expect(tok.status).toBe(200);
    expect(echoed(tok)).toMatch(GENERATED);
  });

  it('replaces an over-long (201 characters) id', async () => {
    const tooLong = 'y'.repeat(201);
    const res = await client.getPaymentRaw(unknownPaymentId(), { requestId: tooLong });
    expect(echoed(res)).toMatch(GENERATED);
    expect(parseError(res).requestId).toBe(echoed(res));
  });
});
