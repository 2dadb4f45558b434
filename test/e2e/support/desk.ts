// What every workspace test does first: operators created through main's directory, an agent signed in, a reservation opened.
import type { Locator, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from '@playwright/test';
import type { AppHarness } from './harness';
import { asAdmin } from '../../support/operators';
import { simulatorControl, type SimulatorFault } from '../../support/simulator';

export const AGENT = { id: 'ana', displayName: 'Ana Agent', password: 'agent password 1234' };
export const SUPERVISOR = { id: 'sam', displayName: 'Sam Supervisor', password: 'supervisor password 1234' };
export const ADMIN = { id: 'ada', displayName: 'Ada Admin', password: 'a long password 42' };
const OPERATORS = { agent: AGENT, supervisor: SUPERVISOR, admin: ADMIN } as const;
export type Who = keyof typeof OPERATORS;

/** The sender the app's own page would be, for calls a test makes straight to main's door. */
export const pageSender = (app: AppHarness) => ({ url: app.url, isMainFrame: true, webContentsId: 1 });

/** The first admin, the agent 'ana' and the supervisor 'sam', created through main's directory (once per app). */
export async function ensureOperators(app: AppHarness): Promise<void> {
  if (!(await app.stack.directory.needsFirstAdmin())) return;
  await app.stack.directory.createFirstAdmin(ADMIN);
  // Through a session of the admin at this desk, as from the screen (on a center, the only way it is accepted).
  await asAdmin(app.stack.directory, ADMIN, async () => {
    await app.stack.directory.createOperator(ADMIN.id, { ...AGENT, role: 'agent' });
    await app.stack.directory.createOperator(ADMIN.id, { ...SUPERVISOR, role: 'supervisor' });
  });
}

/** Signs in as the agent, the supervisor or the admin (whoever was signed in is signed out first). */
export async function signIn(page: Page, app: AppHarness, who: Who): Promise<void> {
  await ensureOperators(app);
  await app.stack.dispatch('session:signOut', pageSender(app), {});
  const operator = OPERATORS[who];
  await page.goto(app.url);
  await page.locator('#sign-in-id').fill(operator.id);
  await page.locator('#sign-in-password').fill(operator.password);
  await page.keyboard.press('Enter');
  await expect(page.locator('#lookup-input')).toBeVisible();
}

export async function signInAgent(page: Page, app: AppHarness): Promise<void> {
  await ensureOperators(app);
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
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
    `axe on ${screen}`,
  ).toEqual([]);
}

/** The simulator's control endpoint (simulator.md): move its clock forward. */
export async function advanceSimulatorClock(app: AppHarness, seconds: number): Promise<void> {
  await simulatorControl(app.controlUrl).advanceClock(seconds);
}

/** The agent takes a payment in full on a reservation with the card that succeeds; returns the payment's id. */
export async function payInFull(page: Page, query: string, guest: string): Promise<string> {
  await openReservation(page, query, guest);
  await keyCard(page, '4242424242424242');
  await page.keyboard.press('Enter');
  const result = page.getByRole('region', { name: 'Payment approved' });
  await expect(result).toBeVisible();
  const id = /pay_[a-f0-9]{32}/.exec((await result.textContent()) ?? '')?.[0];
  expect(id).toBeDefined();
  await result.getByRole('button', { name: 'Done — new payment' }).click();
  return id ?? '';
}

/** The 3DS link main holds for a reservation's payment (read from its journal: the renderer never gets it). */
export function journalChallengeLink(app: AppHarness, reservationId: string): string | undefined {
  const db = new Database(join(app.dataDir, 'journal.db'), { readonly: true });
  try {
    const row = db
      .prepare('SELECT next_action_url AS link FROM payments WHERE reservation_id = ? AND next_action_url IS NOT NULL')
      .get(reservationId) as { link: string } | undefined;
    return row?.link;
  } finally {
    db.close();
  }
}

/** Every Idempotency-Key main ever sent on POST /payments (its journal's record of each request). */
export function journalPaymentKeys(app: AppHarness): string[] {
  const db = new Database(join(app.dataDir, 'journal.db'), { readonly: true });
  try {
    return (
      db.prepare(`SELECT DISTINCT idempotency_key AS key FROM attempts WHERE operation = 'POST /payments'`).all() as {
        key: string;
      }[]
    ).map((r) => r.key);
  } finally {
    db.close();
  }
}

/** The simulator's control endpoint (simulator.md): the next `count` requests of an operation get a fault. */
export async function simulatorFault(
  app: AppHarness,
  operation: string,
  fault: SimulatorFault,
  count: number,
): Promise<void> {
  await simulatorControl(app.controlUrl).fault(operation, fault, count);
}

/** Opens a section of the supervisor's or admin's desk by its tab. */
export async function openSection(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** An agent's laptop: what must stay in view is checked in this window. */
export const SCREEN = { width: 1366, height: 768 } as const;

/**
 * The element's whole box is inside the window (not above it, not below the fold), once the screen has settled: a row
 * added above a panel moves it down for a frame, until the panel brings its control back into view.
 */
export async function expectInView(page: Page, locator: Locator, what: string): Promise<void> {
  await expect(locator, what).toBeVisible();
  await expect(async () => {
    const box = await locator.boundingBox();
    expect(box, `${what}: on screen`).not.toBeNull();
    if (box === null) return;
    const viewport = page.viewportSize() ?? SCREEN;
    expect(box.y, `${what}: top edge in view`).toBeGreaterThanOrEqual(0);
    expect(
      box.y + box.height,
      `${what}: bottom edge in view (${Math.round(box.y + box.height)} px)`,
    ).toBeLessThanOrEqual(viewport.height);
    expect(box.x, `${what}: left edge in view`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${what}: right edge in view`).toBeLessThanOrEqual(viewport.width);
  }).toPass({ timeout: 5_000 });
}
