// Authentication: card-payment-service.md §5, interface-decisions §1, README "Token endpoint".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ApiClient,
  CARDS,
  advanceClock,
  assertError,
  http,
  methodSchema,
  newTenant,
  parseOk,
  paymentSchema,
  resetSim,
  tokenErrorSchema,
  tokenResponseSchema,
  unknownPaymentId,
  type SimInfo,
} from './support';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => {
  await sim.close();
});

describe('startSimulator endpoints', () => {
  it('exposes the seven endpoint keys, a sandbox publishable key and loopback URLs', () => {
    const info: SimInfo = sim;
    for (const key of ['authUrl', 'cdeUrl', 'baseUrl', 'controlUrl'] as const) {
      expect(info[key]).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    }
    expect(info.clientId.length).toBeGreaterThan(0);
    expect(info.clientSecret.length).toBeGreaterThan(0);
    expect(info.publishableKey).toMatch(/^pk_sandbox_/);
  });
});

describe('POST {authUrl}/oauth2/token', () => {
  it('issues a Bearer token with expires_in 3600 for the printed credentials', async () => {
    const client = new ApiClient(sim);
    const res = await client.requestToken();
    const tok = parseOk(res, tokenResponseSchema, 200);
    expect(tok.expires_in).toBe(3600);
    expect(tok.token_type).toBe('Bearer');
    expect(res.headers.get('content-type') ?? '').toMatch(/application\/json/);
  });

  it('accepts the credentials as HTTP Basic', async () => {
    const basic = Buffer.from(`${sim.clientId}:${sim.clientSecret}`).toString('base64');
    const res = await new ApiClient(sim).requestToken(
      { grant_type: 'client_credentials' },
      { headers: { authorization: `Basic ${basic}` } },
    );
    parseOk(res, tokenResponseSchema, 200);
  });

  it('answers 401 invalid_client for a wrong secret', async () => {
    const res = await new ApiClient(sim).requestToken({
      grant_type: 'client_credentials',
      client_id: sim.clientId,
      client_secret: `${sim.clientSecret}x`,
    });
    expect(res.status).toBe(401);
    const body = tokenErrorSchema.parse(res.body);
    expect(body.error).toBe('invalid_client');
    expect(body.error_description ?? '').not.toBe('');
  });

  it('answers 401 invalid_client for an unknown client_id', async () => {
    const res = await new ApiClient(sim).requestToken({
      grant_type: 'client_credentials',
      client_id: 'cli_nobody',
      client_secret: sim.clientSecret,
    });
    expect(res.status).toBe(401);
    expect(tokenErrorSchema.parse(res.body).error).toBe('invalid_client');
  });

  it('answers 400 unsupported_grant_type for another grant_type', async () => {
    for (const grant of ['password', 'authorization_code', 'CLIENT_CREDENTIALS']) {
      const res = await new ApiClient(sim).requestToken({
        grant_type: grant,
        client_id: sim.clientId,
        client_secret: sim.clientSecret,
      });
      expect(res.status, grant).toBe(400);
      expect(tokenErrorSchema.parse(res.body).error, grant).toBe('unsupported_grant_type');
    }
  });

  it('answers 400 invalid_request for a missing grant_type', async () => {
    const res = await new ApiClient(sim).requestToken({ client_id: sim.clientId, client_secret: sim.clientSecret });
    expect(res.status).toBe(400);
    expect(tokenErrorSchema.parse(res.body).error).toBe('invalid_request');
  });

  it('answers 400 invalid_request for a JSON (not form-encoded) body', async () => {
    const res = await http({
      method: 'POST',
      url: `${sim.authUrl}/oauth2/token`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: sim.clientId,
        client_secret: sim.clientSecret,
      }),
    });
    expect(res.status).toBe(400);
    expect(tokenErrorSchema.parse(res.body).error).toBe('invalid_request');
  });

  it('issues tokens to tenants registered through the control endpoint', async () => {
    const tenant = await newTenant(sim);
    expect((await tenant.token()).length).toBeGreaterThan(0);
  });
});

describe('Bearer token on cde and base endpoints', () => {
  it('one token is valid for both tokenization and payments (spec §5.3)', async () => {
    const client = new ApiClient(sim);
    const method = await client.tokenize(CARDS.visa);
    const payment = await client.createPayment(method.id);
    expect(payment.methodId).toBe(method.id);
  });

  it('answers 401 invalid_token without an Authorization header', async () => {
    const client = new ApiClient(sim);
    assertError(await client.tokenizeRaw(CARDS.visa, {}, { token: null }), 401, 'invalid_token');
    assertError(await client.getPaymentRaw(unknownPaymentId(), { token: null }), 401, 'invalid_token');
    assertError(
      await client.createPaymentRaw(
        { methodId: `mth_${'0'.repeat(32)}`, amount: 1, currency: 'usd', reservationId: 'r' },
        { token: null },
      ),
      401,
      'invalid_token',
    );
  });

  it('answers 401 invalid_token for an unknown token', async () => {
    const client = new ApiClient(sim);
    assertError(await client.tokenizeRaw(CARDS.visa, {}, { token: 'not-a-real-token' }), 401, 'invalid_token');
    assertError(await client.getPaymentRaw(unknownPaymentId(), { token: 'not-a-real-token' }), 401, 'invalid_token');
  });

  it('answers 401 invalid_token for a non-Bearer scheme', async () => {
    const client = new ApiClient(sim);
    const token = await client.token();
    const res = await client.getPaymentRaw(unknownPaymentId(), {
      token: null,
      headers: { authorization: `Basic ${token}` },
    });
    assertError(res, 401, 'invalid_token');
  });

  it('does not accept the client secret or the publishable key as a bearer token', async () => {
    const client = new ApiClient(sim);
    assertError(await client.getPaymentRaw(unknownPaymentId(), { token: sim.clientSecret }), 401, 'invalid_token');
    assertError(await client.getPaymentRaw(unknownPaymentId(), { token: sim.publishableKey }), 401, 'invalid_token');
  });

  it('a token expires after 3600 s of simulator time (default token TTL)', async () => {
    const client = await newTenant(sim);
    const method = await client.tokenize(CARDS.visa);
    await advanceClock(sim, 3500);
    // still valid before the lifetime ends
    parseOk(
      await client.createPaymentRaw({ methodId: method.id, amount: 5, currency: 'usd', reservationId: 'r' }),
      paymentSchema,
      201,
    );
    await advanceClock(sim, 101);
    assertError(await client.tokenizeRaw(CARDS.visa), 401, 'invalid_token');
    assertError(
      await client.createPaymentRaw({ methodId: method.id, amount: 5, currency: 'usd', reservationId: 'r' }),
      401,
      'invalid_token',
    );
    // a new token works again
    await client.refreshToken();
    parseOk(await client.tokenizeRaw(CARDS.visa), methodSchema, 201);
  });
});

describe('tokenTtlS option', () => {
  let short: RunningSimulator;
  beforeAll(async () => {
    short = await startSimulator({ port: 0, tokenTtlS: 60 });
  });
  afterAll(async () => {
    await short.close();
  });

  it('sets expires_in and the token expires after tokenTtlS of clock time (401 invalid_token)', async () => {
    const client = new ApiClient(short);
    const tok = parseOk(await client.requestToken(), tokenResponseSchema, 200);
    expect(tok.expires_in).toBe(60);
    await client.refreshToken();
    parseOk(await client.tokenizeRaw(CARDS.visa), methodSchema, 201);
    await advanceClock(short, 50);
    parseOk(await client.tokenizeRaw(CARDS.visa), methodSchema, 201);
    await advanceClock(short, 11);
    assertError(await client.tokenizeRaw(CARDS.visa), 401, 'invalid_token');
    assertError(await client.getPaymentRaw(unknownPaymentId()), 401, 'invalid_token');
  });
});

describe('POST {controlUrl}/reset', () => {
  it('forgets tokens and registered clients, the printed tenant keeps its credentials', async () => {
    const own = new ApiClient(sim);
    const oldToken = await own.refreshToken();
    const tenant = await newTenant(sim);
    await resetSim(sim);
    assertError(await own.getPaymentRaw(unknownPaymentId(), { token: oldToken }), 401, 'invalid_token');
    const res = await tenant.requestToken();
    expect(res.status).toBe(401);
    expect(tokenErrorSchema.parse(res.body).error).toBe('invalid_client');
    // the printed credentials still work
    await own.refreshToken();
    parseOk(await own.tokenizeRaw(CARDS.visa), methodSchema, 201);
  });
});
