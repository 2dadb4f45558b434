// MSI: flows B and C, plans, confirmation, expiry (spec §1 rule 3, §3, §4; interface-decisions §3, §6, §7, §8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ApiClient,
  CARDS,
  advanceClock,
  assertError,
  expectedPlans,
  newTenant,
  parseOk,
  paymentSchema,
  type Payment,
} from './support';

const FIFTEEN_MIN = 15 * 60;
let sim: RunningSimulator;
let client: ApiClient;
let msiMethodId: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, processingDelayMs: 2000 });
  client = await newTenant(sim);
  msiMethodId = (await client.tokenize(CARDS.msi)).id;
});

afterAll(async () => {
  await sim.close();
});

async function createMsi(amount: number, extra: Record<string, unknown> = {}): Promise<Payment> {
  return client.createPayment(msiMethodId, { amount, currency: 'mxn', installments: { required: true }, ...extra });
}

describe('flow B: MSI payment with a plan', () => {
  it('pending_confirmation with plans and expiresAt → confirm count → processing with installments → succeeded', async () => {
    const created = await createMsi(1200, { metadata: { folio: 'F-9' } });
    expect(created.status).toBe('pending_confirmation');
    expect(created.availableInstallments).toEqual([3, 6, 9, 12]);
    expect(created.metadata).toEqual({ folio: 'F-9' });
    expect(created.currency).toBe('mxn');
    expect(created.expiresAt).toBeDefined();
    expect(Date.parse(created.expiresAt ?? '') - Date.parse(created.createdAt)).toBe(FIFTEEN_MIN * 1000);

    // polling does not move it
    expect((await client.getPayment(created.id)).status).toBe('pending_confirmation');

    const res = await client.confirmRaw(created.id, { installments: { count: 6 } });
    const confirmed = parseOk(res, paymentSchema, 200);
    expect(confirmed.status).toBe('processing');
    expect(confirmed.installments).toEqual({ count: 6, perInstallment: 200 });
    expect(confirmed.amount).toBe(1200);
    expect(confirmed.metadata).toEqual({ folio: 'F-9' });

    await advanceClock(sim, 3);
    const done = await client.getPayment(created.id);
    expect(done.status).toBe('succeeded');
    expect(done.installments).toEqual({ count: 6, perInstallment: 200 });
  });

  it('confirmation with {} is a single payment without installments', async () => {
    const created = await createMsi(900);
    const confirmed = parseOk(await client.confirmRaw(created.id, {}), paymentSchema, 200);
    expect(confirmed.status).toBe('processing');
    expect(confirmed.installments).toBeUndefined();
    await advanceClock(sim, 3);
    expect((await client.getPayment(created.id)).status).toBe('succeeded');
  });

  it('confirmation with no body at all (body is optional) → processing', async () => {
    const created = await createMsi(900);
    const res = await client.call('POST', `${client.paymentsUrl(created.id)}/confirmation`, undefined, {
      idempotencyKey: null,
    });
    const confirmed = parseOk(res, paymentSchema, 200);
    expect(confirmed.status).toBe('processing');
  });

  it('perInstallment = amount / count rounded to 2 decimals', async () => {
    const created = await createMsi(1000);
    expect(created.availableInstallments).toEqual([3, 6, 9]);
    const confirmed = parseOk(await client.confirmRaw(created.id, { installments: { count: 3 } }), paymentSchema, 200);
    expect(confirmed.installments).toEqual({ count: 3, perInstallment: 333.33 });

    const c2 = await createMsi(2000);
    const conf2 = parseOk(await client.confirmRaw(c2.id, { installments: { count: 9 } }), paymentSchema, 200);
    expect(conf2.installments).toEqual({ count: 9, perInstallment: 222.22 });

    const c3 = await createMsi(1234.56);
    const conf3 = parseOk(await client.confirmRaw(c3.id, { installments: { count: 12 } }), paymentSchema, 200);
    expect(conf3.installments).toEqual({ count: 12, perInstallment: 102.88 });
  });

  it('a second confirmation → 422 invalid_state', async () => {
    const created = await createMsi(600);
    parseOk(await client.confirmRaw(created.id, { installments: { count: 3 } }), paymentSchema, 200);
    assertError(await client.confirmRaw(created.id, { installments: { count: 3 } }), 422, 'invalid_state');
    assertError(await client.confirmRaw(created.id, {}), 422, 'invalid_state');
  });

  it('a count not in availableInstallments → 422 invalid_installments, param installments.count', async () => {
    const created = await createMsi(650);
    expect(created.availableInstallments).toEqual([3, 6]);
    for (const count of [9, 24, 1, 4]) {
      assertError(await client.confirmRaw(created.id, { installments: { count } }), 422, 'invalid_installments', {
        param: 'installments.count',
      });
    }
    // still pending and confirmable
    expect((await client.getPayment(created.id)).status).toBe('pending_confirmation');
    parseOk(await client.confirmRaw(created.id, { installments: { count: 6 } }), paymentSchema, 200);
  });

  it('ill-typed confirmation bodies → 400 validation_error', async () => {
    const created = await createMsi(650);
    for (const [body, param] of [
      [{ installments: { count: '3' } }, 'installments.count'],
      [{ installments: { count: 3.5 } }, 'installments.count'],
      [{ installments: { count: null } }, 'installments.count'],
      [{ installments: 3 }, 'installments'],
      [{ installments: { count: 3 }, extra: 1 }, 'extra'],
    ] as const) {
      assertError(await client.confirmRaw(created.id, body), 400, 'validation_error', { param });
    }
    assertError(
      await client.confirmRaw(created.id, undefined, { rawBody: '{"installments":' }),
      400,
      'validation_error',
    );
    expect((await client.getPayment(created.id)).status).toBe('pending_confirmation');
  });
});

describe('MSI plans (interface-decisions §8)', () => {
  it.each([
    [299.99, []],
    [300, [3]],
    [599.99, [3]],
    [600, [3, 6]],
    [1800, [3, 6, 9, 12, 18]],
    [2399.99, [3, 6, 9, 12, 18]],
    [2400, [3, 6, 9, 12, 18, 24]],
    [999999.99, [3, 6, 9, 12, 18, 24]],
  ])('amount %s MXN → %j', async (amount, plans) => {
    const p = await createMsi(amount);
    expect(p.status).toBe('pending_confirmation');
    expect(p.availableInstallments).toEqual(plans);
    expect(expectedPlans(amount)).toEqual(plans);
  });

  it('under 300 MXN with no plans, {} confirms a single payment', async () => {
    const p = await createMsi(120);
    expect(p.availableInstallments).toEqual([]);
    assertError(await client.confirmRaw(p.id, { installments: { count: 3 } }), 422, 'invalid_installments', {
      param: 'installments.count',
    });
    expect(parseOk(await client.confirmRaw(p.id, {}), paymentSchema, 200).status).toBe('processing');
  });

  it('installments.required false is a normal payment (processing)', async () => {
    const p = await client.createPayment(msiMethodId, {
      amount: 1200,
      currency: 'mxn',
      installments: { required: false },
    });
    expect(p.status).toBe('processing');
  });
});

describe('MSI eligibility → 422 installments_unavailable', () => {
  it('a non-Mexican card with mxn', async () => {
    const visa = await client.tokenize(CARDS.visa);
    const res = await client.createPaymentRaw({
      methodId: visa.id,
      amount: 1200,
      currency: 'mxn',
      reservationId: 'R',
      installments: { required: true },
    });
    assertError(res, 422, 'installments_unavailable');
  });

  it('the MSI card with usd', async () => {
    const res = await client.createPaymentRaw({
      methodId: msiMethodId,
      amount: 1200,
      currency: 'usd',
      reservationId: 'R',
      installments: { required: true },
    });
    assertError(res, 422, 'installments_unavailable');
  });

  it('amex / mastercard success cards with mxn', async () => {
    for (const card of [CARDS.amex, CARDS.mastercard]) {
      const m = await client.tokenize(card);
      const res = await client.createPaymentRaw({
        methodId: m.id,
        amount: 1200,
        currency: 'mxn',
        reservationId: 'R',
        installments: { required: true },
      });
      assertError(res, 422, 'installments_unavailable');
    }
  });
});

describe('flow C: MSI with amount update', () => {
  it('PATCH replaces amount, sets originalAmount, recomputes plans; a second PATCH keeps originalAmount', async () => {
    const created = await createMsi(600, { metadata: { folio: 'F-10' } });
    expect(created.availableInstallments).toEqual([3, 6]);

    const up = parseOk(await client.patchPaymentRaw(created.id, { amount: 1200 }), paymentSchema, 200);
    expect(up.metadata).toEqual({ folio: 'F-10' });
    expect(up.status).toBe('pending_confirmation');
    expect(up.amount).toBe(1200);
    expect(up.originalAmount).toBe(600);
    expect(up.availableInstallments).toEqual([3, 6, 9, 12]);
    expect(up.expiresAt).toBe(created.expiresAt);

    const up2 = parseOk(await client.patchPaymentRaw(created.id, { amount: 2400 }), paymentSchema, 200);
    expect(up2.amount).toBe(2400);
    expect(up2.originalAmount).toBe(600);
    expect(up2.availableInstallments).toEqual([3, 6, 9, 12, 18, 24]);

    const read = await client.getPayment(created.id);
    expect(read.amount).toBe(2400);
    expect(read.originalAmount).toBe(600);
    expect(read.availableInstallments).toEqual([3, 6, 9, 12, 18, 24]);

    const confirmed = parseOk(await client.confirmRaw(created.id, { installments: { count: 24 } }), paymentSchema, 200);
    expect(confirmed.status).toBe('processing');
    expect(confirmed.installments).toEqual({ count: 24, perInstallment: 100 });
    expect(confirmed.originalAmount).toBe(600);

    await advanceClock(sim, 3);
    const done = await client.getPayment(created.id);
    expect(done.status).toBe('succeeded');
    expect(done.amount).toBe(2400);
  });

  it('a lower amount removes plans; a plan no longer offered is rejected', async () => {
    const created = await createMsi(1200);
    const down = parseOk(await client.patchPaymentRaw(created.id, { amount: 350 }), paymentSchema, 200);
    expect(down.availableInstallments).toEqual([3]);
    expect(down.originalAmount).toBe(1200);
    assertError(await client.confirmRaw(created.id, { installments: { count: 12 } }), 422, 'invalid_installments', {
      param: 'installments.count',
    });
    const none = parseOk(await client.patchPaymentRaw(created.id, { amount: 299 }), paymentSchema, 200);
    expect(none.availableInstallments).toEqual([]);
    expect(none.originalAmount).toBe(1200);
  });

  it('PATCH amount validation → 400 param amount', async () => {
    const created = await createMsi(600);
    for (const amount of [0, 0.001, 1.234, 700.1 + 0.2, 700.0000000001, -5, 1000000, '700', null]) {
      assertError(await client.patchPaymentRaw(created.id, { amount }), 400, 'validation_error', { param: 'amount' });
    }
    assertError(await client.patchPaymentRaw(created.id, {}), 400, 'validation_error', { param: 'amount' });
    assertError(await client.patchPaymentRaw(created.id, { amount: 700, currency: 'usd' }), 400, 'validation_error', {
      param: 'currency',
    });
    assertError(
      await client.patchPaymentRaw(created.id, undefined, { rawBody: 'amount=700' }),
      400,
      'validation_error',
    );
    const read = await client.getPayment(created.id);
    expect(read.amount).toBe(600);
    expect(read.originalAmount).toBeUndefined();
  });

  it('PATCH after confirmation → 422 invalid_state', async () => {
    const created = await createMsi(600);
    parseOk(await client.confirmRaw(created.id, {}), paymentSchema, 200);
    assertError(await client.patchPaymentRaw(created.id, { amount: 700 }), 422, 'invalid_state');
  });
});

describe('15-minute expiry of pending_confirmation (interface-decisions §7)', () => {
  it('still pending at 14:59, expired after 15 min; confirm and PATCH → 422 invalid_state', async () => {
    const created = await createMsi(1200);
    await advanceClock(sim, FIFTEEN_MIN - 5);
    expect((await client.getPayment(created.id)).status).toBe('pending_confirmation');
    await advanceClock(sim, 10);
    const expired = await client.getPayment(created.id);
    expect(expired.status).toBe('expired');
    expect(Date.parse(expired.updatedAt)).toBeLessThanOrEqual(
      Date.parse(created.createdAt) + FIFTEEN_MIN * 1000 + 1000,
    );
    assertError(await client.confirmRaw(created.id, { installments: { count: 3 } }), 422, 'invalid_state');
    assertError(await client.confirmRaw(created.id, {}), 422, 'invalid_state');
    assertError(await client.patchPaymentRaw(created.id, { amount: 700 }), 422, 'invalid_state');
    await client.refreshToken();
  });

  it('confirmation after expiry without a read in between → 422 invalid_state (lazy time)', async () => {
    await client.refreshToken();
    const created = await createMsi(1200);
    await advanceClock(sim, FIFTEEN_MIN + 1);
    assertError(await client.confirmRaw(created.id, {}), 422, 'invalid_state');
    expect((await client.getPayment(created.id)).status).toBe('expired');
  });

  it('PATCH does not extend the 15 minutes', async () => {
    await client.refreshToken();
    const created = await createMsi(600);
    await advanceClock(sim, 10 * 60);
    const patched = parseOk(await client.patchPaymentRaw(created.id, { amount: 900 }), paymentSchema, 200);
    expect(patched.expiresAt).toBe(created.expiresAt);
    await advanceClock(sim, 5 * 60 + 1);
    expect((await client.getPayment(created.id)).status).toBe('expired');
    assertError(await client.confirmRaw(created.id, {}), 422, 'invalid_state');
  });

  it('a confirmed payment does not expire', async () => {
    await client.refreshToken();
    const created = await createMsi(600);
    parseOk(await client.confirmRaw(created.id, {}), paymentSchema, 200);
    await advanceClock(sim, FIFTEEN_MIN + 60);
    await client.refreshToken();
    const read = await client.getPayment(created.id);
    expect(read.status).toBe('succeeded');
    expect(read.expiresAt).toBeUndefined();
  });
});
