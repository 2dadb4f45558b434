// Every word in the desk's language: the Spanish desk driven through the paths where main refuses or
// fails — a wrong password, the payment service unavailable (the simulator's 503 fault), the
// 3DS link's phone check — never shows a sentence main wrote in English. The harness records every `message` main
// sent to the page (errors, answers, events); none of them, nor the phone check's English sentences, may be on screen.
import type { Page } from '@playwright/test';
import { MAX_ATTEMPTS } from '../../main/payments/client';
import { checkEmail, checkPhone } from '../../shared/messaging';
import {
  AGENT,
  ensureOperators,
  expectAccessible,
  futureExpiry,
  signIn as signInAs,
  simulatorFault,
} from './support/desk';
import { expect, test, type AppHarness } from './support/harness';

test.use({ language: 'es-MX' });

/** The phone and e-mail checks' English sentences (shared/messaging), which the renderer must word itself. */
const DESTINATION_ENGLISH = ['', 'abc', '5512345678', '+52 1', 'not an e-mail'].flatMap((typed) => {
  const checks = [checkPhone(typed), checkEmail(typed)];
  return checks.flatMap((check) => (check.ok ? [] : [check.message]));
});

/** Nothing main said in English, and none of the destination checks' English sentences, is on the page now. */
async function expectNoEnglishFromMain(page: Page, app: AppHarness, where: string): Promise<void> {
  const text = await page.locator('body').innerText();
  const shown = [...app.mainMessages, ...DESTINATION_ENGLISH].filter((message) => text.includes(message));
  expect(shown, `English from main on screen: ${where}`).toEqual([]);
}

async function signIn(page: Page, password: string): Promise<void> {
  await page.locator('#sign-in-id').fill(AGENT.id);
  await page.locator('#sign-in-password').fill(password);
  await page.keyboard.press('Enter');
}

async function openReservation(page: Page, query: string, guest: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.type(query);
  await expect(page.getByRole('button', { name: new RegExp(guest) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(guest) })).toBeVisible();
}

async function keyCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Número de tarjeta').focus();
  await page.keyboard.type(number);
  await expect(page.getByLabel('Vencimiento (MM/AA)')).toBeFocused();
  await page.keyboard.type(futureExpiry());
  await page.keyboard.type('123');
}

test('the Spanish desk shows main’s refusals and failures in Spanish, never main’s English sentence', async ({
  page,
  app,
}) => {
  await ensureOperators(app);
  await page.goto(app.url);
  await expect(page).toHaveTitle('Escritorio de pagos con tarjeta');

  // A wrong password: main refuses with invalid_credentials.
  await signIn(page, 'not the password');
  await expect(page.getByRole('alert')).toHaveText('El ID de operador o la contraseña no son correctos.');
  await expectNoEnglishFromMain(page, app, 'wrong password');
  await signIn(page, AGENT.password);
  await expect(page.locator('#lookup-input')).toBeFocused();

  // The payment service unavailable: every try of the card's tokenization (main tries MAX_ATTEMPTS times) gets a 503.
  await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
  await simulatorFault(app, 'POST /methods', 'error_503', MAX_ATTEMPTS);
  await keyCard(page, '4242424242424242');
  await page.keyboard.press('Enter');
  const form = page.locator('form').filter({ has: page.getByLabel('Número de tarjeta') });
  await expect(form.getByRole('alert')).toHaveText(
    'El servicio no está disponible en este momento. Intente de nuevo en un momento.',
    { timeout: 20_000 },
  );
  await expectNoEnglishFromMain(page, app, 'service unavailable');
  await expectAccessible(page, 'service unavailable, es-MX');

  // The 3DS link's phone check, on the panel of a card that asks for 3-D Secure.
  await page.getByRole('button', { name: 'Cerrar reservación' }).click();
  await openReservation(page, 'SJD-4X6Y9Z', 'Chloé Dubois-Smith');
  await keyCard(page, '4000000000003220');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Enviar el enlace de verificación al huésped' })).toBeVisible({
    timeout: 20_000,
  });
  const phone = page.getByLabel('Teléfono del huésped (con código de país)');
  await phone.fill('5512345678');
  await page.getByRole('button', { name: 'Enviar enlace' }).click();
  await expect(
    page.getByText('Escriba el número con su código de país, empezando con + (por ejemplo +52 55 1234 5678).'),
  ).toBeVisible();
  await phone.fill('+52 1');
  await expect(
    page.getByText('Este no es un teléfono válido: revise el código de país y la cantidad de dígitos.'),
  ).toBeVisible();
  await expectNoEnglishFromMain(page, app, 'phone check');

  // Main speaks no sentence to the page at all: each refusal and failure above crossed as its code (and params), and the
  // Spanish shown came from the renderer's catalogues.
  expect([...app.mainMessages]).toEqual([]);
});

test('the Spanish desk words a reservation file’s problems itself, never main’s English sentence for each row', async ({
  page,
  app,
}) => {
  await signInAs(page, app, 'admin');
  await page.getByRole('tab', { name: 'Importar reservaciones' }).click();
  const header = 'confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due,currency,guest_phone';
  const rows = [
    'TST-1A2B3C,Ana López,2026-03-14,2026-03-18,Hotel Uno,100.00,mxn,',
    'TST-9Z8Y7X,Ana López,2026-03-14,2026-03-18,Hotel Uno,abc,mxn,',
    'TST-2B3C4D,Luis Pérez,2026-03-14,2026-03-10,Hotel Dos,100.00,mxn,',
    'TST-4D5E6F,Luis Pérez,2026-03-14,2026-03-18,Hotel Dos,100.00,eur,55 1234 5678',
    'TST-1A2B3C,Ana López,2026-03-14,2026-03-18,Hotel Uno,100.00,mxn,',
    'TST-3C4D5E,Eva Ruiz,2026-03-14,2026-03-18,Hotel Tres,100.00',
  ];
  await page
    .getByLabel('Archivo CSV')
    .setInputFiles({ name: 'malo.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${rows.join('\n')}\n`) });
  await page.getByRole('button', { name: 'Importar', exact: true }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('No se importó nada.');
  await expect(alert).toContainText('Escriba el saldo como un número con punto antes de los centavos');
  await expect(alert).toContainText('La fecha de salida no puede ser anterior a la de llegada.');
  await expect(alert).toContainText('La moneda debe ser mxn o usd.');
  await expect(alert).toContainText('El teléfono debe ser un número real con su código de país');
  await expect(alert).toContainText('Este número de confirmación ya está en la línea 2');
  await expect(alert).toContainText('Esta línea tiene 6 celdas pero el encabezado tiene 8 columnas.');
  await expectNoEnglishFromMain(page, app, 'reservation import');
  await expectAccessible(page, 'import with errors, es-MX');
  // Main did send its English sentences (one per problem): the check above had them to find.
  expect(app.mainMessages.size).toBeGreaterThanOrEqual(6);
});

test('the Spanish desk words "Check again" on a payment without an answer itself', async ({ page, app }) => {
  await ensureOperators(app);
  await page.goto(app.url);
  await signIn(page, AGENT.password);
  await expect(page.locator('#lookup-input')).toBeFocused();
  await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
  // Every try of the charge gets a 503, and the first Check again too: main answers "unanswered" with its English message.
  await simulatorFault(app, 'POST /payments', 'error_503', MAX_ATTEMPTS * 2);
  await keyCard(page, '4242424242424242');
  await page.keyboard.press('Enter');
  const pending = page.getByRole('region', { name: 'Un pago sin respuesta' });
  await expect(pending).toBeVisible({ timeout: 20_000 });
  await pending.getByRole('button', { name: 'Verificar de nuevo' }).click();
  await expect(pending.getByRole('status')).toBeVisible({ timeout: 20_000 });
  await expectNoEnglishFromMain(page, app, 'check again, unanswered');
  expect(app.mainMessages.size).toBeGreaterThan(0);
});
