// The money actions above the fold of an agent's laptop (1366×768), in Spanish and English, by their boxes: the card
// form's charge key and keep-card consent, the 3-D Secure panel's send and abandon (and what the send answered), the
// result's receipt and "done" — each with the call's header, inside the window. Each screen is captured.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expectInView, futureExpiry, SCREEN, signIn } from './support/desk';
import { expect, test } from './support/harness';

const WORDS = {
  'es-MX': {
    charge: /Continuar|Cobrar/,
    keep: 'Guardar esta tarjeta para cobros futuros (el huésped lo acepta)',
    verify: 'Verificar tarjeta',
    status: /Estado del pago/,
    send: 'Enviar enlace',
    abandon: 'Abandonar y usar otra tarjeta',
    approved: 'Pago aprobado',
    next: 'Listo — nuevo cobro',
    receipt: 'Enviar recibo',
  },
  'en-US': {
    charge: /Continue|Charge/,
    keep: 'Keep this card for later charges (the guest agrees)',
    verify: 'Verify card',
    status: /Payment status/,
    send: 'Send link',
    abandon: 'Abandon and use another card',
    approved: 'Payment approved',
    next: 'Done — new payment',
    receipt: 'Send receipt',
  },
} as const;

async function capture(page: Page, language: string, name: string): Promise<void> {
  const dir = path.join('test-results', 'screenshots', language);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

async function open(page: Page, query: string, guest: string): Promise<void> {
  await page.locator('#lookup-input').fill(query);
  await expect(page.getByRole('button', { name: new RegExp(guest) }).first()).toBeVisible();
  await page.locator('#lookup-input').press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(guest) })).toBeVisible();
}

async function keyCard(page: Page, number: string): Promise<void> {
  await page.keyboard.type(number);
  await page.keyboard.type(futureExpiry());
  await page.keyboard.type('123');
}

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`the money actions within 1366×768 (${language})`, () => {
    test.use({ language, viewport: SCREEN });

    test(`card form, 3-D Secure panel and result (${language})`, async ({ page, app }) => {
      test.setTimeout(90_000);
      const words = WORDS[language];
      const header = page.locator('.reservation-bar');
      await signIn(page, app, 'agent');

      // The card form: the charge key and the guest's consent to keep the card.
      await open(page, 'SJD-4X6Y9Z', 'Chloé Dubois-Smith');
      const form = page.locator('form.card-capture');
      await expectInView(page, header, 'the call’s header (card form)');
      await expectInView(page, form.getByRole('button', { name: words.charge }), 'the charge key');
      await expectInView(page, form.getByRole('button', { name: words.verify }), 'verify card');
      await capture(page, language, '80-card-form');
      await expectInView(page, page.getByLabel(words.keep), 'the keep-card consent');

      // The 3-D Secure panel: send and abandon, before and after the send.
      await keyCard(page, '4000000000003220');
      await page.keyboard.press('Enter');
      const panel = page.getByRole('region', { name: words.status });
      const send = panel.getByRole('button', { name: words.send });
      await expect(send).toBeVisible({ timeout: 20_000 });
      await capture(page, language, '81-3ds-panel');
      await expectInView(page, header, 'the call’s header (3-D Secure)');
      await expectInView(page, send, 'send the link');
      await expectInView(page, panel.getByRole('button', { name: words.abandon }), 'abandon and use another card');
      await send.click();
      const delivery = page.locator('.deliveries > li').first();
      await expect(delivery).toBeVisible();
      await capture(page, language, '82-3ds-sent');
      await expectInView(page, delivery, 'what the send answered');
      await expectInView(page, panel.getByRole('button', { name: words.abandon }), 'abandon, after the send');

      // The result: done and the receipt.
      await panel.getByRole('button', { name: words.abandon }).click();
      await expect(page.locator('form.card-capture')).toBeVisible({ timeout: 20_000 });
      await page.locator('#lookup-input').fill('');
      await open(page, 'MEX-4K6W9Z', 'María Fernanda Gutiérrez Ríos');
      await keyCard(page, '4242424242424242');
      await page.keyboard.press('Enter');
      const result = page.getByRole('region', { name: words.approved });
      await expect(result).toBeVisible({ timeout: 20_000 });
      await capture(page, language, '83-result');
      await expectInView(page, header, 'the call’s header (result)');
      await expectInView(page, result.getByRole('button', { name: words.next }), 'done — new payment');
      await expectInView(page, result.getByRole('button', { name: words.receipt }), 'send the receipt');
    });
  });
}
