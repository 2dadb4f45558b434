// A window at once, end to end in Chromium over the real main stack at 1366×768: the app stopped with three payments whose
// answers were lost; at its next start the page shows the start-up screen before the stack is open, then "completing 2
// of 3" while recovery sends each again with its key (and not to close the app meanwhile), every other call refused as
// `starting` and never shown; once ready, the sign-in, and the agent is told first what the restart completed.
// Screenshots 102–105 in test-results/screenshots/<language>/.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { MAX_ATTEMPTS } from '../../main/payments/client';
import { AGENT, ensureOperators, expectAccessible, futureExpiry, pageSender, simulatorFault } from './support/desk';
import { expect, test, type AppHarness } from './support/harness';

// Three reservations of the training data (main/reservations/demo.ts), each charged once.
const CHARGES = [
  { reservationId: 'CUN-6B3D8F', amountCents: 98_000, currency: 'usd' },
  { reservationId: 'SJD-3B7N1C', amountCents: 25_000, currency: 'usd' },
  { reservationId: 'MEX-4K6W9Z', amountCents: 50_000, currency: 'mxn' },
];

/** The agent charges each reservation through main's door, and every answer is lost (the service made each payment). */
async function chargesWithLostAnswers(app: AppHarness): Promise<void> {
  await ensureOperators(app);
  const call = (channel: string, input: unknown) => app.stack.dispatch(channel, pageSender(app), input);
  expect((await call('session:signIn', { id: AGENT.id, password: AGENT.password })).ok).toBe(true);
  const expiry = futureExpiry();
  for (const { reservationId, amountCents, currency } of CHARGES) {
    const card = {
      number: '4242424242424242',
      expMonth: Number(expiry.slice(0, 2)),
      expYear: 2000 + Number(expiry.slice(2)),
      cvv: '123',
    };
    const method = await call('payments:tokenize', { operationId: randomUUID(), card, reservationId });
    if (!method.ok) throw new Error(`tokenize: ${method.error.code}`);
    await simulatorFault(app, 'POST /payments', 'drop_after_commit', MAX_ATTEMPTS);
    const paid = await call('payments:pay', {
      operationId: randomUUID(),
      methodId: (method.value as { id: string }).id,
      amountCents,
      currency,
      reservationId,
      acknowledgedPaymentIds: [],
    });
    expect(paid.ok).toBe(false);
  }
}

const WORDS = {
  'es-MX': {
    starting: 'Iniciando el escritorio…',
    second: 'Completando 2 de 3 operaciones sin respuesta…',
    doNotClose: 'No cierre la aplicación mientras se completan.',
    progress: 'Operaciones completadas',
    signIn: 'Iniciar sesión',
    id: 'ID de operador',
    password: 'Contraseña',
    recovered: 'Completado después del reinicio',
    stillStarting: 'todavía se está iniciando',
  },
  'en-US': {
    starting: 'Starting the desk…',
    second: 'Completing 2 of 3 operations left without an answer…',
    doNotClose: 'Do not close the app while they complete.',
    progress: 'Operations completed',
    signIn: 'Sign in',
    id: 'Operator ID',
    password: 'Password',
    recovered: 'Completed after the restart',
    stillStarting: 'still starting',
  },
} as const;

async function startUpAfterLostAnswers(page: Page, app: AppHarness, language: keyof typeof WORDS): Promise<void> {
  const words = WORDS[language];
  const dir = path.join('test-results', 'screenshots', language);
  mkdirSync(dir, { recursive: true });
  await chargesWithLostAnswers(app);

  // The app starts again: the window is there before the stack is open.
  await app.restart({ held: true });
  const shell = page.getByRole('main');
  await expect(shell.getByRole('status')).toHaveText(words.starting);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expectAccessible(page, `start-up screen, starting (${language})`);
  await page.screenshot({ path: path.join(dir, '102-startup-starting.png') });

  // The stack opens and recovery sends the first operation again, whose answer is held: "1 of 3".
  app.held.next();
  await expect(shell.getByRole('status')).toHaveText(words.second.replace('2', '1'));
  // The first answered, the second held: "2 of 3", with the bar and the warning not to close the app.
  app.held.next();
  await expect(shell.getByRole('status')).toHaveText(words.second);
  await expect(shell.getByRole('progressbar', { name: words.progress })).toHaveAttribute('value', '1');
  await expect(shell.getByRole('alert')).toContainText(words.doNotClose);
  // Any other call now is refused as `starting` by main's door (through the preload's own bridge), and never shown.
  const refused = await page.evaluate(() =>
    (globalThis as unknown as { api: { session: { status(input: object): Promise<unknown> } } }).api.session.status({}),
  );
  expect(refused).toMatchObject({ ok: false, error: { code: 'starting' } });
  await expect(page.getByText(words.stillStarting)).toHaveCount(0);
  await expectAccessible(page, `start-up screen, recovering (${language})`);
  await page.screenshot({ path: path.join(dir, '103-startup-recovering.png') });

  // Every operation answered: the desk is ready and the sign-in shows by itself.
  await app.held.finish();
  const form = page.getByRole('form', { name: words.signIn });
  await expect(form).toBeVisible();
  await page.screenshot({ path: path.join(dir, '104-startup-ready-sign-in.png') });

  await page.getByLabel(words.id).fill(AGENT.id);
  await page.getByLabel(words.password).fill(AGENT.password);
  await page.keyboard.press('Enter');
  // The agent is told first what the restart completed: the three payments, each once.
  const notices = page.getByRole('region', { name: words.recovered });
  await expect(notices).toBeVisible({ timeout: 20_000 });
  await expect(notices.getByRole('listitem')).toHaveCount(3);
  for (const { reservationId } of CHARGES)
    await expect(notices.getByRole('listitem').filter({ hasText: reservationId })).toHaveCount(1);
  await page.screenshot({ path: path.join(dir, '105-startup-recovered.png') });
}

test.describe('es-MX', () => {
  test.use({ language: 'es-MX', viewport: { width: 1366, height: 768 } });
  test('the start-up screen, then the sign-in once ready (es-MX)', async ({ page, app }) => {
    test.setTimeout(90_000);
    await startUpAfterLostAnswers(page, app, 'es-MX');
  });
});

test.describe('en-US', () => {
  test.use({ language: 'en-US', viewport: { width: 1366, height: 768 } });
  test('the start-up screen, then the sign-in once ready (en-US)', async ({ page, app }) => {
    test.setTimeout(90_000);
    await startUpAfterLostAnswers(page, app, 'en-US');
  });
});
