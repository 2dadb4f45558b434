// Tenant isolation (interface-decisions §1: each client id is a tenant; 404 not_found as if it did not exist).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import {
  ApiClient,
  CARDS,
  advanceClock,
  assertError,
  newTenant,
  parseOk,
  paymentSchema,
  registerClient,
  type Payment,
} from './support';

let sim: RunningSimulator;
let alice: ApiClient;
let bob: ApiClient;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, processingDelayMs: 1000 });
  alice = await newTenant(sim);
  bob = await newTenant(sim);
});

afterAll(async () => {
  await sim.close();
});

describe('POST {controlUrl}/clients', () => {
  it('registers distinct tenants with distinct credentials', async () => {
    const a = await registerClient(sim);
    const b = await registerClient(sim);
    expect(a.clientId).not.toBe(b.clientId);
    expect(a.clientSecret).not.toBe(b.clientSecret);
    expect(a.clientId).not.toBe(sim.clientId);
  });

  it("one tenant's secret does not work with another's id", async () => {
    const a = await registerClient(sim);
    const b = await registerClient(sim);
    const res = await new ApiClient(sim, { clientId: a.clientId, clientSecret: b.clientSecret }).requestToken();
    expect(res.status).toBe(401);
  });
});

describe('isolation', () => {
  let alicePayment: Payment;
  let aliceMethodId: string;

  beforeAll(async () => {
    aliceMethodId = (await alice.tokenize(CARDS.visa)).id;
    alicePayment = await alice.createPayment(aliceMethodId, { amount: 80 });
    await advanceClock(sim, 2);
  });

  it('another tenant cannot read a payment: 404 not_found, same as an unknown id', async () => {
    expect((await alice.getPayment(alicePayment.id)).status).toBe('succeeded');
    const res = await bob.getPaymentRaw(alicePayment.id);
    assertError(res, 404, 'not_found');
    expect(res.text).not.toContain(aliceMethodId);
  });

  it('another tenant cannot charge a method: 404 not_found, param methodId', async () => {
    const res = await bob.createPaymentRaw({
      methodId: aliceMethodId,
      amount: 10,
      currency: 'usd',
      reservationId: 'R',
    });
    assertError(res, 404, 'not_found', { param: 'methodId' });
  });

  it('another tenant cannot refund, PATCH or confirm a payment: 404 not_found', async () => {
    assertError(await bob.refundRaw(alicePayment.id, { reason: 'fraudulent' }), 404, 'not_found');
    assertError(await bob.patchPaymentRaw(alicePayment.id, { amount: 1 }), 404, 'not_found');
    assertError(await bob.confirmRaw(alicePayment.id, {}), 404, 'not_found');
    // Alice's payment is untouched
    const read = await alice.getPayment(alicePayment.id);
    expect(read.refunds ?? []).toEqual([]);
    expect(read.amount).toBe(80);
  });

  it('another tenant cannot PATCH/confirm a pending MSI payment', async () => {
    const msi = await alice.tokenize(CARDS.msi);
    const p = await alice.createPayment(msi.id, { amount: 1200, currency: 'mxn', installments: { required: true } });
    assertError(await bob.patchPaymentRaw(p.id, { amount: 300 }), 404, 'not_found');
    assertError(await bob.confirmRaw(p.id, { installments: { count: 3 } }), 404, 'not_found');
    const read = await alice.getPayment(p.id);
    expect(read.status).toBe('pending_confirmation');
    expect(read.amount).toBe(1200);
  });

  it('the printed tenant is isolated from registered tenants too', async () => {
    const printed = new ApiClient(sim);
    assertError(await printed.getPaymentRaw(alicePayment.id), 404, 'not_found');
    const own = await printed.payWith(CARDS.visa);
    assertError(await alice.getPaymentRaw(own.id), 404, 'not_found');
    parseOk(await printed.getPaymentRaw(own.id), paymentSchema, 200);
  });
});
