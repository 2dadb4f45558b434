// End-to-end: the 3DS link's delivery on the 3DS panel. The real main stack sends a training
// payment's link through a Twilio-shaped server on this computer (Twilio is third-party SaaS: it cannot run here; the
// server checks every request against Twilio's published request shapes and answers like Twilio), and the panel shows
// what main learns by following the message: delivered, or failed with the next step.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, startHarness, test as harnessTest, type AppHarness } from './support/harness';
import { expectAccessible, keyCard, openReservation, pageSender, signInAgent } from './support/desk';
import { ACCOUNT_SID, AUTH_TOKEN, startTwilio, type TwilioServer } from '../main/messaging/twilio-server';

/** Emily O'Connor's reservation: the panel is prefilled with her mobile. */
const RESERVATION = 'SJD-3B7N1C';
const GUEST = "Emily O'Connor";
const PHONE = '+14155550143';

const test = harnessTest.extend<{ twilio: TwilioServer }>({
  // eslint-disable-next-line no-empty-pattern
  twilio: async ({}, use) => {
    const server = await startTwilio();
    await use(server);
    await server.close();
  },
  app: async ({ page, twilio, language, processingDelayMs, idleTimeoutMs }, use) => {
    const harness = await startHarness(page, {
      language,
      processingDelayMs,
      idleTimeoutMs,
      messaging: {
        config: {
          providers: { sms: 'twilio', whatsapp: 'twilio' },
          twilio: {
            accountSid: ACCOUNT_SID,
            baseUrl: twilio.origin,
            smsFrom: '+15017122661',
            whatsappFrom: '+14155238886',
            whatsappContentSids: { 'es-MX': `HX${'11'.repeat(16)}`, 'en-US': `HX${'22'.repeat(16)}` },
          },
        },
        secrets: { read: (name) => Promise.resolve(name === 'twilioAuthToken' ? AUTH_TOKEN : undefined) },
      },
    });
    try {
      await use(harness);
    } finally {
      await harness.stop();
    }
  },
});

/** The panel as the agent sees it, next to the other screens' captures (test-results/screenshots/en-US/). */
async function capture(page: Parameters<typeof signInAgent>[0], name: string): Promise<void> {
  const dir = path.join('test-results', 'screenshots', 'en-US');
  mkdirSync(dir, { recursive: true });
  await page.locator('form.subpanel').screenshot({ path: path.join(dir, `${name}.png`) });
}

async function threeDsPanel(page: Parameters<typeof signInAgent>[0], app: AppHarness): Promise<void> {
  await signInAgent(page, app);
  await openReservation(page, RESERVATION, GUEST);
  await keyCard(page, '4000000000003220');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Send the verification link to the guest' })).toBeVisible();
  await expect(page.getByLabel('Guest phone (with country code)')).toHaveValue(PHONE);
}

test('the panel follows the SMS until the guest’s phone confirms it: queued → sent → delivered', async ({
  page,
  app,
  twilio,
}) => {
  await threeDsPanel(page, app);
  await page.getByRole('button', { name: 'Send link' }).click();
  const delivery = page.locator('.deliveries > li').first();
  // First what Twilio answered, then what main learns by following the message.
  await expect(delivery).toContainText(/Queued for \+1 \*+0143|Sent to \+1 \*+0143|Delivered to \+1 \*+0143/);
  await expect(delivery).toContainText(/^Delivered to \+1 \*+0143 on /, { timeout: 15_000 });
  await expect(delivery.getByRole('list', { name: 'Delivery' }).getByRole('listitem')).toHaveText([
    'Queued',
    'Sent',
    'Delivered',
  ]);
  await expect(delivery.locator('[aria-current="step"]')).toHaveText('Delivered');
  await expectAccessible(page, '3DS panel, link delivered');
  await capture(page, '3ds-link-delivered');

  // Twilio got one well-formed message, valid only as long as the link, and was asked about it until final.
  expect(twilio.violations).toEqual([]);
  expect(twilio.messages).toHaveLength(1);
  expect(twilio.messages[0]).toMatchObject({ to: PHONE, encoding: 'GSM-7' });
  expect(Number(twilio.messages[0]?.form.ValidityPeriod)).toBeGreaterThan(14 * 60);
  expect(Number(twilio.messages[0]?.form.ValidityPeriod)).toBeLessThanOrEqual(15 * 60);
  expect(twilio.sequence()).toEqual(['create', 'fetch', 'fetch']);

  // The delivery audit has each status.
  const overview = await app.stack.dispatch('reservations:overview', pageSender(app), { reservationId: RESERVATION });
  const paymentId = overview.ok ? (overview.value as { payments: { id: string }[] }).payments[0]?.id : undefined;
  const history = await app.stack.dispatch('messaging:history', pageSender(app), { paymentId });
  expect(history.ok).toBe(true);
  const [row] = history.ok
    ? (history.value as { deliveries: { status: string; events: { status: string }[] }[] }).deliveries
    : [];
  expect(row?.status).toBe('delivered');
  expect(row?.events.map((event) => event.status)).toEqual(['sending', 'queued', 'sent', 'delivered']);
});

test('a failed delivery says why and suggests another channel; WhatsApp then goes as the approved template', async ({
  page,
  app,
  twilio,
}) => {
  twilio.script(PHONE, { kind: 'fail', errorCode: 30003 });
  await threeDsPanel(page, app);
  await page.getByRole('button', { name: 'Send link' }).click();
  const delivery = page.locator('.deliveries > li').first();
  await expect(delivery).toContainText('Not delivered to +1 ******0143.', { timeout: 15_000 });
  await expect(delivery).toContainText(
    'For the guest: The guest’s phone could not be reached (switched off or out of coverage). Use another channel, such as e-mail',
  );
  await expectAccessible(page, '3DS panel, link not delivered');
  await capture(page, '3ds-link-not-delivered');

  // The agent switches to WhatsApp, which reaches the guest: sent at once (the SMS failed, so nothing is left
  // unanswered), as the approved template.
  twilio.script(PHONE, { kind: 'deliver' });
  await page.getByRole('radio', { name: 'WhatsApp' }).check();
  await page.getByRole('button', { name: 'Send again' }).click();
  await expect(page.locator('.deliveries > li').first()).toContainText(/^Delivered to \+1 \*+0143/, {
    timeout: 15_000,
  });
  expect(
    twilio.messages.map((message) => [message.to, message.form.ContentSid ?? null, message.form.Body ?? null]),
  ).toEqual([
    [PHONE, null, expect.stringContaining('confirm it with your bank at this link: http://127.0.0.1:')],
    [`whatsapp:${PHONE}`, `HX${'22'.repeat(16)}`, null],
  ]);
  expect(twilio.violations).toEqual([]);
});

test('a re-send within a minute of an unconfirmed link asks first; only "Send another" sends it', async ({
  page,
  app,
  twilio,
}) => {
  twilio.script(PHONE, { kind: 'deliver', receipt: false });
  await threeDsPanel(page, app);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.locator('.deliveries > li').first()).toContainText(
    /Sent to \+1 \*+0143 on .*: waiting for the phone to confirm it\./,
    { timeout: 15_000 },
  );
  await page.getByRole('button', { name: 'Send again' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'The last link has no answer yet' });
  await expect(confirm).toContainText(/A link went to \+1 \*+0143 \d+ seconds ago/);
  await expect(confirm.getByRole('button', { name: 'Wait' })).toBeFocused();
  await expectAccessible(page, '3DS panel, re-send confirmation');
  await capture(page, '3ds-link-confirm-resend');
  expect(twilio.messages).toHaveLength(1);
  await confirm.getByRole('button', { name: 'Wait' }).click();
  await expect(confirm).toHaveCount(0);
  expect(twilio.messages).toHaveLength(1);

  await page.getByRole('button', { name: 'Send again' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Send another' }).click();
  await expect(page.locator('.deliveries > li')).toHaveCount(2);
  expect(twilio.messages).toHaveLength(2);
});
