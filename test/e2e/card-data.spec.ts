// A card number typed where it does not belong, in the real renderer (Spanish desk): refused in the desk's language
// with the field named, by the same detector main applies — and nothing of it reaches main's files.
import { expect, test } from './support/harness';
import { ensureOperators, signIn } from './support/desk';

test.use({ language: 'es-MX' });

test('sign-in id and payment note: a card number is refused in Spanish, the field named, before anything is sent', async ({
  page,
  app,
}) => {
  await ensureOperators(app);
  await page.goto(app.url);
  await page.locator('#sign-in-id').fill('4242.4242.4242.4242');
  await page.locator('#sign-in-password').fill('agent password 1234');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(
    'ID de operador: esto parece un número de tarjeta. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
  );

  await signIn(page, app, 'agent');
  await page.locator('#lookup-input').fill('CUN-6B3D8F');
  await page.locator('.result').first().waitFor();
  await page.locator('#lookup-input').press('Enter');
  const note = page.getByLabel('Nota del pago (opcional)');
  await note.fill('Pagó con 4242 4242 4242 4242');
  // The note is emptied with the refusal: the card number does not stay on screen.
  await expect(
    page.getByText(
      'Nota: esto parecía un número de tarjeta y se borró. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
    ),
  ).toBeVisible();
  await expect(note).toHaveValue('');
  await note.fill('Depósito, tel. +52 998 123 4567');
  await expect(page.getByLabel('Número de tarjeta')).toBeEnabled();
  await expect(note).toHaveAttribute('aria-invalid', 'false');

  // Nothing typed above reached a file, a log or the audit trail.
  const rows = await app.stack.audit.rows();
  expect(JSON.stringify(rows)).not.toMatch(/4242/);
});
