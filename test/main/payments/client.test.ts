// The typed client and token manager against the simulator over real HTTP, with its fault injection.
// Only fetch is wrapped, to count token requests; the service itself is never mocked.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ServiceClient, simulatorConfig, ServiceError, TokenManager, type Attempt } from '../../../main/payments';
import { useSimulator } from '../../support/simulator';

const sim = useSimulator({ processingDelayMs: 1000 });

function engine(options: { timeoutMs?: number; realSleep?: boolean; now?: () => number } = {}) {
  const attempts: Attempt[] = [];
  const sleeps: number[] = [];
  let tokenRequests = 0;
  const counting: typeof fetch = (input, init) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/oauth2/token')) tokenRequests++;
    return fetch(input, init);
  };
  const config = simulatorConfig(sim, options.timeoutMs ?? 30_000);
  const tokens = new TokenManager({
    authUrl: config.authUrl,
    clientId: config.clientId,
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    timeoutMs: config.requestTimeoutMs,
    fetch: counting,
    ...(options.now ? { now: options.now } : {}),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  });
  const client = new ServiceClient({
    config,
    tokens,
    fetch: counting,
    onAttempt: (a) => attempts.push(a),
    // Record the waits instead of sleeping: the schedule is asserted, the tests stay fast.
    sleep: (ms) => {
      sleeps.push(ms);
      return options.realSleep ? delay(ms) : Promise.resolve();
    },
    random: () => 0.5,
  });
  return { client, attempts, sleeps, tokenRequests: () => tokenRequests };
}

const VISA = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' };
const MSI = { ...VISA, number: '4000004840000008' };

async function paymentOn(client: ServiceClient, card = VISA, extra: object = {}) {
  const method = await client.tokenize(card, randomUUID());
  return client.createPayment(
    { methodId: method.value.id, amount: 1500, currency: 'mxn', reservationId: 'R-100', ...extra },
    randomUUID(),
  );
}

describe('operations', () => {
  it('runs flow A: tokenize, create, read until succeeded', async () => {
    const { client } = engine();
    const method = await client.tokenize(VISA, randomUUID(), 'guest@example.com');
    expect(method.value.card).toMatchObject({ last4: '4242', brand: 'visa' });
    const created = await client.createPayment(
      { methodId: method.value.id, amount: 99.9, currency: 'usd', reservationId: 'R-1' },
      randomUUID(),
    );
    expect(created.value.status).toBe('processing');
    await sim.advanceClock(2);
    expect((await client.getPayment(created.value.id)).value.status).toBe('succeeded');
  });

  it('runs flows B and C: update the amount, confirm with a plan, then refund', async () => {
    const { client } = engine();
    const created = await paymentOn(client, MSI, { installments: { required: true } });
    expect(created.value.availableInstallments).toEqual([3, 6, 9, 12]);
    const updated = await client.updateAmount(created.value.id, 2400);
    expect(updated.value).toMatchObject({
      amount: 2400,
      originalAmount: 1500,
      availableInstallments: [3, 6, 9, 12, 18, 24],
    });
    const confirmed = await client.confirm(created.value.id, 24);
    expect(confirmed.value.installments).toEqual({ count: 24, perInstallment: 100 });
    await sim.advanceClock(2);
    const refund = await client.createRefund(
      created.value.id,
      { amount: 400, reason: 'requested_by_customer' },
      randomUUID(),
    );
    expect(refund.value).toMatchObject({ amount: 400, status: 'pending' });
  });

  it('surfaces a 4xx with the service message, param and request id, without retrying', async () => {
    const { client, attempts } = engine();
    const error = await client.tokenize({ ...VISA, number: '4242424242424241' }, randomUUID()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      kind: 'http',
      code: 'validation_error',
      details: { status: 400, param: 'card.number' },
    });
    expect((error as ServiceError).message).toMatch(/card number/i);
    expect(attempts).toHaveLength(1);
    expect((error as ServiceError).details.requestId).toBe(attempts[0]?.requestId);
  });
});

describe('tokens', () => {
  it('shares one token request among concurrent callers and reuses it', async () => {
    const { client, tokenRequests } = engine();
    const created = await paymentOn(client);
    const id = created.value.id;
    const fresh = engine();
    await Promise.all(Array.from({ length: 8 }, () => fresh.client.getPayment(id)));
    await fresh.client.getPayment(id);
    expect(fresh.tokenRequests()).toBe(1);
    expect(tokenRequests()).toBe(1);
  });

  it('refreshes once, transparently, when the service says the token expired', async () => {
    const { client, tokenRequests, attempts } = engine();
    const created = await paymentOn(client);
    await sim.advanceClock(3601);
    const read = await client.getPayment(created.value.id);
    expect(read.value.status).toBe('succeeded');
    expect(tokenRequests()).toBe(2);
    expect(attempts.filter((a) => a.operation === 'GET /payments/{id}').map((a) => a.status)).toEqual([401, 200]);
  });

  it('says the credentials are wrong, without the secret', async () => {
    const wrong = new ServiceClient({
      config: simulatorConfig(sim),
      fetch,
      tokens: new TokenManager({
        authUrl: sim.authUrl,
        clientId: sim.clientId,
        secrets: { read: () => Promise.resolve('not-the-secret-0123456789') },
        timeoutMs: 5000,
        fetch,
      }),
    });
    const error = await wrong.getPayment('pay_' + '0'.repeat(32)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_client', details: { status: 401 } });
    expect(JSON.stringify(error) + String(error)).not.toContain('not-the-secret');
  });
});

describe('retries', () => {
  it('retries 503 and 500 with the same Idempotency-Key, and creates exactly one payment', async () => {
    const { client, attempts, sleeps } = engine();
    const method = await client.tokenize(VISA, randomUUID());
    await sim.fault('POST /payments', 'error_503');
    await sim.fault('POST /payments', 'error_500');
    const key = randomUUID();
    const created = await client.createPayment(
      { methodId: method.value.id, amount: 10, currency: 'usd', reservationId: 'R-2' },
      key,
    );
    const tries = attempts.filter((a) => a.operation === 'POST /payments');
    expect(tries.map((a) => a.status)).toEqual([503, 500, 201]);
    expect(new Set(tries.map((a) => a.idempotencyKey))).toEqual(new Set([key]));
    expect(new Set(tries.map((a) => a.requestId)).size).toBe(3);
    // equal jitter: half of each doubling step fixed, half random (0.5 here) → 3/4 of 500 ms, then of 1000 ms
    expect(sleeps).toEqual([375, 750]);
    expect(created.replayed).toBe(false);
  });

  it('honours Retry-After on 429', async () => {
    const { client, attempts, sleeps } = engine();
    await sim.fault('POST /methods', 'error_429');
    await client.tokenize(VISA, randomUUID());
    expect(attempts.map((a) => a.status)).toEqual([429, 201]);
    expect(sleeps).toEqual([1000]);
  });

  it('gives up after three attempts with the last failure', async () => {
    const { client, attempts } = engine();
    await sim.fault('POST /methods', 'error_503', 3);
    const error = await client.tokenize(VISA, randomUUID()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable', details: { status: 503 } });
    expect(attempts).toHaveLength(3);
  });

  it('after a lost answer (drop after commit), the retry is a replay of the one payment created', async () => {
    const { client, attempts } = engine();
    const method = await client.tokenize(VISA, randomUUID());
    await sim.fault('POST /payments', 'drop_after_commit');
    const created = await client.createPayment(
      { methodId: method.value.id, amount: 10, currency: 'usd', reservationId: 'R-3' },
      randomUUID(),
    );
    expect(created.replayed).toBe(true);
    expect(attempts.filter((a) => a.operation === 'POST /payments').map((a) => a.status)).toEqual([
      'network_error',
      201,
    ]);
    expect((await client.getPayment(created.value.id)).value.id).toBe(created.value.id);
  });

  it('after a request dropped before commit, the retry creates it fresh', async () => {
    const { client, attempts } = engine();
    await sim.fault('POST /methods', 'drop_before_commit');
    const method = await client.tokenize(VISA, randomUUID());
    expect(method.replayed).toBe(false);
    expect(attempts.map((a) => a.status)).toEqual(['network_error', 201]);
  });

  it('a request past its timeout is retried with the same key', async () => {
    const { client, attempts } = engine({ timeoutMs: 300 });
    await sim.fault('GET /payments/{id}', 'delay', 1, 1000);
    const created = await paymentOn(client);
    const read = await client.getPayment(created.value.id);
    expect(read.value.id).toBe(created.value.id);
    expect(attempts.filter((a) => a.operation === 'GET /payments/{id}').map((a) => a.status)).toEqual(['timeout', 200]);
  });

  it('surfaces 409 idempotency_conflict and does not retry it', async () => {
    const { client, attempts } = engine();
    const key = randomUUID();
    await client.tokenize(VISA, key);
    const error = await client.tokenize({ ...VISA, number: '5555555555554444' }, key).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'idempotency_conflict', details: { status: 409 } });
    expect(attempts).toHaveLength(2);
  });
});

describe('confirmation whose answer is lost', () => {
  it('reads the payment instead of confirming blindly a second time', async () => {
    const { client, attempts } = engine();
    const created = await paymentOn(client, MSI, { installments: { required: true } });
    await sim.fault('POST /payments/{id}/confirmation', 'drop_after_commit');
    const confirmed = await client.confirm(created.value.id, 3);
    expect(confirmed.value).toMatchObject({ status: 'processing', installments: { count: 3, perInstallment: 500 } });
    expect(
      attempts.filter((a) => a.operation.startsWith('POST /payments/{id}/confirmation')).map((a) => a.status),
    ).toEqual(['network_error']);
    expect(attempts.at(-1)).toMatchObject({ operation: 'GET /payments/{id}', status: 200 });
  });

  it('sends the confirmation again only when the read shows it was not applied', async () => {
    const { client, attempts } = engine();
    const created = await paymentOn(client, MSI, { installments: { required: true } });
    await sim.fault('POST /payments/{id}/confirmation', 'error_503');
    const confirmed = await client.confirm(created.value.id);
    expect(confirmed.value.status).toBe('processing');
    expect(
      attempts
        .filter((a) => a.operation !== 'POST /methods' && a.operation !== 'POST /payments')
        .map((a) => `${a.operation} ${a.status}`),
    ).toEqual([
      'POST /payments/{id}/confirmation 503',
      'GET /payments/{id} 200',
      'POST /payments/{id}/confirmation 200',
    ]);
  });
});

describe('confirmation (interface-decisions §7)', () => {
  const confirmations = (attempts: Attempt[]) =>
    attempts
      .filter((a) => a.operation !== 'POST /methods' && a.operation !== 'POST /payments')
      .map((a) => `${a.operation} ${a.status}`);

  it('three 503s: the last failed round throws; it never resolves as a success still pending confirmation', async () => {
    const { client, attempts } = engine();
    const created = await paymentOn(client, MSI, { installments: { required: true } });
    await sim.fault('POST /payments/{id}/confirmation', 'error_503', 3);
    const error = await client.confirm(created.value.id, 3).then(
      (answer) => answer.value.status,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'unavailable', details: { status: 503 } });
    expect(confirmations(attempts).filter((a) => a.startsWith('POST'))).toEqual(
      Array.from({ length: 3 }, () => 'POST /payments/{id}/confirmation 503'),
    );
    // Every re-send was decided by a read first.
    expect(confirmations(attempts).filter((a) => a.startsWith('GET'))).toHaveLength(3);
    expect((await client.getPayment(created.value.id)).value.status).toBe('pending_confirmation');
  });

  it('a lost answer, a read still pending, then 422 invalid_state: reads again and reports what the service holds', async () => {
    // The first confirmation is held by the service past the client's timeout: the read after it still shows
    // pending_confirmation, the held one is then applied, and the re-sent confirmation is told invalid_state.
    const { client, attempts } = engine({ timeoutMs: 300, realSleep: true });
    const created = await paymentOn(client, MSI, { installments: { required: true } });
    await sim.fault('POST /payments/{id}/confirmation', 'delay', 1, 400);
    const confirmed = await client.confirm(created.value.id, 3);
    expect(confirmed.value).toMatchObject({ status: 'processing', installments: { count: 3 } });
    expect(confirmations(attempts)).toEqual([
      'POST /payments/{id}/confirmation timeout',
      'GET /payments/{id} 200',
      'POST /payments/{id}/confirmation 422',
      'GET /payments/{id} 200',
    ]);
  });

  it('429 on the confirmation is retried after Retry-After (it was not processed)', async () => {
    const { client, attempts, sleeps } = engine();
    const created = await paymentOn(client, MSI, { installments: { required: true } });
    await sim.fault('POST /payments/{id}/confirmation', 'error_429');
    const confirmed = await client.confirm(created.value.id, 3);
    expect(confirmed.value.status).toBe('processing');
    expect(confirmations(attempts)).toEqual([
      'POST /payments/{id}/confirmation 429',
      'POST /payments/{id}/confirmation 200',
    ]);
    expect(sleeps).toEqual([1000]);
  });
});

describe('tokens when the auth host misbehaves', () => {
  it('429 on the token endpoint is retried after Retry-After', async () => {
    const { client, sleeps, tokenRequests } = engine();
    await sim.fault('POST /oauth2/token', 'error_429');
    const method = await client.tokenize(VISA, randomUUID());
    expect(method.value.card.last4).toBe('4242');
    expect(tokenRequests()).toBe(2);
    expect(sleeps).toEqual([1000]);
  });

  it('while the auth host is down, a token that is still valid keeps being used (refreshed early, kept on failure)', async () => {
    let now = Date.now();
    const { client, tokenRequests } = engine({ now: () => now });
    const created = await paymentOn(client);
    expect(tokenRequests()).toBe(1);
    // 50 minutes on: the token (3600 s) is due for its early refresh but valid for 10 more minutes.
    now += 50 * 60 * 1000;
    await sim.fault('POST /oauth2/token', 'error_503', 20);
    const read = await client.getPayment(created.value.id);
    expect(read.value.id).toBe(created.value.id);
    expect(tokenRequests()).toBeGreaterThan(1);
    // Once it has really expired, nothing is sent with it: the auth host's failure is the answer.
    now += 11 * 60 * 1000;
    const error = await client.getPayment(created.value.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable', details: { status: 503 } });
  });
});
