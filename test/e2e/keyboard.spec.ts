// Keyboard and screen (issue 14, item 6), end to end in Chromium over the real main stack: type-ahead after opening a
// reservation lands in the card number, Enter works in every form (after a service error, in the MSI amount update),
// and focus moves to each new panel (plans, 3DS panel, result, errors).
import type { Page } from '@playwright/test';
import { MAX_ATTEMPTS } from '../../main/payments/client';
import { expectAccessible, futureExpiry, keyCard, openReservation, signInAgent, simulatorFault } from './support/desk';
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

test('type-ahead: digits typed right after Enter on a lookup result land in the card number, not the search box', async ({ page, app }) => {
  await signInAgent(page, app);
  await openAndTypeAhead(page, 'CUN-6B3D8F', `4242424242424242${futureExpiry()}123`);
  await expect(page.locator('#lookup-input')).toHaveValue('CUN-6B3D8F');
  await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue(`${futureExpiry().slice(0, 2)}/${futureExpiry().slice(2)}`);
  await expect(page.getByLabel('Security code (CVV)')).toHaveValue('123');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
});
});
