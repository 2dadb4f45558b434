// What is owed after payments and refunds, end to end in Chromium at 1366×768 over the real main stacks, in Spanish and
// in English. A booking paid in full whose cancellation refund a supervisor approves at another desk of the center stays
// closed on the agent's screen (header, result and reservation), the payment reads "Refunded", and the agent is told
// the refund was made. A charge beyond the balance shows as paid over, the same on the header and the result.
// Screenshots in test-results/screenshots/<language>/ (65–69).
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { CENTER_STORES } from '../../main/center';
import { launchSimulator, type RunningSimulator } from '../support/simulator';
import { centerStorage } from '../../main/storage';
import { createCenter, type TestCenter } from '../support/center';
import { startPostgres, type PostgresServer } from '../support/postgres';
import { startHarness, type AppHarness } from './support/harness';
import {
  expectAccessible,
  futureExpiry,
  openReservation,
  openSection,
  pageSender,
  signIn,
  SUPERVISOR,
} from './support/desk';

type Language = 'es-MX' | 'en-US';

/** The words each check reads, in the desk's language. */
const WORDS = {
  'es-MX': {
    cardNumber: 'Número de tarjeta',
    amount: 'Monto',
    approved: 'Pago aprobado',
    call: 'La llamada',
    closed: 'Reservación cerrada: nada por cobrar (cancelación reembolsada)',
    refunded: 'Reembolsado',
    notices: 'Sus solicitudes de reembolso',
    paymentsTab: 'Pagos',
    paymentsFound: 'Pagos encontrados',
    // Héctor Ibáñez Salazar, 899.99 MXN (main/reservations/demo.ts); each language on its own booking of the one center.
    booking: { id: 'PVR-5J1L3M', guest: 'Héctor Ibáñez Salazar', amount: '$899.99' },
    made: 'Reembolso hecho: se devolvieron $899.99 MXN a la tarjeta del huésped (Cancelación), reservación PVR-5J1L3M',
    closedEffect: 'La reservación queda cerrada: no hay nada por cobrar.',
    overpaid: 'Pagado de más: $10,799.91 MXN',
    overpaidHelp: 'pida a un supervisor que reembolse la diferencia',
  },
  'en-US': {
    cardNumber: 'Card number',
    amount: 'Amount',
    approved: 'Payment approved',
    call: 'The call',
    closed: 'Booking closed: nothing to charge (cancellation refunded)',
    refunded: 'Refunded',
    notices: 'Your refund requests',
    paymentsTab: 'Payments',
    paymentsFound: 'Payments found',
    // Ximena Peña Córdova, 900.00 MXN.
    booking: { id: 'MID-6P9Q2R', guest: 'Ximena Peña Córdova', amount: '$900.00' },
    made: 'Refund made: $900.00 MXN went back to the guest’s card (Cancellation) on reservation MID-6P9Q2R',
    closedEffect: 'The booking is closed: nothing is owed.',
    overpaid: 'Paid over: $10,799.91 MXN',
    overpaidHelp: 'ask a supervisor to refund the difference',
  },
} as const;

const shots = (language: Language): string => {
  const dir = path.join('test-results', 'screenshots', language);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** Back to the top of the page, where the reservation's facts are (the wheel, as the agent scrolls). */
async function scrollToTop(page: Page): Promise<void> {
  await page.mouse.move(880, 400);
  await page.mouse.wheel(0, -5000);
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeInViewport();
}

/** The card that succeeds, keyed as the agent does (the form moves on by itself), then Enter: the result's panel. */
async function payWithCard(page: Page, language: Language): Promise<{ paymentId: string }> {
  const words = WORDS[language];
  await page.getByLabel(words.cardNumber).focus();
  await page.keyboard.type('4242424242424242');
  await page.keyboard.type(futureExpiry());
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');
  const result = page.getByRole('region', { name: words.approved });
  await expect(result).toBeVisible({ timeout: 20_000 });
  const paymentId = /pay_[a-f0-9]{32}/.exec((await result.textContent()) ?? '')?.[0];
  expect(paymentId).toBeDefined();
  return { paymentId: paymentId ?? '' };
}

test.describe('a cancellation refunded at another desk of the center', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });

  let server: PostgresServer;
  let center: TestCenter;
  let sim: RunningSimulator;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await startPostgres();
    center = await createCenter(server, { stores: CENTER_STORES });
    sim = await launchSimulator({ processingDelayMs: 300, refundDelayMs: 300 });
  });

  test.afterAll(async () => {
    await sim?.close();
    await center?.drop().catch(() => undefined);
    await server?.stop();
  });

  async function deskWindow(
    browser: Browser,
    language: Language,
  ): Promise<{ page: Page; app: AppHarness & { stop(): Promise<void> } }> {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const app = await startHarness(page, {
      language,
      processingDelayMs: 300,
      idleTimeoutMs: undefined,
      simulator: sim,
      storage: () => centerStorage(center.app),
    });
    return { page, app };
  }

  for (const language of ['es-MX', 'en-US'] as const) {
    test(`${language}: the agent's booking stays closed (not owed again under "payment approved") and the agent is told the refund was made`, async ({
      browser,
    }) => {
      const words = WORDS[language];
      const a = await deskWindow(browser, language);
      const b = await deskWindow(browser, language);
      try {
        // Desk A: the agent takes the whole balance; the result stays on screen.
        await signIn(a.page, a.app, 'agent');
        await openReservation(a.page, words.booking.id, words.booking.guest);
        await expect(a.page.getByLabel(words.cardNumber)).toBeFocused();
        const { paymentId } = await payWithCard(a.page, language);
        // The agent asks for the cancellation refund (the request's own form is another screen's; main's door is the same).
        const requestId = randomUUID();
        const asked = await a.app.stack.dispatch('refunds:request', pageSender(a.app), {
          requestId,
          paymentId,
          reason: 'cancellation',
        });
        expect(asked.ok).toBe(true);

        // Desk B: a supervisor approves it from the center's queue.
        expect(
          (
            await b.app.stack.dispatch('session:signIn', pageSender(b.app), {
              id: SUPERVISOR.id,
              password: SUPERVISOR.password,
            })
          ).ok,
        ).toBe(true);
        // As the approval step shows it: all that is left of the payment, now.
        const read = await b.app.stack.dispatch('payments:get', pageSender(b.app), { paymentId });
        const expectedAmountCents = read.ok ? (read.value as { refundableCents: number }).refundableCents : 0;
        const approved = await b.app.stack.dispatch('refunds:approve', pageSender(b.app), {
          requestId,
          acknowledgedRefundIds: [],
          expectedAmountCents,
        });
        expect(approved.ok).toBe(true);

        // Desk A, untouched: the header, the result and the reservation agree: closed, nothing owed; the payment reads refunded.
        const header = a.page.getByRole('group', { name: words.call });
        await expect(header).toContainText(words.closed, { timeout: 20_000 });
        await expect(header).not.toContainText(words.booking.amount);
        // Told the refund was made, and what it means for the booking.
        const notices = a.page.getByRole('region', { name: words.notices });
        await expect(notices).toContainText(words.made, { timeout: 20_000 });
        await expect(notices).toContainText(words.closedEffect);
        const result = a.page.getByRole('region', { name: words.approved });
        await expect(result).toContainText(words.closed);
        await expect(result).toContainText(words.refunded);
        const row = a.page.getByRole('row').filter({ hasText: paymentId }).first();
        // Date, amount, card, then the status.
        await expect(row.getByRole('cell').nth(3)).toHaveText(words.refunded);
        await expectAccessible(a.page, `booking closed by a cancellation refund (${language})`);
        // The notice is in view over the result, its keys not covered.
        await expect(notices).toBeInViewport();
        await expect(result.getByRole('button').first()).toBeInViewport();
        await a.page.screenshot({ path: path.join(shots(language), '65-refund-closed-agent.png') });
        await scrollToTop(a.page);
        await a.page.screenshot({ path: path.join(shots(language), '66-refund-closed-reservation.png') });

        // Desk B's payments list says so too.
        await signIn(b.page, b.app, 'supervisor');
        await openSection(b.page, words.paymentsTab);
        // The search's first field is the reservation.
        const reservationField = b.page.getByRole('tabpanel').getByRole('textbox').first();
        await reservationField.fill(words.booking.id);
        await reservationField.press('Enter');
        const found = b.page
          .getByRole('table', { name: words.paymentsFound })
          .getByRole('row')
          .filter({ hasText: words.booking.id });
        await expect(found.getByRole('cell').nth(5)).toHaveText(words.refunded, { timeout: 15_000 });
        await b.page.screenshot({ path: path.join(shots(language), '69-refunded-payments-list.png') });
      } finally {
        await a.app.stop();
        await b.app.stop();
      }
    });
  }
});

test.describe('a charge beyond the balance', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  for (const language of ['es-MX', 'en-US'] as const) {
    test(`${language}: 11,999.90 charged on a 1,199.99 balance reads "paid over 10,799.91" on the header and the result, not a balance of 0.00`, async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const words = WORDS[language];
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
      const page = await context.newPage();
      const app = await startHarness(page, { language, processingDelayMs: 300, idleTimeoutMs: undefined });
      try {
        await signIn(page, app, 'agent');
        await openReservation(page, 'PCM-5P7R2S', 'Mónica Zúñiga Olvera');
        await expect(page.getByLabel(words.cardNumber)).toBeFocused();
        // One extra digit: 11,999.90 for 1,199.99.
        await page.getByLabel(words.amount, { exact: true }).fill('11999.90');
        // Above what is owed, the charge goes only once the agent confirms both amounts (money-door.spec.ts tests that).
        await page
          .getByRole('checkbox', { name: /Confirmo cobrar \$11,999\.90 MXN|I confirm charging \$11,999\.90 MXN/ })
          .check();
        await payWithCard(page, language);

        const header = page.getByRole('group', { name: words.call });
        await expect(header).toContainText(words.overpaid, { timeout: 20_000 });
        const result = page.getByRole('region', { name: words.approved });
        await expect(result).toContainText(words.overpaid);
        await expect(result).toContainText(words.overpaidHelp);
        await expect(page.locator('dd[data-owed="overpaid"]')).toContainText('$10,799.91 MXN');
        await expectAccessible(page, `paid over (${language})`);
        await page.screenshot({ path: path.join(shots(language), '67-overpaid-result.png') });
        await scrollToTop(page);
        await page.screenshot({ path: path.join(shots(language), '68-overpaid-reservation.png') });
      } finally {
        await app.stop();
        await context.close();
      }
    });
  }
});
