// The 3DS challenge page over HTTP (spec §1 rule 2; interface-decisions §6, §7, §10; README 3DS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../main/sandbox';
import { ApiClient, CARDS, advanceClock, assertError, http, newTenant, type HttpResult, type Payment } from './support';

const PROCESSING_DELAY_MS = 2000;
let sim: RunningSimulator;
let client: ApiClient;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, processingDelayMs: PROCESSING_DELAY_MS });
  client = await newTenant(sim);
});

afterAll(async () => {
  await sim.close();
});

async function threeDsPayment(extra: Record<string, unknown> = {}): Promise<{ payment: Payment; url: string }> {
  const payment = await client.payWith(CARDS.threeDS, extra);
  expect(payment.status).toBe('requires_action');
  expect(payment.nextAction?.type).toBe('three_d_secure');
  const url = payment.nextAction?.url;
  if (url === undefined) throw new Error('no nextAction.url');
  return { payment, url };
}

/** The cardholder's browser: no Authorization header, no X-Request-Id. */
function openPage(url: string): Promise<HttpResult> {
  return http({ method: 'GET', url, headers: { accept: 'text/html' } });
}

function answer(url: string, outcome: string): Promise<HttpResult> {
  return http({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
  });
}

describe('GET nextAction.url', () => {
  it('is an absolute URL serving an HTML page with Approve and Decline, without an access token', async () => {
    const { url } = await threeDsPayment();
    expect(() => new URL(url)).not.toThrow();
    const res = await openPage(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/text\/html/);
    expect(res.text).toMatch(/Approve/);
    expect(res.text).toMatch(/Decline/);
    expect(res.text).toMatch(/<form/i);
    expect(res.text).toMatch(/name=["']?outcome/);
    expect(res.text).toMatch(/value=["']?approve/);
    expect(res.text).toMatch(/value=["']?decline/);
    // no card data on the cardholder's page
    expect(res.text).not.toContain(CARDS.threeDS.number);
  });

  it('each payment gets its own unguessable link', async () => {
    const a = await threeDsPayment();
    const b = await threeDsPayment();
    expect(a.url).not.toBe(b.url);
    expect(a.url).not.toContain(a.payment.id);
  });

  it('opening the page does not use it up', async () => {
    const { url } = await threeDsPayment();
    expect((await openPage(url)).status).toBe(200);
    expect((await openPage(url)).status).toBe(200);
    expect((await answer(url, 'approve')).status).toBe(200);
  });

  it('an unknown link → 404', async () => {
    const { url } = await threeDsPayment();
    const unknown = new URL(url);
    unknown.pathname = unknown.pathname.replace(/[^/]+$/, 'definitely-not-a-token');
    expect((await openPage(unknown.toString())).status).toBe(404);
    expect((await answer(unknown.toString(), 'approve')).status).toBe(404);
  });
});

describe('POST nextAction.url', () => {
  it('approve → processing → succeeded after the processing delay', async () => {
    const { payment, url } = await threeDsPayment({ amount: 321 });
    const res = await answer(url, 'approve');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/text\/html/);

    const after = await client.getPayment(payment.id);
    expect(after.status).toBe('processing');
    await advanceClock(sim, Math.ceil(PROCESSING_DELAY_MS / 1000) + 1);
    const done = await client.getPayment(payment.id);
    expect(done.status).toBe('succeeded');
    expect(done.amount).toBe(321);
    expect(done.failure).toBeUndefined();
  });

  it('decline → failed with failure.code authentication_failed', async () => {
    const { payment, url } = await threeDsPayment();
    expect((await answer(url, 'decline')).status).toBe(200);
    const done = await client.getPayment(payment.id);
    expect(done.status).toBe('failed');
    expect(done.failure?.code).toBe('authentication_failed');
    expect(done.failure?.message ?? '').not.toBe('');
    await advanceClock(sim, 5);
    expect((await client.getPayment(payment.id)).status).toBe('failed');
  });

  it('single use: a second answer and a second visit → 410; the outcome stands', async () => {
    const { payment, url } = await threeDsPayment();
    expect((await answer(url, 'approve')).status).toBe(200);
    expect((await answer(url, 'decline')).status).toBe(410);
    expect((await answer(url, 'approve')).status).toBe(410);
    expect((await openPage(url)).status).toBe(410);
    await advanceClock(sim, 3);
    expect((await client.getPayment(payment.id)).status).toBe('succeeded');
  });

  it('with a returnUrl the answer is a 303 to the returnUrl', async () => {
    const returnUrl = 'https://partner.example/after-3ds?booking=42';
    const { url } = await threeDsPayment({ returnUrl });
    const res = await answer(url, 'approve');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(returnUrl);
  });

  it('a garbage outcome is a 4xx and does not use the link up', async () => {
    const { payment, url } = await threeDsPayment();
    const res = await answer(url, 'maybe');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await client.getPayment(payment.id)).status).toBe('requires_action');
    expect((await answer(url, 'decline')).status).toBe(200);
  });

  it('PATCH / confirmation while requires_action → 422 invalid_state', async () => {
    const { payment } = await threeDsPayment();
    assertError(await client.patchPaymentRaw(payment.id, { amount: 5 }), 422, 'invalid_state');
    assertError(await client.confirmRaw(payment.id, {}), 422, 'invalid_state');
  });
});

describe('15-minute expiry of requires_action', () => {
  it('still open at 14:55, expired after 15 minutes; the link then answers 410', async () => {
    const { payment, url } = await threeDsPayment();
    await advanceClock(sim, 15 * 60 - 5);
    expect((await client.getPayment(payment.id)).status).toBe('requires_action');
    expect((await openPage(url)).status).toBe(200);
    await advanceClock(sim, 10);
    const expired = await client.getPayment(payment.id);
    expect(expired.status).toBe('expired');
    expect((await openPage(url)).status).toBe(410);
    expect((await answer(url, 'approve')).status).toBe(410);
    expect((await client.getPayment(payment.id)).status).toBe('expired');
    await client.refreshToken();
  });

  it('an approval after 15 minutes without any read in between is refused (lazy time)', async () => {
    await client.refreshToken();
    const { payment, url } = await threeDsPayment();
    await advanceClock(sim, 15 * 60 + 1);
    expect((await answer(url, 'approve')).status).toBe(410);
    await client.refreshToken();
    expect((await client.getPayment(payment.id)).status).toBe('expired');
  });
});
