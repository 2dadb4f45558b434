// Keyboard and screen, end to end in Chromium over the real main stack: type-ahead after opening a
// reservation lands in the card number, Enter works in every form (after a service error, in the MSI amount update),
// and focus moves to each new panel (plans, 3DS panel, result, errors).
import type { Page } from '@playwright/test';
import { MAX_ATTEMPTS } from '../../main/payments/client';
import {
  expectAccessible,
  futureExpiry,
  journalPaymentKeys,
  keyCard,
  openReservation,
  signInAgent,
  simulatorFault,
} from './support/desk';
import { expect, test } from './support/harness';

/** Opens a reservation with Enter and types the card at once, without waiting for anything on screen. */
async function openAndTypeAhead(page: Page, query: string, typed: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.type(query);
  await expect(page.getByRole('button', { name: new RegExp(query) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.type(typed);
}

test.describe('on a busy desk (every answer of main 300 ms late)', () => {
  test.use({ doorDelayMs: 300 });

  test('type-ahead: digits typed right after Enter on a lookup result land in the card number, not the search box', async ({
    page,
    app,
  }) => {
    await signInAgent(page, app);
    await openAndTypeAhead(page, 'CUN-6B3D8F', `4242424242424242${futureExpiry()}123`);
    await expect(page.locator('#lookup-input')).toHaveValue('CUN-6B3D8F');
    await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
    await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue(
      `${futureExpiry().slice(0, 2)}/${futureExpiry().slice(2)}`,
    );
    await expect(page.getByLabel('Security code (CVV)')).toHaveValue('123');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  });
});

test('Enter after a service error: "Check again" takes the focus, and Enter checks again until the one payment is answered', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
  // Every try of the charge gets a 503 (main tries MAX_ATTEMPTS times) and the first Check again too; then the service is back.
  await simulatorFault(app, 'POST /payments', 'error_503', MAX_ATTEMPTS * 2);
  await keyCard(page, '4242424242424242');
  await page.keyboard.press('Enter');
  const pending = page.getByRole('region', { name: 'A payment without an answer' });
  await expect(pending).toBeVisible({ timeout: 20_000 });
  const checkAgain = pending.getByRole('button', { name: 'Check again' });
  await expect(checkAgain).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(pending.getByRole('status')).toContainText('Still no answer for the payment of $980.00 USD', {
    timeout: 20_000,
  });
  // Still there after the failed check: Enter again.
  await expect(checkAgain).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible({ timeout: 20_000 });
  // One payment, one key, however many Enters.
  expect(journalPaymentKeys(app)).toHaveLength(1);
});

test('MSI from the keyboard: the plans take the focus, Enter in the amount updates it, Enter on a plan goes to Confirm', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'CUN-7F3K2A', 'Sofía Núñez Ortega');
  await page.getByLabel('Pay in monthly installments without interest (MSI)').check();
  await page.getByLabel('Card number').focus();
  await keyCard(page, '4000004840000008');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Monthly installments (MSI)' })).toBeVisible({ timeout: 20_000 });
  // The plans replaced the card form: the focus is on the first choice, not lost on the page.
  await expect(page.getByRole('radio').first()).toBeFocused();
  await expect(page.getByRole('button', { name: 'Confirm payment' })).toBeInViewport();

  const amount = page.getByLabel('Change the amount');
  await amount.fill('1000');
  await amount.press('Enter');
  await expect(page.getByText('was $12,450.00')).toBeVisible();
  await expect(page.getByLabel(/^3 months of \$333\.33/)).toBeVisible();
  // From the keyboard: to the plan, Space chooses it, Enter goes to "Confirm payment" (a radio confirms nothing), Enter confirms.
  await page.getByLabel(/^3 months of \$333\.33/).focus();
  await page.keyboard.press('Space');
  await expect(page.getByLabel(/^3 months of \$333\.33/)).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Confirm payment' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Payment approved' })).toContainText('3 months of $333.33');
  await expect(page.getByRole('button', { name: 'Done — new payment' })).toBeFocused();
});

test('3-D Secure: the link panel takes the focus where the link is sent, and Enter sends it', async ({ page, app }) => {
  await signInAgent(page, app);
  await openReservation(page, 'SJD-4X6Y9Z', 'Chloé Dubois-Smith');
  await keyCard(page, '4000000000003220');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Send the verification link to the guest' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByLabel('Guest phone (with country code)')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Send link' })).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('.deliveries > li').first()).toContainText(/Training/);
  await expectAccessible(page, '3DS panel after Enter');
});
