// The agent's workspace end to end, through the harness (real IPC door, engine, journal, simulator): flows A–D,
// 3DS approve and decline, each decline code in the form, MSI expiry, the idle lock wiping the card form, axe.
import { expect, test } from './support/harness';
import type { Page } from '@playwright/test';
import type { AppHarness } from './support/harness';
import {
  advanceSimulatorClock,
  expectAccessible,
  journalChallengeLink,
  journalPaymentKeys,
  keyCard,
  openReservation,
  signInAgent,
  simulatorFault,
} from './support/desk';

/** An agent asks for MSI and charges the simulator's Mexican credit card: the payment waits for a plan. */
async function startMsiPayment(page: Page, app: AppHarness, query: string, guest: string): Promise<void> {
  await signInAgent(page, app);
  await openReservation(page, query, guest);
  await page.getByLabel('Pay in monthly installments without interest (MSI)').check();
  await page.getByLabel('Card number').focus();
  await keyCard(page, '4000004840000008');
  await page.keyboard.press('Enter');
}

test('flow A from the keyboard: lookup, card, result — content protection on while the card is on screen', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await expectAccessible(page, 'workspace, empty');
  await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
  await expect(page.getByLabel('Amount', { exact: true })).toHaveValue('980.00');
  await expectAccessible(page, 'reservation with the card form');

  await keyCard(page, '4242424242424242');
  expect(app.protection).toContain(true);
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  const result = page.getByRole('region', { name: 'Payment approved' });
  await expect(result).toContainText('$980.00');
  await expect(result).toContainText('Visa •••• 4242');
  await expect(result).toContainText(/pay_[a-f0-9]{32}/);
  await expectAccessible(page, 'result');
  // The card form is gone: protection was switched off again, and no card number is anywhere in the page.
  expect(app.protection.at(-1)).toBe(false);
  expect(await page.content()).not.toContain('4242424242424242');
  expect(await page.content()).not.toContain('4242 4242 4242 4242');
  // The reservation's payments list shows it as paid.
  await expect(page.getByRole('table').getByText('Paid')).toBeVisible();
});

for (const [code, number, message] of [
  ['card_declined', '4000000000000002', 'The card was declined by the issuing bank'],
  ['insufficient_funds', '4000000000009995', 'insufficient funds'],
  ['expired_card', '4000000000000069', 'reports the card as expired'],
  ['incorrect_cvc', '4000000000000127', 'security code (CVV) is incorrect'],
] as const) {
  test(`a decline (${code}) is shown inside a fresh card form, and another card can be charged`, async ({
    page,
    app,
  }) => {
    await signInAgent(page, app);
    await openReservation(page, 'SJD-4X6Y9Z', 'Chloé Dubois-Smith');
    await keyCard(page, number);
    await page.keyboard.press('Enter');
    const form = page.locator('form').filter({ has: page.getByLabel('Card number') });
    await expect(form.getByRole('alert')).toContainText(message);
    await expect(page.getByLabel('Card number')).toHaveValue('');
    await keyCard(page, '5555555555554444');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Payment approved' })).toContainText('Mastercard •••• 4444');
  });
}

test('flow B, MSI: the plans for the amount with their monthly amounts, then 6 months confirmed', async ({
  page,
  app,
}) => {
  await startMsiPayment(page, app, 'CUN-7F3K2A', 'Sofía Núñez Ortega');

  await expect(page.getByRole('heading', { name: 'Monthly installments (MSI)' })).toBeVisible();
  for (const [count, each] of [
    [3, '$4,150.00'],
    [6, '$2,075.00'],
    [12, '$1,037.50'],
    [24, '$518.75'],
  ] as const) {
    await expect(page.getByLabel(new RegExp(`^${count} months of \\${each}`))).toBeVisible();
  }
  await expect(page.getByRole('timer')).toContainText(/Confirm within 1[45]:\d\d/);
  // While the plan is chosen, the call's header says the amount is being charged, not "still owed $0.00".
  await expect(page.getByRole('group', { name: 'The call' })).toContainText('Being charged now: $12,450.00');
  await expect(page.getByRole('group', { name: 'The call' })).toContainText('Still owed after it: $0.00');
  await expectAccessible(page, 'MSI plans');
  await page.getByLabel(/^6 months of/).check();
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Payment approved' })).toContainText('6 months of $2,075.00');
});

test('flow C, amount update: the plans are recomputed and the original amount shown', async ({ page, app }) => {
  await startMsiPayment(page, app, 'CUN-7F3K2A', 'Sofía Núñez Ortega');
  await expect(page.getByLabel(/^24 months of/)).toBeVisible();

  await page.getByLabel('Change the amount').fill('1000');
  await page.getByRole('button', { name: 'Update amount' }).click();
  await expect(page.getByText('was $12,450.00')).toBeVisible();
  await expect(page.getByLabel(/^9 months of \$111\.11/)).toBeVisible();
  await expect(page.getByLabel(/^12 months of/)).toHaveCount(0);
  await page.getByLabel(/^3 months of \$333\.33/).check();
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page.getByRole('region', { name: 'Payment approved' })).toContainText('3 months of $333.33');
});

test('MSI expiry: a payment not confirmed within 15 minutes (simulator clock) cannot be confirmed and says so', async ({
  page,
  app,
}) => {
  await startMsiPayment(page, app, 'MEX-2H8R5T', 'José Ángel Muñoz Pérez');
  await expect(page.getByRole('heading', { name: 'Monthly installments (MSI)' })).toBeVisible();
  await advanceSimulatorClock(app, 16 * 60);
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page.getByRole('heading', { name: 'The payment expired' })).toBeVisible();
  await page.getByRole('button', { name: 'Start again' }).click();
  await expect(page.getByLabel('Card number')).toBeFocused();
});

test.describe('3DS approve', () => {
  // Only the service learns that the cardholder approved; main finds out at its next read of the payment. With the
  // spec's backoff (1, 2, 4, 8, 16, then every 30 s from the link's sending) that read can come 30 s after the approval,
  // and this test's time depended on where in the schedule the phone's answer fell. Main reads every 500 ms here
  // (MainStackOptions.pollScheduleMs, tests only); the schedule itself is tested in test/main/payments/poller.test.ts.
  test.use({ pollScheduleMs: [500] });

  test('the link goes to the guest by SMS (training outbox); the cardholder approves on their own device', async ({
    page,
    app,
    context,
  }) => {
    await signInAgent(page, app);
    await openReservation(page, 'SJD-3B7N1C', "Emily O'Connor");
    await keyCard(page, '4000000000003220');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Send the verification link to the guest' })).toBeVisible();
    // Prefilled from the reservation; the app shows no control that would open the link.
    await expect(page.getByLabel('Guest phone (with country code)')).toHaveValue('+14155550143');
    await expect(page.locator('a[href*="/challenge"], a[href*="3ds"]')).toHaveCount(0);
    await expectAccessible(page, '3DS panel');
    await page.getByLabel('Guest phone (with country code)').fill('12');
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect(page.getByLabel('Guest phone (with country code)')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Training: captured')).toHaveCount(0);
    await page.getByLabel('Guest phone (with country code)').fill('+1 415 555 0143');
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect(page.getByText(/Training: captured for \+1 \*+0143/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Training outbox' })).toContainText('your Visa card ending in 3220');

    // The link never crosses to the renderer: the payment says only that one waits to be sent.
    const overview = await app.stack.dispatch(
      'reservations:overview',
      { url: app.url, isMainFrame: true, webContentsId: 1 },
      { reservationId: 'SJD-3B7N1C' },
    );
    const crossed = overview.ok ? (overview.value as { payments: Record<string, unknown>[] }).payments[0] : undefined;
    expect(crossed).toMatchObject({ hasChallengeLink: true });
    expect(JSON.stringify(overview)).not.toContain('/challenge/');
    // The cardholder: the link main sent (from main's journal), opened on "their phone" (another page), answered there.
    const link = journalChallengeLink(app, 'SJD-3B7N1C');
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const phone = await context.newPage();
    await phone.goto(link ?? 'about:blank');
    await phone.getByRole('button', { name: /approve/i }).click();
    // The phone shows the bank's answer before it is put away. Closed while the form's answer was still arriving, Chromium
    // sometimes acknowledged the close and kept the page, and page.close() never returned (microsoft/playwright#42068,
    // #42366): about 1 in 10 here, and this test then ran out of time with the approval already on the desk's screen.
    await expect(phone.getByRole('heading', { name: 'Payment confirmed' })).toBeVisible();
    await phone.close();

    // Main learns of the approval at its next read of the payment: here every half second (see the describe).
    await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible({ timeout: 15_000 });
  });
});

test('3DS decline: the trainee plays the cardholder from the outbox and declines; the form shows why', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'SJD-8D2F6G', 'Michael Johnson');
  await keyCard(page, '4000000000003220');
  await page.keyboard.press('Enter');
  await page.getByRole('radio', { name: 'E-mail' }).check();
  await expect(page.getByLabel('Guest e-mail')).toHaveValue('michael.johnson@example.com');
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText(/Training: captured for m\*+@example\.com/)).toBeVisible();
  await page.getByRole('button', { name: 'Cardholder declines' }).click();
  const form = page.locator('form').filter({ has: page.getByLabel('Card number') });
  await expect(form.getByRole('alert')).toContainText('did not complete the bank’s verification', { timeout: 15_000 });
});

test('a payment whose answer is lost: the reservation shows it with Check again, no second charge is offered, and Check again finds the one payment', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
  // Every try of the charge reaches the service, which makes the payment, but no answer comes back (3 tries), and
  // the first Check again gets no answer either.
  await simulatorFault(app, 'POST /payments', 'drop_after_commit', 6);
  await keyCard(page, '4242424242424242');
  await page.keyboard.press('Enter');

  const pending = page.getByRole('region', { name: 'A payment without an answer' });
  await expect(pending).toBeVisible({ timeout: 15_000 });
  await expect(pending).toContainText(
    'The earlier payment of $980.00 USD has no answer yet; it is being checked — do not charge again.',
  );
  await expect(pending).toContainText('Visa •••• 4242');
  // No second charge is offered: no card form, no saved card to charge, no "Take a payment".
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Take a payment' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Charge / })).toHaveCount(0);
  await expectAccessible(page, 'payment without an answer');

  // Main keeps the attempt: closing and reopening the reservation shows it again, not a new card form.
  await page.getByRole('button', { name: 'Close reservation' }).click();
  await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
  await expect(pending).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveCount(0);

  await pending.getByRole('button', { name: 'Check again' }).click();
  await expect(pending.getByRole('status')).toContainText('Still no answer for the payment of $980.00 USD', {
    timeout: 15_000,
  });
  await pending.getByRole('button', { name: 'Check again' }).click();
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible({ timeout: 15_000 });

  const overview = await app.stack.dispatch(
    'reservations:overview',
    { url: app.url, isMainFrame: true, webContentsId: 1 },
    { reservationId: 'CUN-6B3D8F' },
  );
  expect(overview).toMatchObject({ ok: true, value: { pendingPayments: [] } });
  expect((overview.ok ? (overview.value as { payments: unknown[] }).payments : []).length).toBe(1);
  expect(journalPaymentKeys(app)).toHaveLength(1);
});

test('flow D: a saved card (kept with the guest’s consent) is charged without card details, after its amount and card are confirmed with Enter', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'CUN-5Z2A8B', 'Sarah Nguyen');
  await page.getByLabel('Amount', { exact: true }).fill('100');
  await page.getByLabel('Keep this card for later charges (the guest agrees)').check();
  await page.getByLabel('Card number').focus();
  await keyCard(page, '378282246310005', '1234');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await page.getByRole('button', { name: 'Done — new payment' }).click();
  await page.getByLabel('Amount', { exact: true }).fill('50');
  await expect(page.getByRole('heading', { name: 'Saved cards' })).toBeVisible();
  // No one-click charge — the amount and card are shown, and Enter once more charges.
  await page.getByRole('button', { name: 'Charge Amex •••• 0005' }).click();
  await expect(page.getByText('Charge $50.00 USD to Amex •••• 0005?')).toBeVisible();
  await expect(
    page.getByRole('group', { name: /Amex •••• 0005\?$/ }).getByRole('button', { name: 'Charge $50.00 USD' }),
  ).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Payment approved' })).toContainText('$50.00');
  await expect(page.getByRole('region', { name: 'Payment approved' })).toContainText('Amex •••• 0005');
});

test.describe('the idle lock', () => {
  test.use({ idleTimeoutMs: 2_500 });

  test('wipes the card form and every text typed for the payment: after signing in again only the call is kept', async ({
    page,
    app,
  }) => {
    await signInAgent(page, app);
    await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
    await page.getByLabel('Amount', { exact: true }).fill('250');
    await page.getByLabel('Note for the payment (optional)').fill('Deposit, room 12');
    await page.getByLabel('Card number').focus();
    await page.keyboard.type('4242424242424242');
    await expect(page.getByLabel('Card number')).not.toHaveValue('');
    await expect(page.getByRole('heading', { name: 'The desk was locked' })).toBeVisible({ timeout: 10_000 });
    expect(await page.content()).not.toMatch(/4242 ?4242/);
    expect(app.protection.at(-1)).toBe(false);
    await page.locator('#sign-in-id').fill('ana');
    await page.locator('#sign-in-password').fill('agent password 1234');
    await page.keyboard.press('Enter');
    // The same agent finds the call — the reservation — and nothing typed: the amount back to what is owed, an empty
    // note and an empty card form.
    await expect(page.getByRole('heading', { level: 2, name: /Zoë Anderson/ })).toBeVisible();
    await expect(page.getByLabel('Amount', { exact: true })).not.toHaveValue('250');
    await expect(page.getByLabel('Note for the payment (optional)')).toHaveValue('');
    await expect(page.getByLabel('Card number')).toHaveValue('');
    expect(await page.content()).not.toMatch(/4242 ?4242/);
  });
});
