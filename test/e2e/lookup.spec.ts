// Finding anything the guest can say, end to end in Chromium over the real main stack at 1366×768: the spellings agents
// type in the lookup (a curly apostrophe, no apostrophe, a hyphenated surname without its hyphen, words in another
// order, "Last, First" as imported, a part of the confirmation number, the start of a phone), and the short reference
// read to the guest, in the lookup and in the supervisor's payments search. Screenshots in
// test-results/screenshots/<language>/.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { shortReference } from '../../shared/payments';
import { ADMIN, AGENT, ensureOperators, expectAccessible, openSection, pageSender, signIn } from './support/desk';
import { expect, test, type AppHarness } from './support/harness';

const RESERVATION = 'MEX-2H8R5T';
const GUEST = 'José Ángel Muñoz Pérez';

/** A guest imported as "García, Pedro" (the hotel's export writes the surname first), through the admin's import. */
async function importGarcia(app: AppHarness): Promise<void> {
  await ensureOperators(app);
  await app.stack.dispatch('session:signOut', pageSender(app), {});
  expect(
    (await app.stack.dispatch('session:signIn', pageSender(app), { id: ADMIN.id, password: ADMIN.password })).ok,
  ).toBe(true);
  const csv = [
    'confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due,currency,guest_phone,guest_email',
    `CUN-4P8Q2R,"García, Pedro",${new Date().getUTCFullYear() + 1}-03-02,${new Date().getUTCFullYear() + 1}-03-05,Hotel Costa Turquesa Cancún,1200.00,mxn,+529981110099,`,
  ].join('\n');
  expect(await app.stack.dispatch('reservations:importCsv', pageSender(app), { csv })).toMatchObject({
    ok: true,
    value: { ok: true },
  });
  await app.stack.dispatch('session:signOut', pageSender(app), {});
}

/** A payment on the reservation, made at the door as the agent's screen makes it: its id. */
async function paymentOn(app: AppHarness, reservationId: string): Promise<string> {
  await ensureOperators(app);
  const sender = pageSender(app);
  await app.stack.dispatch('session:signOut', sender, {});
  expect((await app.stack.dispatch('session:signIn', sender, { id: AGENT.id, password: AGENT.password })).ok).toBe(
    true,
  );
  const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' };
  const method = await app.stack.dispatch('payments:tokenize', sender, {
    operationId: randomUUID(),
    card,
    reservationId,
  });
  if (!method.ok) throw new Error(`tokenize: ${method.error.code}`);
  const methodId = (method.value as { id: string }).id;
  const paid = await app.stack.dispatch('payments:pay', sender, {
    operationId: randomUUID(),
    methodId,
    amountCents: 10_000,
    currency: 'mxn',
    reservationId,
    acknowledgedPaymentIds: [],
  });
  if (!paid.ok) throw new Error(`pay: ${paid.error.code}`);
  await app.stack.dispatch('session:signOut', sender, {});
  return (paid.value as { id: string }).id;
}

/** Types the text in the lookup (F2, the old text replaced) and expects the guest as the first match. */
async function findFirst(page: Page, text: string, guest: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.locator('#lookup-input').fill('');
  await page.keyboard.type(text);
  const first = page
    .getByRole('list', { name: /Reservaciones encontradas|Reservations found/ })
    .getByRole('button')
    .first();
  await expect(first, text).toContainText(guest);
}

const SPELLINGS: readonly [string, string][] = [
  ['O’Connor', "Emily O'Connor"],
  ['oconnor', "Emily O'Connor"],
  ['dubois smith', 'Chloé Dubois-Smith'],
  ['Ortega Sofia', 'Sofía Núñez Ortega'],
  ['garcia pedro', 'García, Pedro'],
  ['6B3D8F', 'Zoë Anderson'],
  ['CUN-6B3D', 'Zoë Anderson'],
  ['998 123', 'Sofía Núñez Ortega'],
];

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`${language}`, () => {
    test.use({ language, viewport: { width: 1366, height: 768 } });
    const es = language === 'es-MX';
    const shot = (name: string): string => {
      const dir = path.join('test-results', 'screenshots', language);
      mkdirSync(dir, { recursive: true });
      return path.join(dir, name);
    };

    test('the lookup finds the guest as the agent types what the guest says', async ({ page, app }) => {
      test.setTimeout(90_000);
      await importGarcia(app);
      await signIn(page, app, 'agent');
      for (const [text, guest] of SPELLINGS) await findFirst(page, text, guest);
      await findFirst(page, 'Ortega Sofia', 'Sofía Núñez Ortega');
      await expect(page.getByText(es ? /referencia corta de un pago/ : /a payment's short reference/)).toBeVisible();
      await expectAccessible(page, `lookup (${language})`);
      await page.screenshot({ path: shot(es ? '85-lookup-words.png' : '88-lookup-words.png') });
    });

    test('the short reference finds the reservation in the lookup and the payment in the payments search', async ({
      page,
      app,
    }) => {
      test.setTimeout(90_000);
      const paymentId = await paymentOn(app, RESERVATION);
      const reference = shortReference(paymentId);
      await signIn(page, app, 'agent');
      await findFirst(page, reference.replace('-', '').toLowerCase(), GUEST);
      await findFirst(page, reference, GUEST);
      if (es) await page.screenshot({ path: shot('86-lookup-short-reference.png') });
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 2, name: new RegExp(GUEST) })).toBeVisible();

      await signIn(page, app, 'supervisor');
      await openSection(page, es ? 'Pagos' : 'Payments');
      // A reference missing its last characters is refused next to what to type, in the desk's language.
      const field = page.getByLabel(es ? 'Referencia corta' : 'Short reference');
      const searchKey = page.getByRole('button', { name: es ? 'Buscar' : 'Search', exact: true });
      await field.fill(reference.slice(0, 7));
      await searchKey.click();
      await expect(page.getByRole('alert')).toContainText(
        es ? 'Referencia corta: escriba sus 8 caracteres' : 'Short reference: type its 8 characters',
      );
      await field.fill(reference.toLowerCase());
      await searchKey.click();
      const rows = page.getByRole('table').getByRole('row');
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(1)).toContainText(RESERVATION);
      await expectAccessible(page, `payments search by short reference (${language})`);
      await page.screenshot({ path: shot(es ? '87-payments-short-reference.png' : '89-payments-short-reference.png') });
    });
  });
}
