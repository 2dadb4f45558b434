// A reload of the page in the middle of a call (what main does after the renderer crashed or hung: main/shell/recovery.ts),
// end to end in Chromium over the real main stack, in Spanish and in English at 1366×768: the same reservation comes back,
// with its payment in progress, and nothing of the card form survives; the page's sessionStorage keeps ids only (no card
// number, no amount, no note). The audit trail words each recovery. Screenshots 106–108 in test-results/screenshots/<language>/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/harness';
import { expectAccessible, futureExpiry, openReservation, openSection, pageSender, signIn } from './support/desk';
import type { AppHarness } from './support/harness';

const SCREEN = { width: 1366, height: 768 } as const;
const GUEST = 'Zoë Anderson';
const RESERVATION = 'CUN-6B3D8F';
const CARD = '4242424242424242';
const THREE_DS_CARD = '4000000000003220';
const TYPED_AMOUNT = '123.45';
const TYPED_NOTE = 'Anticipo suite 1204';

const WORDS = {
  'es-MX': {
    card: 'Número de tarjeta',
    expiry: 'Vencimiento (MM/AA)',
    cvc: 'Código de seguridad (CVV)',
    amount: 'Monto',
    note: 'Nota del pago (opcional)',
    verification: 'Enviar el enlace de verificación al huésped',
    audit: 'Auditoría',
    show: 'Mostrar',
    recovered: 'Falló la ventana de la aplicación',
    crashed: 'la página se cerró por un error',
    hung: 'la página dejó de responder y se cerró',
  },
  'en-US': {
    card: 'Card number',
    expiry: 'Expiry (MM/YY)',
    cvc: 'Security code (CVV)',
    amount: 'Amount',
    note: 'Note for the payment (optional)',
    verification: 'Send the verification link to the guest',
    audit: 'Audit',
    show: 'Show',
    recovered: 'The app’s window failed',
    crashed: 'the page crashed',
    hung: 'the page stopped responding and was ended',
  },
} as const;

/** Everything the page keeps in sessionStorage, as one text (a string snippet: the test project has no DOM typings). */
const sessionText = async (page: Page): Promise<string> =>
  String(await page.evaluate('JSON.stringify({ ...sessionStorage })'));

async function inProgress(app: AppHarness): Promise<string[]> {
  const answer = await app.stack.dispatch('reservations:overview', pageSender(app), { reservationId: RESERVATION });
  if (!answer.ok) throw new Error(answer.error.message);
  return ((answer.value as { inProgress?: { paymentId: string }[] }).inProgress ?? []).map((p) => p.paymentId);
}

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`a reload mid-call in ${language}`, () => {
    test.use({ language, viewport: SCREEN });
    const words = WORDS[language];
    const dir = path.join('test-results', 'screenshots', language);

    test(`the reservation and its payment in progress come back; the card form comes back empty (${language})`, async ({
      page,
      app,
    }) => {
      test.setTimeout(90_000);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'agent');
      await openReservation(page, RESERVATION, GUEST);

      // The agent types an amount, a note and a card, and the page is reloaded before it is sent.
      const amount = page.getByLabel(words.amount, { exact: true });
      await amount.fill(TYPED_AMOUNT);
      await page.getByLabel(words.note).fill(TYPED_NOTE);
      await page.getByLabel(words.card).focus();
      await page.keyboard.type(CARD);
      await expect(page.getByLabel(words.expiry)).toBeFocused();
      await page.keyboard.type(futureExpiry());
      await expect(page.getByLabel(words.card)).not.toHaveValue('');
      const kept = await sessionText(page);
      expect(kept).toContain(RESERVATION);
      for (const typed of [CARD, TYPED_AMOUNT, TYPED_NOTE]) expect(kept).not.toContain(typed);

      await page.reload();
      await expect(page.getByRole('heading', { level: 2, name: new RegExp(GUEST) })).toBeVisible();
      await expect(page.getByLabel(words.card)).toHaveValue('');
      await expect(page.getByLabel(words.expiry)).toHaveValue('');
      await expect(page.getByLabel(words.cvc)).toHaveValue('');
      // What was typed for the payment is not kept either: the form offers what is owed again, with no note.
      await expect(amount).toHaveValue('980.00');
      await expect(page.getByLabel(words.note)).toHaveValue('');
      await expect(page.locator('body')).not.toContainText(CARD.slice(-8));
      await expectAccessible(page, `the call after a reload, card form (${language})`);
      await page.screenshot({ path: path.join(dir, '106-reload-card-form.png') });

      // A 3-D Secure payment waits for the guest: the page is reloaded again, and the payment is there, the same one.
      await page.getByLabel(words.card).focus();
      await page.keyboard.type(THREE_DS_CARD);
      await page.keyboard.type(futureExpiry());
      await page.keyboard.type('123');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: words.verification })).toBeVisible({ timeout: 20_000 });
      const following = await inProgress(app);
      expect(following).toHaveLength(1);
      const beforeReload = await sessionText(page);
      expect(beforeReload).toContain(following[0]);

      await page.reload();
      await expect(page.getByRole('heading', { level: 2, name: new RegExp(GUEST) })).toBeVisible();
      await expect(page.getByRole('heading', { name: words.verification })).toBeVisible();
      await expect(page.getByLabel(words.card)).toHaveCount(0);
      expect(await inProgress(app)).toEqual(following);
      const afterReload = await sessionText(page);
      expect(afterReload).toContain(following[0]);
      for (const typed of [CARD, THREE_DS_CARD, TYPED_AMOUNT, TYPED_NOTE]) expect(afterReload).not.toContain(typed);
      await expectAccessible(page, `the call after a reload, payment in progress (${language})`);
      await page.screenshot({ path: path.join(dir, '107-reload-payment-in-progress.png') });
    });

    test(`each recovery of the window is in the audit trail, in words (${language})`, async ({ page, app }) => {
      test.setTimeout(90_000);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'supervisor');
      // What main/index.ts records when the page is lost (main/shell/recovery.ts calls it): a crash reloaded, a hang ended
      // that was one loss too many.
      app.stack.windowRecovered({ reason: 'crashed', reloaded: true, exitCode: 139 });
      app.stack.windowRecovered({ reason: 'unresponsive', reloaded: false });
      await app.stack.audit.flush();
      await openSection(page, words.audit);
      await page.getByRole('button', { name: words.show, exact: true }).click();
      const rows = page.locator('table.audit tbody tr').filter({ hasText: words.recovered });
      await expect(rows).toHaveCount(2);
      await expect(rows.filter({ hasText: words.crashed })).toHaveCount(1);
      await expect(rows.filter({ hasText: words.hung })).toHaveCount(1);
      await expect(page.locator('table.audit')).not.toContainText('window.recovered');
      await expectAccessible(page, `audit trail with window recoveries (${language})`);
      await page.screenshot({ path: path.join(dir, '108-audit-window-recovered.png') });
    });
  });
}
