// The result and the receipt stay reachable, and a payment without an answer says what to do next, end to end in
// Chromium over the real main stack at 1366×768, on the Spanish desk and the English one: a 3-D Secure payment approved
// after the reservation was closed and opened again names its card; after "Done" a receipt is sent from the reservation's
// payments list (its phone as people read it), and the supervisor's payment detail names guest, card and reference; with
// the service down the attempt is in the payments list while the header says it is being charged, the panel has the
// sentence for the guest, and after three checks it says to call a supervisor. Screenshots 90–95 in
// test-results/screenshots/<language>/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { MAX_ATTEMPTS } from '../../main/payments/client';
import { expectAccessible, futureExpiry, openReservation, openSection, signIn, simulatorFault } from './support/desk';
import { expect, test } from './support/harness';

const WORDS = {
  'es-MX': {
    card: 'Número de tarjeta',
    sendLink: 'Enviar enlace',
    close: 'Cerrar reservación',
    approves: 'El tarjetahabiente aprueba',
    approved: 'Pago aprobado',
    next: 'Listo — nuevo cobro',
    payments: 'Pagos',
    reservationField: 'Reservación',
    search: 'Buscar',
    open: 'Abrir',
    detail: 'Pago',
    sendReceipt: 'Enviar recibo',
    listReceipt: 'Enviar un recibo',
    receiptForm: 'Enviar el recibo al huésped',
    phone: 'Teléfono del huésped (con código de país)',
    captured: /Capacitación: capturado para \+1 \*+0164/,
    pending: 'Un pago sin respuesta',
    checkAgain: 'Verificar de nuevo',
    stillUnanswered: 'sigue sin respuesta',
    header: 'La llamada',
    inProgress: 'En cobro ahora',
    unansweredRow: 'Sin respuesta — verificando',
    noPayments: 'Aún no hay pagos',
    tell: 'Estamos confirmando su pago con el banco; no se le cobrará dos veces',
    when: 'Si sigue sin respuesta después de 3 verificaciones o 5 minutos, llame a un supervisor.',
    callSupervisor: 'Llame a un supervisor ahora',
    guest: 'Huésped',
    reference: 'Referencia',
  },
  'en-US': {
    card: 'Card number',
    sendLink: 'Send link',
    close: 'Close reservation',
    approves: 'Cardholder approves',
    approved: 'Payment approved',
    next: 'Done — new payment',
    payments: 'Payments',
    reservationField: 'Reservation',
    search: 'Search',
    open: 'Open',
    detail: 'Payment',
    sendReceipt: 'Send receipt',
    listReceipt: 'Send a receipt',
    receiptForm: 'Send the receipt to the guest',
    phone: 'Guest phone (with country code)',
    captured: /Training: captured for \+1 \*+0164/,
    pending: 'A payment without an answer',
    checkAgain: 'Check again',
    stillUnanswered: 'Still no answer',
    header: 'The call',
    inProgress: 'Being charged now',
    unansweredRow: 'Unanswered — checking',
    noPayments: 'No payments yet',
    tell: 'We are confirming your payment with the bank; you will not be charged twice',
    when: 'If it still has no answer after 3 checks or 5 minutes, call a supervisor.',
    callSupervisor: 'Call a supervisor now',
    guest: 'Guest',
    reference: 'Reference',
  },
} as const;

/** Keys a card as the agent does (the form moves to the next field by itself) and sends it with Enter. */
async function charge(page: Page, label: string, number: string): Promise<void> {
  await expect(page.getByLabel(label)).toBeFocused();
  await page.keyboard.type(number);
  await page.keyboard.type(futureExpiry());
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');
}

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`reachable (${language})`, () => {
    test.use({ language, viewport: { width: 1366, height: 768 } });
    const words = WORDS[language];
    const dir = path.join('test-results', 'screenshots', language);
    const shot = async (page: Page, name: string): Promise<void> => {
      mkdirSync(dir, { recursive: true });
      await expectAccessible(page, `${name} (${language})`);
      await page.screenshot({ path: path.join(dir, `${name}.png`) });
    };

    test(`a 3-D Secure payment approved after the reservation was closed and opened again names its card (${language})`, async ({
      page,
      app,
    }) => {
      test.setTimeout(90_000);
      await signIn(page, app, 'agent');
      await openReservation(page, 'SJD-3B7N1C', "Emily O'Connor");
      await charge(page, words.card, '4000000000003220');
      await page.getByRole('button', { name: words.sendLink, exact: true }).click();
      await page.getByRole('button', { name: words.close }).click();
      await openReservation(page, 'SJD-3B7N1C', "Emily O'Connor");
      await page.getByRole('button', { name: words.approves }).click();
      const result = page.getByRole('region', { name: words.approved });
      await expect(result).toBeVisible({ timeout: 20_000 });
      await expect(result).toContainText('Visa •••• 3220');
      await shot(page, '90-3ds-result-after-reopen');
    });

    test(`after "Done" the receipt is sent from the reservation's payments list; the supervisor's detail names guest, card and reference (${language})`, async ({
      page,
      app,
    }) => {
      test.setTimeout(90_000);
      await signIn(page, app, 'agent');
      await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
      await charge(page, words.card, '4242424242424242');
      const result = page.getByRole('region', { name: words.approved });
      await expect(result).toBeVisible({ timeout: 20_000 });
      const paymentId = /pay_[a-f0-9]{32}/.exec((await result.textContent()) ?? '')?.[0] ?? '';
      const reference = (await result.locator('.reference').textContent()) ?? '';
      await page.keyboard.press('Enter');
      await expect(result).toHaveCount(0);

      // The reservation's payments list: its card, and the receipt any time.
      const summary = page.getByRole('region', { name: /Zoë Anderson/ });
      const row = summary.getByRole('row').filter({ hasText: 'Visa •••• 4242' });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(reference);
      await row.getByRole('button', { name: `${words.listReceipt} ${paymentId}` }).click();
      const receipt = summary.getByRole('form', { name: words.receiptForm });
      // The phone as people read it, with its country code.
      await expect(receipt.getByLabel(words.phone)).toHaveValue('+1 305 555 0164');
      await receipt.getByRole('button', { name: words.sendReceipt, exact: true }).click();
      await expect(receipt.getByText(words.captured)).toBeVisible();
      await receipt.scrollIntoViewIfNeeded();
      await shot(page, '91-receipt-from-payments-list');

      // The supervisor's payment detail: guest, reservation, card and the short reference, and the receipt.
      await signIn(page, app, 'supervisor');
      await openSection(page, words.payments);
      await page.getByLabel(words.reservationField, { exact: true }).fill('CUN-6B3D8F');
      await page.getByRole('button', { name: words.search, exact: true }).click();
      await page.getByRole('button', { name: `${words.open} ${paymentId}` }).click();
      const detail = page.getByRole('region', { name: `${words.detail} ${paymentId}` });
      await expect(detail).toBeVisible();
      const facts = detail.locator('dl.facts').first();
      await expect(facts).toContainText(`${words.guest}Zoë Anderson`);
      await expect(facts).toContainText('Visa •••• 4242');
      await expect(facts).toContainText(`${words.reference}${reference}`);
      await shot(page, '92-payment-detail');
      const again = detail.getByRole('form', { name: words.receiptForm });
      await again.getByRole('button', { name: words.sendReceipt, exact: true }).click();
      await expect(again.getByText(words.captured)).toBeVisible();
      await again.scrollIntoViewIfNeeded();
      await shot(page, '95-payment-detail-receipt');
    });

    test(`with the service down the attempt is in the payments list as the header says, with the sentence for the guest and when to call a supervisor (${language})`, async ({
      page,
      app,
    }) => {
      // Four sends whose answers are lost, each tried MAX_ATTEMPTS times: longer than a single screen's test.
      test.setTimeout(150_000);
      await signIn(page, app, 'agent');
      await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
      await simulatorFault(app, 'POST /payments', 'drop_after_commit', MAX_ATTEMPTS * 4);
      await charge(page, words.card, '4242424242424242');
      const pending = page.getByRole('region', { name: words.pending });
      await expect(pending).toBeVisible({ timeout: 30_000 });

      // The header and the list agree: the attempt is being charged, and it is in the payments list.
      await expect(page.getByRole('group', { name: words.header })).toContainText(words.inProgress);
      const summary = page.getByRole('region', { name: /Zoë Anderson/ });
      await expect(summary).not.toContainText(words.noPayments);
      await expect(summary.getByRole('row').filter({ hasText: words.unansweredRow })).toContainText('$980.00');
      // The sentence to read to the guest, and when to call a supervisor.
      await expect(pending).toContainText(words.tell);
      await expect(pending).toContainText(words.when);
      await shot(page, '93-unanswered-in-list');

      const checkAgain = pending.getByRole('button', { name: words.checkAgain });
      for (let check = 1; check <= 3; check++) {
        await expect(checkAgain).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
        await checkAgain.click();
        await expect(checkAgain).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
        await expect(pending.getByRole('status')).toContainText(words.stillUnanswered);
        if (check < 3) await expect(pending).not.toContainText(words.callSupervisor);
      }
      await expect(pending).toContainText(words.callSupervisor);
      await expect(pending).toContainText(words.tell);
      await shot(page, '94-unanswered-call-supervisor');
    });
  });
}
