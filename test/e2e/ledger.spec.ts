// The supervisor's and admin's desks read by a person, in Chromium at 1366×768, in Spanish and in English: the audit
// trail as a ledger (actions and details in words, actors by name, amounts as money) that fits its panel with each date
// on one line; an account field's rule said next to it; a role change confirmed before it is sent; the end-of-day chart
// with values, an axis and readable labels, its printed header a date in words; the call's header on one line while a
// payment is in progress. Screenshots 96–101 in test-results/screenshots/<language>/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/harness';
import type { AppHarness } from './support/harness';
import { expectAccessible, futureExpiry, openReservation, openSection, signIn } from './support/desk';

const SCREEN = { width: 1366, height: 768 } as const;

const WORDS = {
  'es-MX': {
    audit: 'Auditoría',
    accounts: 'Cuentas',
    report: 'Reporte',
    show: 'Mostrar',
    signedIn: 'Inició sesión',
    charged: 'Inició un cobro',
    amount: 'Monto: $900.00 MXN',
    allLeft: 'Monto: todo lo que queda',
    id: 'ID del operador',
    name: 'Nombre',
    password: /^Contraseña/,
    create: 'Crear cuenta',
    idRule: /^ID del operador: use de 2 a 32 caracteres/,
    roleOf: 'Rol de ana',
    confirmRole: '¿Cambiar el rol de Ana Agent (ana) de agente a supervisor?',
    changeTo: 'Cambiar a supervisor',
    approved: 'Pago aprobado',
    card: 'Número de tarjeta',
    verification: 'Enviar el enlace de verificación al huésped',
    closeReservation: 'Cerrar reservación',
  },
  'en-US': {
    audit: 'Audit',
    accounts: 'Accounts',
    report: 'Report',
    show: 'Show',
    signedIn: 'Signed in',
    charged: 'Started a charge',
    amount: 'Amount: $900.00 MXN',
    allLeft: 'Amount: all that is left',
    id: 'Operator ID',
    name: 'Name',
    password: /^Password/,
    create: 'Create account',
    idRule: /^Operator ID: use 2 to 32 characters/,
    roleOf: 'Role of ana',
    confirmRole: 'Change the role of Ana Agent (ana) from agent to supervisor?',
    changeTo: 'Change to supervisor',
    approved: 'Payment approved',
    card: 'Card number',
    verification: 'Send the verification link to the guest',
    closeReservation: 'Close reservation',
  },
} as const;

/** What the page's DOM gives these checks (the tests' own TypeScript has no DOM library). */
interface Rect {
  top: number;
  height: number;
}
interface Box {
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): Rect;
}
interface PageGlobals {
  document: { createRange(): { selectNodeContents(node: unknown): void; getClientRects(): ArrayLike<Rect> } };
  getComputedStyle(element: unknown): { fontSize: string };
}

/** How many lines an element's text takes on screen (distinct tops of its text's line boxes). */
const linesOf = (locator: Locator): Promise<number> =>
  locator.evaluate((element) => {
    const range = (globalThis as unknown as PageGlobals).document.createRange();
    range.selectNodeContents(element);
    return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
  });

/** A payment taken as an agent keys it (number, expiry, CVV, Enter), in either language. */
async function keyAndCharge(page: Page, number: string, words: (typeof WORDS)[keyof typeof WORDS]): Promise<void> {
  await expect(page.getByLabel(words.card)).toBeFocused();
  await page.keyboard.type(number);
  await page.keyboard.type(futureExpiry());
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');
}

/** An audit row as main writes it for a charge and for a refund asked for "all that is left" (shared/ipc/contract.ts). */
async function recordMoneyRows(app: AppHarness): Promise<string> {
  const paymentId = `pay_${'0'.repeat(24)}9f3a1b2c`;
  app.stack.audit.record({
    actor: 'ana',
    action: 'payment.create',
    outcome: 'ok',
    resource: paymentId,
    // A charge retried after lost answers carries each request's id (main joins them with spaces).
    requestId: ['req_5f1Qm2Zb8rJ0yT7kW4xV9cN3', 'req_8hL6dP1sA0b1c2d3e4f5a6b7', 'req_c8d7e9f0a1b2c3d4a5b6c7d8'].join(
      ' ',
    ),
    details: {
      reservationId: 'CUN-6B3D8F',
      amountCents: 90_000,
      currency: 'mxn',
      status: 'succeeded',
      operationId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    },
  });
  app.stack.audit.record({
    actor: 'ana',
    action: 'refund.request',
    outcome: 'ok',
    resource: paymentId,
    details: { amountCents: 'all left', reason: 'cancellation' },
  });
  await app.stack.audit.flush();
  return paymentId;
}

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`the ledger in ${language}`, () => {
    test.use({ language, viewport: SCREEN });
    const words = WORDS[language];
    const dir = path.join('test-results', 'screenshots', language);

    test(`the audit trail reads as a ledger and fits its panel (${language})`, async ({ page, app }) => {
      test.setTimeout(90_000);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'supervisor');
      const paymentId = await recordMoneyRows(app);
      await openSection(page, words.audit);
      await page.getByRole('button', { name: words.show, exact: true }).click();
      const table = page.locator('table.audit');
      await expect(table.locator('tbody tr')).toHaveCount(4);
      // The table fits the panel: nothing to scroll sideways at 1366 px.
      const panel = page.locator('section.panel').filter({ has: table });
      const scroller = page.locator('.table-scroll').filter({ has: table });
      for (const [box, what] of [
        [panel, 'panel'],
        [scroller, 'table region'],
      ] as const) {
        const { scrollWidth, clientWidth } = await box.evaluate((element) => {
          const { scrollWidth, clientWidth } = element as unknown as Box;
          return { scrollWidth, clientWidth };
        });
        expect(scrollWidth, `the audit ${what} is ${scrollWidth} px wide in ${clientWidth} px`).toBeLessThanOrEqual(
          clientWidth,
        );
      }
      // Each date and time on one line (the cells that hold a year).
      const dates = table.locator('tbody td').filter({ hasText: /\b20\d\d\b/ });
      const count = await dates.count();
      expect(count).toBeGreaterThan(2);
      for (let index = 0; index < count; index++)
        expect(await linesOf(dates.nth(index)), `date cell ${index} lines`).toBe(1);
      const charge = table.locator('tbody tr').filter({ hasText: words.charged });
      await expect(charge).toHaveCount(1);
      await expect(charge).toContainText(words.amount);
      await expect(charge).toContainText('Ana Agent');
      await expect(charge.locator(`[title="${paymentId}"]`)).toHaveText('9F3A-1B2C');
      await expect(charge).not.toContainText('amountCents');
      await expect(table.locator('tbody tr').filter({ hasText: words.allLeft })).toHaveCount(1);
      const signedIn = table.locator('tbody tr').filter({ hasText: words.signedIn }).first();
      await expect(signedIn).toContainText('Sam Supervisor');
      await expect(table).not.toContainText('session.signIn');
      await expectAccessible(page, `audit trail (${language})`);
      await page.screenshot({ path: path.join(dir, '96-audit-ledger.png') });
    });

    test(`an account field's rule next to the field, and a role change confirmed (${language})`, async ({
      page,
      app,
    }) => {
      test.setTimeout(90_000);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'admin');
      await openSection(page, words.accounts);
      const id = page.getByLabel(words.id, { exact: true });
      await id.fill('Leo López');
      await page.getByLabel(words.name, { exact: true }).fill('Leo López');
      await page.getByLabel(words.password).fill('leo password 12345');
      await page.getByRole('button', { name: words.create }).click();
      // The rule under the field, read with it, and the field focused.
      const problem = page.locator(`#${await id.getAttribute('aria-describedby')}`);
      await expect(problem).toHaveText(words.idRule);
      await expect(id).toBeFocused();
      const field = await id.boundingBox();
      const said = await problem.boundingBox();
      expect(field && said, 'the field and its problem on screen').toBeTruthy();
      if (field && said) {
        expect(said.y - (field.y + field.height), 'the problem right under the field').toBeLessThan(24);
        expect(said.y - (field.y + field.height)).toBeGreaterThanOrEqual(0);
        expect(Math.abs(said.x - field.x), 'aligned with the field').toBeLessThan(4);
      }
      expect(await app.stack.directory.view('leo lópez')).toBeUndefined();
      await expectAccessible(page, `account field problem (${language})`);
      await page.screenshot({ path: path.join(dir, '97-account-field-rule.png') });

      // A role chosen in the row's list waits for the admin's word, naming the person and both roles.
      await page.getByLabel(words.roleOf).selectOption('supervisor');
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(words.confirmRole);
      await expect(confirm).toBeFocused();
      expect(await app.stack.directory.view('ana')).toMatchObject({ role: 'agent' });
      await expectAccessible(page, `role change confirmation (${language})`);
      await page.screenshot({ path: path.join(dir, '98-role-change-confirm.png') });
      await confirm.getByRole('button', { name: words.changeTo }).click();
      await expect(confirm).toHaveCount(0);
      await expect.poll(async () => (await app.stack.directory.view('ana'))?.role).toBe('supervisor');
    });

    test(`the end-of-day chart has values, an axis and readable labels; the printed day is in words (${language})`, async ({
      page,
      app,
    }) => {
      test.setTimeout(90_000);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'agent');
      await openReservation(page, 'OAX-1S4T8V', 'Raúl Domínguez Aguilar');
      await keyAndCharge(page, '4242424242424242', words);
      await expect(page.getByRole('region', { name: words.approved })).toBeVisible({ timeout: 20_000 });

      await signIn(page, app, 'supervisor');
      await openSection(page, words.report);
      const chart = page.getByRole('figure');
      await expect(chart).toBeVisible();
      const busy = chart.getByRole('listitem').filter({ hasText: /\$[\d,]+\.\d\d MXN/ });
      await expect(busy).toHaveCount(1);
      await expect(busy).toContainText(language === 'es-MX' ? '1 pago' : '1 payment');
      const ticks = chart.locator('.chart__tick');
      await expect(ticks).toHaveCount(3);
      await expect(ticks.first()).toHaveText('$0.00 MXN');
      for (const selector of ['.chart__hour', '.chart__value', '.chart__tick', 'figcaption']) {
        const sizes = await chart
          .locator(selector)
          .evaluateAll((elements) =>
            elements.map((element) =>
              parseFloat((globalThis as unknown as PageGlobals).getComputedStyle(element).fontSize),
            ),
          );
        expect(sizes.length, selector).toBeGreaterThan(0);
        expect(Math.min(...sizes), `${selector} font size`).toBeGreaterThanOrEqual(12);
      }
      await expectAccessible(page, `end-of-day chart (${language})`);
      await chart.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(dir, '99-report-chart.png') });

      await page.emulateMedia({ media: 'print' });
      const printed = page.locator('h2 .print-only');
      await expect(printed).toBeVisible();
      await expect(printed).not.toHaveText(/\d{4}-\d{2}-\d{2}/);
      await expect(printed).toHaveText(
        language === 'es-MX' ? /^· \d{1,2} \p{L}+\.? \d{4}$/u : /^· \p{L}{3} \d{1,2}, \d{4}$/u,
      );
      await page.screenshot({ path: path.join(dir, '100-report-printed.png'), fullPage: true });
      await page.emulateMedia({ media: 'screen' });
    });

    test(`the call's header stays on one line while a payment is in progress (${language})`, async ({ page, app }) => {
      test.setTimeout(90_000);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'agent');
      await openReservation(page, 'MEX-4K6W9Z', 'María Fernanda Gutiérrez Ríos');
      await keyAndCharge(page, '4000000000003220', words);
      await expect(page.getByRole('heading', { name: words.verification })).toBeVisible({ timeout: 20_000 });
      const bar = page.locator('.reservation-bar');
      // Both amounts shown: being charged now, and what will still be owed.
      await expect(bar.locator('.reservation-bar__progress')).toBeVisible();
      const tops = await bar
        .locator(':scope > *')
        .evaluateAll((elements) =>
          elements.map((element) => Math.round((element as unknown as Box).getBoundingClientRect().top)),
        );
      const height = await bar.evaluate((element) => (element as unknown as Box).getBoundingClientRect().height);
      expect(tops.length).toBeGreaterThan(2);
      expect(Math.max(...tops) - Math.min(...tops), 'every part of the header on one line').toBeLessThanOrEqual(4);
      expect(height, 'the header one line high').toBeLessThan(48);
      await expect(bar.locator('.reservation-bar__guest')).toHaveAttribute('title', 'María Fernanda Gutiérrez Ríos');
      await page.screenshot({ path: path.join(dir, '101-call-header-one-line.png') });
    });
  });
}
