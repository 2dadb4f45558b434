// Refunds: POST {baseUrl}/payments/{id}/refunds (spec §2 Refund, §3 refund rules, §4; interface-decisions §2, §3, §6, §7; README Refunds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ApiClient,
  CARDS,
  advanceClock,
  assertError,
  newIdempotencyKey,
  newTenant,
  parseOk,
  paymentSchema,
  refundSchema,
  unknownPaymentId,
} from './support';

const REFUND_DELAY_MS = 3000;
let sim: RunningSimulator;
let client: ApiClient;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, processingDelayMs: 1000, refundDelayMs: REFUND_DELAY_MS });
  client = await newTenant(sim);
});

afterAll(async () => {
  await sim.close();
});

describe('partial then full refund', () => {
  it('refunds are pending, listed on the payment, succeed after the refund delay; full = what is left', async () => {
    const payment = await client.succeededPayment({ amount: 100 });

    const res = await client.refundRaw(payment.id, { amount: 30, reason: 'requested_by_customer' });
    const partial = parseOk(res, refundSchema, 201);
    expect(partial.status).toBe('pending');
    expect(partial.amount).toBe(30);
    expect(partial.currency).toBe('usd');
    expect(partial.reason).toBe('requested_by_customer');
    expect(partial.paymentId).toBe(payment.id);

    let read = await client.getPayment(payment.id);
    expect(read.status).toBe('succeeded');
    expect(read.refunds).toHaveLength(1);
    expect(read.refunds?.[0]).toEqual(partial);

    await advanceClock(sim, Math.ceil(REFUND_DELAY_MS / 1000) + 1);
    read = await client.getPayment(payment.id);
    expect(read.refunds?.[0]?.status).toBe('succeeded');
    expect(read.refunds?.[0]?.id).toBe(partial.id);

    const full = await client.refund(payment.id, { reason: 'cancellation' });
    expect(full.amount).toBe(70);
    expect(full.status).toBe('pending');
    expect(full.reason).toBe('cancellation');
    expect(full.id).not.toBe(partial.id);

    read = await client.getPayment(payment.id);
    expect(read.status).toBe('succeeded');
    expect(read.refunds?.map((r) => r.id)).toEqual([partial.id, full.id]);
    expect(read.refunds?.map((r) => r.amount)).toEqual([30, 70]);

    // nothing left: neither a full nor a partial refund
    assertError(await client.refundRaw(payment.id, { reason: 'duplicate' }), 422, 'refund_exceeds_remaining', {
      param: 'amount',
    });
    assertError(
      await client.refundRaw(payment.id, { amount: 0.01, reason: 'duplicate' }),
      422,
      'refund_exceeds_remaining',
      {
        param: 'amount',
      },
    );

    await advanceClock(sim, Math.ceil(REFUND_DELAY_MS / 1000) + 1);
    read = await client.getPayment(payment.id);
    expect(read.refunds?.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(read.status).toBe('succeeded');
  });

  it('a full refund without amount refunds the whole payment', async () => {
    const payment = await client.succeededPayment({ amount: 42.42 });
    const full = await client.refund(payment.id, { reason: 'fraudulent' });
    expect(full.amount).toBe(42.42);
    assertError(await client.refundRaw(payment.id, { reason: 'fraudulent' }), 422, 'refund_exceeds_remaining', {
      param: 'amount',
    });
  });

  it('pending refunds count against what is left, in exact cents', async () => {
    const payment = await client.succeededPayment({ amount: 100 });
    const a = await client.refund(payment.id, { amount: 33.33, reason: 'duplicate' });
    const b = await client.refund(payment.id, { amount: 33.33, reason: 'duplicate' });
    expect([a.status, b.status]).toEqual(['pending', 'pending']);
    assertError(
      await client.refundRaw(payment.id, { amount: 33.35, reason: 'duplicate' }),
      422,
      'refund_exceeds_remaining',
      {
        param: 'amount',
      },
    );
    const rest = await client.refund(payment.id, { reason: 'duplicate' });
    expect(rest.amount).toBe(33.34);
  });

  it('a refund of exactly the remaining amount is allowed', async () => {
    const payment = await client.succeededPayment({ amount: 0.3 });
    await client.refund(payment.id, { amount: 0.1, reason: 'requested_by_customer' });
    await client.refund(payment.id, { amount: 0.2, reason: 'requested_by_customer' });
    assertError(
      await client.refundRaw(payment.id, { amount: 0.01, reason: 'requested_by_customer' }),
      422,
      'refund_exceeds_remaining',
    );
  });

  it('an mxn payment is refunded in mxn', async () => {
    const method = await client.tokenize(CARDS.msi);
    const p = await client.createPayment(method.id, { amount: 500, currency: 'mxn' });
    await advanceClock(sim, 2);
    expect((await client.getPayment(p.id)).status).toBe('succeeded');
    const r = await client.refund(p.id, { amount: 100, reason: 'cancellation' });
    expect(r.currency).toBe('mxn');
  });
});

describe('refund reasons and validation', () => {
  it.each(['duplicate', 'fraudulent', 'requested_by_customer', 'cancellation'] as const)(
    'reason %s is accepted',
    async (reason) => {
      const payment = await client.succeededPayment({ amount: 20 });
      const r = await client.refund(payment.id, { amount: 5, reason });
      expect(r.reason).toBe(reason);
    },
  );

  it('reason missing or unknown → 400 param reason', async () => {
    const payment = await client.succeededPayment({ amount: 20 });
    assertError(await client.refundRaw(payment.id, { amount: 5 }), 400, 'validation_error', { param: 'reason' });
    for (const reason of ['other', 'DUPLICATE', '', 3, null]) {
      assertError(await client.refundRaw(payment.id, { amount: 5, reason }), 400, 'validation_error', {
        param: 'reason',
      });
    }
  });

  it('amount < 0.01, 3 decimals, > 999999.99, ill-typed → 400 param amount', async () => {
    const payment = await client.succeededPayment({ amount: 20 });
    for (const amount of [0, 0.001, -1, 1.234, 0.1 + 0.2, 5.0000000001, 1000000, '5', null]) {
      assertError(await client.refundRaw(payment.id, { amount, reason: 'duplicate' }), 400, 'validation_error', {
        param: 'amount',
      });
    }
    assertError(
      await client.refundRaw(payment.id, { amount: 5, reason: 'duplicate', note: 'x' }),
      400,
      'validation_error',
      {
        param: 'note',
      },
    );
    assertError(await client.refundRaw(payment.id, undefined, { rawBody: '{"reason":' }), 400, 'validation_error');
    // nothing was refunded by the rejected requests
    expect((await client.getPayment(payment.id)).refunds ?? []).toEqual([]);
  });

  it('missing or non-v4 Idempotency-Key → 400 param Idempotency-Key', async () => {
    const payment = await client.succeededPayment({ amount: 20 });
    assertError(
      await client.refundRaw(payment.id, { reason: 'duplicate' }, { idempotencyKey: null }),
      400,
      'validation_error',
      {
        param: 'Idempotency-Key',
      },
    );
    assertError(
      await client.refundRaw(
        payment.id,
        { reason: 'duplicate' },
        { idempotencyKey: '6fa459ea-ee8a-11ca-b3ef-00112233445a' },
      ),
      400,
      'validation_error',
      { param: 'Idempotency-Key' },
    );
  });
});

describe('refund errors', () => {
  it('over-refund → 422 refund_exceeds_remaining (param amount), nothing created', async () => {
    const payment = await client.succeededPayment({ amount: 100 });
    assertError(
      await client.refundRaw(payment.id, { amount: 100.01, reason: 'duplicate' }),
      422,
      'refund_exceeds_remaining',
      {
        param: 'amount',
      },
    );
    expect((await client.getPayment(payment.id)).refunds ?? []).toEqual([]);
    // the full amount is still refundable
    expect((await client.refund(payment.id, { amount: 100, reason: 'duplicate' })).amount).toBe(100);
  });

  it('refund of a processing payment → 422 invalid_state', async () => {
    const p = await client.payWith(CARDS.visa);
    expect(p.status).toBe('processing');
    assertError(await client.refundRaw(p.id, { reason: 'duplicate' }), 422, 'invalid_state');
  });

  it('refund of a failed payment → 422 invalid_state', async () => {
    const p = await client.payWith(CARDS.declined);
    await advanceClock(sim, 2);
    expect((await client.getPayment(p.id)).status).toBe('failed');
    assertError(await client.refundRaw(p.id, { amount: 1, reason: 'duplicate' }), 422, 'invalid_state');
  });

  it('refund of a requires_action payment → 422 invalid_state', async () => {
    const p = await client.payWith(CARDS.threeDS);
    expect(p.status).toBe('requires_action');
    assertError(await client.refundRaw(p.id, { reason: 'duplicate' }), 422, 'invalid_state');
  });

  it('refund of a pending_confirmation and of an expired MSI payment → 422 invalid_state', async () => {
    const m = await client.tokenize(CARDS.msi);
    const p = await client.createPayment(m.id, { amount: 900, currency: 'mxn', installments: { required: true } });
    assertError(await client.refundRaw(p.id, { reason: 'duplicate' }), 422, 'invalid_state');
    await advanceClock(sim, 15 * 60 + 1);
    await client.refreshToken();
    expect((await client.getPayment(p.id)).status).toBe('expired');
    assertError(await client.refundRaw(p.id, { reason: 'duplicate' }), 422, 'invalid_state');
  });

  it('refund of an unknown payment → 404 not_found', async () => {
    assertError(await client.refundRaw(unknownPaymentId(), { reason: 'duplicate' }), 404, 'not_found');
  });

  it('refund replay with the same key returns the same refund and creates no second one', async () => {
    const payment = await client.succeededPayment({ amount: 60 });
    const key = newIdempotencyKey();
    const first = await client.refundRaw(payment.id, { amount: 10, reason: 'duplicate' }, { idempotencyKey: key });
    const again = await client.refundRaw(payment.id, { amount: 10, reason: 'duplicate' }, { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await client.getPayment(payment.id)).refunds).toHaveLength(1);
  });
});

describe('refundDelayMs 0', () => {
  let instant: RunningSimulator;
  beforeAll(async () => {
    instant = await startSimulator({ port: 0, processingDelayMs: 0, refundDelayMs: 0 });
  });
  afterAll(async () => {
    await instant.close();
  });

  it('a refund is succeeded at once', async () => {
    const c = new ApiClient(instant);
    const p = await c.payWith(CARDS.visa, { amount: 10 });
    const settled = await c.getPayment(p.id);
    expect(settled.status).toBe('succeeded');
    const r = await c.refund(p.id, { reason: 'requested_by_customer' });
    expect(r.status).toBe('succeeded');
    const read = parseOk(await c.getPaymentRaw(p.id), paymentSchema, 200);
    expect(read.refunds?.[0]?.status).toBe('succeeded');
  });
});
