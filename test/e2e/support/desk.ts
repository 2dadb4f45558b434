// What every workspace test does first: operators created through main's directory, an agent signed in, a reservation opened.
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect } from '@playwright/test';
import type { AppHarness } from './harness';

export const AGENT = { id: 'ana', displayName: 'Ana Agent', password: 'agent password 1234' };

export async function signInAgent(page: Page, app: AppHarness): Promise<void> {
  if (app.stack.directory.needsFirstAdmin()) {
    await app.stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada Admin', password: 'a long password 42' });
    await app.stack.directory.createOperator('ada', { id: AGENT.id, displayName: AGENT.displayName, role: 'agent', password: AGENT.password });
  }
  await page.goto(app.url);
  await page.locator('#sign-in-id').fill(AGENT.id);
  await page.locator('#sign-in-password').fill(AGENT.password);
  await page.keyboard.press('Enter');
  await expect(page.locator('#lookup-input')).toBeFocused();
}

/** Types in the lookup and opens the first match with Enter, as an agent does. */
export async function openReservation(page: Page, query: string, guest: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.type(query);
  await expect(page.getByRole('button', { name: new RegExp(guest) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(guest) })).toBeVisible();
}

/** A future expiry as the agent types it (MMYY, the slash is inserted by the form). */
export function futureExpiry(): string {
  return `12${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
}

/** Keys a card the way an agent does: number, expiry, CVC — the form moves on by itself when a field is complete. */
export async function keyCard(page: Page, number: string, cvc = '123'): Promise<void> {
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type(number);
  await expect(page.getByLabel('Expiry (MM/YY)')).toBeFocused();
  await page.keyboard.type(futureExpiry());
  await expect(page.getByLabel('Security code (CVV)')).toBeFocused();
  await page.keyboard.type(cvc);
}

/** No axe violations on what is on screen now (WCAG 2.1 A and AA rules). */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(
    results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    `axe on ${screen}`,
  ).toEqual([]);
}

/** The simulator's control endpoint (simulator.md): move its clock forward. */
export async function advanceSimulatorClock(app: AppHarness, seconds: number): Promise<void> {
  const response = await fetch(`${app.controlUrl}/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  expect(response.ok).toBe(true);
}
