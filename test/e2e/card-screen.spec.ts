// The card screens at 1366×768, in Spanish (captures in English too): card data typed where it does not belong leaves
// the screen with its refusal, and the lock forgets what was typed for the payment; the card form says what each control
// does; after every panel change the focus lands on a control, and nothing that moves money or messages the guest fires
// from a radio or from a button the screen focused by itself.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { futureExpiry, signIn } from './support/desk';
import { expect, test } from './support/harness';

const SCREEN = { width: 1366, height: 768 } as const;

const WORDS = {
  'es-MX': {
    note: 'Nota del pago (opcional)',
    cleared:
      'Nota: esto parecía un número de tarjeta y se borró. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
    card: 'Número de tarjeta',
    verify: 'Verificar tarjeta',
    keep: 'Guardar esta tarjeta para cobros futuros (el huésped lo acepta)',
    cvvAny: '3 o 4 dígitos, según la marca',
  },
  'en-US': {
    note: 'Note for the payment (optional)',
    cleared: 'Note: this looked like a card number and was erased. Card numbers go only in the card form.',
    card: 'Card number',
    verify: 'Verify card',
    keep: 'Keep this card for later charges (the guest agrees)',
    cvvAny: '3 or 4 digits, by card brand',
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

/** Keys a card as an agent does: number, expiry, CVV, the form moving on by itself. */
async function keyCard(page: Page, number: string): Promise<void> {
  await page.keyboard.type(number);
  await page.keyboard.type(futureExpiry());
  await page.keyboard.type('123');
}

/** Who holds the focus: a control's tag and text, or "body" when the page itself has it (the focus was dropped). */
const focused = (page: Page): Promise<string> =>
  page.evaluate<string>(
    "(() => { const a = document.activeElement; return a === null || a === document.body ? 'body' : a.tagName.toLowerCase() + ':' + (a.textContent ?? '').trim().slice(0, 60); })()",
  );

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`card data leaves the screen (${language})`, () => {
    test.use({ language, viewport: SCREEN, idleTimeoutMs: 4_000 });

    test(`a card number in the payment note is erased with its refusal; the lock forgets the typed amount and note (${language})`, async ({
      page,
      app,
    }) => {
      const words = WORDS[language];
      await signIn(page, app, 'agent');
      await open(page, 'CUN-7F3K2A', 'Sofía Núñez Ortega');
      const note = page.getByLabel(words.note);
      await note.fill('Pagó con 4242 4242 4242 4242, 12/29, cvv 123');
      await expect(page.getByText(words.cleared)).toBeVisible();
      await expect(note).toHaveValue('');
      expect(await page.content()).not.toMatch(/4242 ?4242/);
      // The card form says what its controls do, and claims no CVV length before a number.
      await expect(page.getByRole('button', { name: words.verify })).toBeVisible();
      await expect(page.getByLabel(words.keep)).toBeVisible();
      await expect(page.getByText(words.cvvAny)).toBeVisible();
      await capture(page, language, '75-note-card-number-erased');

      // What is typed for the payment does not survive the lock.
      const amount = page.locator('.panel[aria-labelledby="new-payment-title"] input[inputmode="decimal"]');
      await amount.fill('250');
      await note.fill('Habitación 12');
      await expect(page.locator('#sign-in-id')).toBeVisible({ timeout: 15_000 });
      await capture(page, language, '76-locked');
      await page.locator('#sign-in-id').fill('ana');
      await page.locator('#sign-in-password').fill('agent password 1234');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 2, name: /Sofía Núñez Ortega/ })).toBeVisible();
      await expect(page.getByLabel(words.note)).toHaveValue('');
      await expect(amount).not.toHaveValue('250');
    });
  });
}

test.describe('keyboard after every panel change (es-MX)', () => {
  test.use({ language: 'es-MX', viewport: SCREEN });

  test('3-D Secure: no script before a send, Enter on a channel sends nothing, reopen focuses no send button, abandon and close land on a control', async ({
    page,
    app,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, app, 'agent');
    await open(page, 'SJD-4X6Y9Z', 'Chloé Dubois-Smith');
    await keyCard(page, '4000000000003220');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: /Estado del pago/ });
    await expect(page.getByRole('heading', { name: 'Enviar el enlace de verificación al huésped' })).toBeVisible({
      timeout: 20_000,
    });
    // Nothing was sent yet: the line for the guest does not say a link was sent.
    await expect(panel).not.toContainText('Le enviamos un enlace');
    await capture(page, 'es-MX', '77-3ds-before-send');

    // Enter on a channel radio chooses it and sends nothing.
    await panel.getByRole('radio', { name: 'WhatsApp' }).focus();
    await page.keyboard.press('Enter');
    await expect(panel.getByRole('radio', { name: 'WhatsApp' })).toBeChecked();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.locator('.deliveries > li')).toHaveCount(0);

    // Sent: now the line for the guest says so.
    await panel.getByRole('button', { name: 'Enviar enlace' }).click();
    await expect(page.locator('.deliveries > li').first()).toBeVisible();
    await expect(panel).toContainText('Le enviamos un enlace');

    // Closed: the focus goes to the search box, not the page.
    await page.getByRole('button', { name: 'Cerrar reservación' }).click();
    await expect(page.locator('#lookup-input')).toBeFocused();

    // Reopened: the panel is back, and the focus is not on "Enviar de nuevo": a reflex Enter re-sends nothing.
    await open(page, 'SJD-4X6Y9Z', 'Chloé Dubois-Smith');
    await expect(panel.getByRole('button', { name: 'Enviar de nuevo' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Enviar de nuevo' })).not.toBeFocused();
    expect(await focused(page)).not.toBe('body');
    const deliveries = await page.locator('.deliveries > li').count();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.locator('.deliveries > li')).toHaveCount(deliveries);
    await capture(page, 'es-MX', '78-3ds-reopened');

    // Abandoned: the next card form has the focus.
    await panel.getByRole('button', { name: 'Abandonar y usar otra tarjeta' }).click();
    await expect(page.getByLabel('Número de tarjeta')).toBeFocused({ timeout: 20_000 });
  });

  test('"Listo — nuevo cobro" at zero balance lands on a control, not the page', async ({ page, app }) => {
    await signIn(page, app, 'agent');
    await open(page, 'PVR-5J1L3M', 'Héctor Ibáñez Salazar');
    await keyCard(page, '4242424242424242');
    await page.keyboard.press('Enter');
    const done = page.getByRole('button', { name: 'Listo — nuevo cobro' });
    await expect(done).toBeFocused({ timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect(done).toHaveCount(0);
    await expect.poll(() => focused(page)).not.toBe('body');
    await capture(page, 'es-MX', '79-after-done-zero-balance');
  });
});
