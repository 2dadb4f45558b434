// The money is right before it moves, end to end in Chromium over the real main stack at 1366×768, in Spanish and in
// English: the payment form shows the reservation's currency and offers no other (main refuses another too); an amount
// above what is still owed (one extra digit keyed) is named with both amounts and charged only once the agent ticks a
// confirmation that names them, never by a reflex Enter; the charge key says the amount. An over-balance charge whose
// answer was lost is checked again and found charged, once. Screenshots 60–64 in test-results/screenshots/<language>/.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MAX_ATTEMPTS } from '../../main/payments/client';
import { expectAccessible, futureExpiry, openReservation, pageSender, signIn, simulatorFault } from './support/desk';
import { expect, test } from './support/harness';

const WORDS = {
  'es-MX': {
    card: 'Número de tarjeta',
    amount: 'Monto',
    currencyHint: 'La moneda de la reservación: todo cobro se hace en ella.',
    chargeOwed: 'Cobrar $12,450.00 MXN',
    over: '$11,999.90 MXN es más de los $1,199.99 MXN que aún debe esta reservación. Revise el monto con el huésped.',
    confirm: 'Confirmo cobrar $11,999.90 MXN, aunque solo se deben $1,199.99 MXN',
    chargeTypo: 'Cobrar $11,999.90 MXN',
    approved: 'Pago aprobado',
    unanswered: 'Un pago sin respuesta',
    checkAgain: 'Verificar de nuevo',
  },
  'en-US': {
    card: 'Card number',
    amount: 'Amount',
    currencyHint: 'The reservation’s currency: every charge is in it.',
    chargeOwed: 'Charge $12,450.00 MXN',
    over: '$11,999.90 MXN is more than the $1,199.99 MXN this reservation still owes. Check the amount with the guest.',
    confirm: 'I confirm charging $11,999.90 MXN, although only $1,199.99 MXN is owed',
    chargeTypo: 'Charge $11,999.90 MXN',
    approved: 'Payment approved',
    unanswered: 'A payment without an answer',
    checkAgain: 'Check again',
  },
} as const;

// Sofía Núñez Ortega, 12,450.00 MXN due; Mónica Zúñiga Olvera, 1,199.99 MXN due (main/reservations/demo.ts).
const SOFIA = { query: 'CUN-7F3K2A', guest: 'Sofía Núñez Ortega' };
const MONICA = { query: 'PCM-5P7R2S', guest: 'Mónica Zúñiga Olvera' };

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`money before it moves (${language})`, () => {
    test.use({ language, viewport: { width: 1366, height: 768 } });
    const words = WORDS[language];
    const dir = path.join('test-results', 'screenshots', language);

    test(`the currency is the reservation’s, and one extra digit is charged only once confirmed (${language})`, async ({
      page,
      app,
    }) => {
      test.setTimeout(120_000);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'agent');

      // 12,450.00 MXN owed: the currency is shown, not offered for a change, and the charge key says what it charges.
      await openReservation(page, SOFIA.query, SOFIA.guest);
      await expect(page.getByLabel(words.card)).toBeFocused();
      await expect(page.getByRole('combobox')).toHaveCount(0);
      await expect(page.getByText(words.currencyHint)).toBeVisible();
      await expect(page.locator('.currency-locked')).toHaveText('MXN');
      await expect(page.getByRole('button', { name: words.chargeOwed })).toBeVisible();
      await expect(page.getByRole('button', { name: words.chargeOwed })).toBeInViewport();
      await expectAccessible(page, `the payment form (${language})`);
      await page.screenshot({ path: path.join(dir, '60-currency-locked.png') });
      // The door holds it too: a charge in USD on this reservation is refused, whatever a screen sends.
      const method = await app.stack.dispatch('payments:tokenize', pageSender(app), {
        operationId: randomUUID(),
        card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' },
        reservationId: SOFIA.query,
      });
      expect(method.ok).toBe(true);
      const usd = await app.stack.dispatch('payments:pay', pageSender(app), {
        operationId: randomUUID(),
        methodId: method.ok ? (method.value as { id: string }).id : '',
        amountCents: 1_245_000,
        currency: 'usd',
        reservationId: SOFIA.query,
        acknowledgedPaymentIds: [],
      });
      expect(usd).toMatchObject({
        ok: false,
        error: { code: 'currency_not_reservation', params: { currency: 'USD', reservationCurrency: 'MXN' } },
      });

      // 1,199.99 MXN owed, 11,999.90 keyed: named with both amounts; Enter charges nothing until the agent confirms.
      await page.getByRole('button', { name: /Cerrar reservación|Close reservation/ }).click();
      await openReservation(page, MONICA.query, MONICA.guest);
      const amount = page.getByLabel(words.amount, { exact: true });
      await amount.fill('11999.90');
      await expect(page.getByRole('alert')).toHaveText(words.over);
      const confirm = page.getByRole('checkbox', { name: words.confirm });
      await expect(confirm).not.toBeChecked();
      const key = page.getByRole('button', { name: words.chargeTypo });
      await expect(key).toHaveAttribute('aria-disabled', 'true');
      await page.getByLabel(words.card).focus();
      await page.keyboard.type('4242424242424242');
      await page.keyboard.type(futureExpiry());
      await page.keyboard.type('123');
      // A reflex Enter charges nothing: it goes to the confirmation, right above the key, left unticked.
      await page.keyboard.press('Enter');
      await expect(confirm).toBeFocused();
      await expect(confirm).not.toBeChecked();
      await expect(page.getByRole('heading', { name: words.approved })).toHaveCount(0);
      const untouched = await app.stack.dispatch('reservations:overview', pageSender(app), {
        reservationId: MONICA.query,
      });
      expect(untouched).toMatchObject({ ok: true, value: { payments: [], pendingPayments: [] } });
      await expect(key).toBeInViewport();
      await expectAccessible(page, `an amount above what is owed (${language})`);
      await page.screenshot({ path: path.join(dir, '61-over-balance-warning.png') });

      // Ticked (Space), the next key is the charge key, which now charges the amount both lines named.
      await page.keyboard.press('Space');
      await expect(confirm).toBeChecked();
      await expect(key).not.toHaveAttribute('aria-disabled');
      await page.keyboard.press('Tab');
      await expect(key).toBeFocused();
      await expect(key).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: path.join(dir, '62-over-balance-confirmed.png') });
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: words.approved })).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: path.join(dir, '63-over-balance-charged.png') });
      const after = await app.stack.dispatch('reservations:overview', pageSender(app), { reservationId: MONICA.query });
      expect(after.ok && (after.value as { payments: { amountCents: number; currency: string }[] }).payments).toEqual([
        expect.objectContaining({ amountCents: 1_199_990, currency: 'mxn' }),
      ]);
    });

    test(`an over-balance charge whose answer was lost is checked again and found charged, once (${language})`, async ({
      page,
      app,
    }) => {
      test.setTimeout(120_000);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'agent');
      await openReservation(page, MONICA.query, MONICA.guest);
      await page.getByLabel(words.amount, { exact: true }).fill('11999.90');
      await page.getByRole('checkbox', { name: words.confirm }).check();
      await page.getByLabel(words.card).focus();
      await page.keyboard.type('4242424242424242');
      await page.keyboard.type(futureExpiry());
      await page.keyboard.type('123');
      // Every try's answer is lost (the service made the payment the first time it got it).
      await simulatorFault(app, 'POST /payments', 'drop_after_commit', MAX_ATTEMPTS);
      await page.keyboard.press('Enter');
      const pending = page.getByRole('region', { name: words.unanswered });
      await expect(pending).toBeVisible({ timeout: 20_000 });
      await expect(pending).toContainText('11,999.90');
      await page.screenshot({ path: path.join(dir, '64-over-balance-unanswered.png') });
      await pending.getByRole('button', { name: words.checkAgain }).click();
      await expect(page.getByRole('heading', { name: words.approved })).toBeVisible({ timeout: 20_000 });
      const after = await app.stack.dispatch('reservations:overview', pageSender(app), { reservationId: MONICA.query });
      expect(
        after.ok && (after.value as { payments: { amountCents: number }[] }).payments.map((p) => p.amountCents),
      ).toEqual([1_199_990]);
    });
  });
}
