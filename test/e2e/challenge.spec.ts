// End-to-end: the cardholder's 3DS challenge page in Chromium against an in-process simulator
// (interface-decisions §7, §10; README 3DS).
import { expect, test, type Page, type Response } from '@playwright/test';

import { launchSimulator, type RunningSimulator } from '../support/simulator';
import { ApiClient, CARDS, advanceClock, type Payment } from '../main/sandbox/support';

let sim: RunningSimulator;
let client: ApiClient;

test.beforeAll(async () => {
  sim = await launchSimulator({ port: 0, processingDelayMs: 2000 });
  client = new ApiClient(sim);
});

test.afterAll(async () => {
  await sim.close();
});

/** The response to the form's POST to the challenge URL. */
function posted(page: Page, url: string): Promise<Response> {
  return page.waitForResponse((r) => r.url() === url && r.request().method() === 'POST');
}

async function threeDsPayment(): Promise<{ payment: Payment; url: string }> {
  const payment = await client.payWith(CARDS.threeDS, { amount: 150 });
  expect(payment.status).toBe('requires_action');
  const url = payment.nextAction?.url;
  if (url === undefined) throw new Error('no nextAction.url');
  return { payment, url };
}

test('the cardholder approves: processing, then succeeded; the link is then used', async ({ page }) => {
  const { payment, url } = await threeDsPayment();

  const opened = await page.goto(url);
  expect(opened?.status()).toBe(200);
  const approve = page.getByRole('button', { name: /approve/i });
  const decline = page.getByRole('button', { name: /decline/i });
  await expect(approve).toBeVisible();
  await expect(decline).toBeVisible();
  await expect(page.locator('body')).not.toContainText(CARDS.threeDS.number);

  const [answer] = await Promise.all([posted(page, url), approve.click()]);
  expect(answer.status()).toBe(200);
  await page.waitForLoadState('load');
  await expect(approve).toHaveCount(0);

  const after = await client.getPayment(payment.id);
  expect(after.status).toBe('processing');
  await advanceClock(sim, 3);
  expect((await client.getPayment(payment.id)).status).toBe('succeeded');

  // a second visit to the used link
  const again = await page.goto(url);
  expect(again?.status()).toBe(410);
  await expect(page.getByRole('button', { name: /approve/i })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /decline/i })).toHaveCount(0);
  expect((await client.getPayment(payment.id)).status).toBe('succeeded');
});

test('the cardholder declines: failed with authentication_failed; the link is then used', async ({ page }) => {
  const { payment, url } = await threeDsPayment();

  await page.goto(url);
  const decline = page.getByRole('button', { name: /decline/i });
  await expect(decline).toBeVisible();
  const [answer] = await Promise.all([posted(page, url), decline.click()]);
  expect(answer.status()).toBe(200);
  await page.waitForLoadState('load');
  await expect(decline).toHaveCount(0);

  const done = await client.getPayment(payment.id);
  expect(done.status).toBe('failed');
  expect(done.failure?.code).toBe('authentication_failed');

  const again = await page.goto(url);
  expect(again?.status()).toBe(410);
  await expect(page.getByRole('button', { name: /approve/i })).toHaveCount(0);
  expect((await client.getPayment(payment.id)).status).toBe('failed');
});
