// Screenshots of every screen in both languages at 1366×768 (an agent's laptop), written to
// test-results/screenshots/<language>/ (see the README), with axe run on each one in Spanish too (the English run is in
// workspace.spec.ts). On the agent's screens the call's header (guest, confirmation number, amount owed) and the
// active panel's main button or result are checked to be inside the window, by their boxes, not only captured.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/harness';
import { expectAccessible, expectInView, futureExpiry, SCREEN, signIn } from './support/desk';

const WORDS = {
  'en-US': {
    card: 'Card number',
    msi: 'Pay in monthly installments without interest (MSI)',
    approved: 'Payment approved',
    plans: 'Monthly installments (MSI)',
    send: 'Send link',
    locked: 'The desk was locked',
    lock: 'Lock',
    confirm: 'Confirm payment',
    next: 'Done — new payment',
    keep: 'Keep this card for later charges (the guest agrees)',
    amount: 'Amount',
    receipt: 'Send receipt',
    close: 'Close reservation',
    abandon: 'Abandon and use another card',
  },
  'es-MX': {
    card: 'Número de tarjeta',
    msi: 'Pagar a meses sin intereses (MSI)',
    approved: 'Pago aprobado',
    plans: 'Meses sin intereses (MSI)',
    send: 'Enviar enlace',
    locked: 'El equipo se bloqueó',
    lock: 'Bloquear',
    confirm: 'Confirmar pago',
    next: 'Listo — nuevo cobro',
    keep: 'Guardar esta tarjeta para cobros futuros (el huésped lo acepta)',
    amount: 'Monto',
    receipt: 'Enviar recibo',
    close: 'Cerrar reservación',
    abandon: 'Abandonar y usar otra tarjeta',
  },
} as const;

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`screens in ${language}`, () => {
    test.use({ language, viewport: SCREEN });

    test(`every screen, captured (${language})`, async ({ page, app }) => {
      // Fifteen screens, each through axe and a capture: ~50 s alone, more on a busy machine.
      test.setTimeout(180_000);
      const words = WORDS[language];
      const dir = path.join('test-results', 'screenshots', language);
      mkdirSync(dir, { recursive: true });
      let n = 0;
      const shot = async (name: string): Promise<void> => {
        n++;
        await expectAccessible(page, `${name} (${language})`);
        // The window as the agent sees it (what is below the fold is not in the picture).
        await page.screenshot({ path: path.join(dir, `${String(n).padStart(2, '0')}-${name}.png`) });
      };
      /** The call's header and the active panel's main control (or result), both inside the window. */
      const header = page.locator('.reservation-bar');
      const expectCallInView = async (active: Locator, what: string): Promise<void> => {
        await expect(header).toBeVisible();
        await expect(header).toContainText(/ · |[A-Z]{3}-[0-9A-Z]{6}/);
        await expectInView(page, header, `the call's header (${what})`);
        await expectInView(page, active, what);
      };
      const openFirstTo = async (query: string, ready: Locator): Promise<void> => {
        await page.locator('#lookup-input').fill(query);
        await page.locator('.result').first().waitFor();
        await page.locator('#lookup-input').press('Enter');
        await expect(ready).toBeVisible();
      };
      const openFirst = async (query: string): Promise<void> => {
        await openFirstTo(query, page.getByLabel(words.card));
        await expect(page.getByLabel(words.card)).toBeFocused();
      };
      const keyCard = async (p: Page, number: string): Promise<void> => {
        await p.keyboard.type(number);
        await p.keyboard.type(futureExpiry());
        await p.keyboard.type('123');
      };

      await page.goto(app.url);
      await expect(page.locator('#first-admin-id')).toBeFocused();
      await shot('first-admin');
      await app.stack.directory.createFirstAdmin({
        id: 'ada',
        displayName: 'Ada Admin',
        password: 'a long password 42',
      });
      await app.stack.directory.createOperator('ada', {
        id: 'ana',
        displayName: 'Ana Agent',
        role: 'agent',
        password: 'agent password 1234',
      });
      await page.reload();
      await expect(page.locator('#sign-in-id')).toBeFocused();
      await shot('sign-in');
      await page.locator('#sign-in-id').fill('ana');
      await page.locator('#sign-in-password').fill('agent password 1234');
      await page.keyboard.press('Enter');
      await expect(page.locator('#lookup-input')).toBeFocused();
      await shot('workspace');
      await page.locator('#lookup-input').fill('Núñez');
      await page.locator('.result').first().waitFor();
      await shot('lookup-results');

      await openFirst('CUN-7F3K2A');
      await page.getByLabel(words.msi).check();
      await page.getByLabel(words.card).focus();
      await expectCallInView(page.getByLabel(words.card), 'the card number');
      await shot('card-entry');
      await keyCard(page, '4000004840000008');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: words.plans })).toBeVisible();
      await expectCallInView(page.getByRole('button', { name: words.confirm }), 'the plans’ confirm button');
      await shot('msi-plans');
      // No plan is chosen beforehand: the agent chooses one with the guest, then confirms.
      await page.getByLabel(/^3 /).check();
      await page.getByRole('button', { name: words.confirm }).click();
      await expect(page.getByRole('heading', { name: words.approved })).toBeVisible();
      await expectCallInView(page.getByRole('heading', { name: words.approved }), 'the result');
      await expectCallInView(page.getByRole('button', { name: words.next }), 'the result’s button');
      await shot('result');
      // The receipt, sent by SMS to the reservation's phone (training: captured in the outbox).
      await page.getByRole('button', { name: words.receipt }).click();
      await expect(page.locator('.receipt .deliveries li')).toHaveCount(1);
      await page.locator('.receipt .deliveries').scrollIntoViewIfNeeded();
      await shot('result-receipt-sent');

      // A card kept with the guest's consent, then charged again after its confirmation.
      await openFirst('CUN-5Z2A8B');
      await page.getByLabel(words.amount, { exact: true }).fill('100');
      await page.getByLabel(words.keep).check();
      await page.getByLabel(words.card).focus();
      await keyCard(page, '5555555555554444');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: words.next }).click();
      await page.getByLabel(words.amount, { exact: true }).fill('50');
      await page.getByRole('button', { name: /•••• 4444/ }).click();
      await expect(page.getByRole('button', { name: /50\.00/ }).last()).toBeFocused();
      await expectCallInView(page.getByRole('button', { name: /50\.00/ }).last(), 'the saved card’s confirm button');
      await shot('saved-card-confirm');

      await openFirst('SJD-3B7N1C');
      await keyCard(page, '4000000000003220');
      await page.keyboard.press('Enter');
      await expectCallInView(page.getByRole('button', { name: words.send }), 'the 3DS panel’s send button');
      await page.getByRole('button', { name: words.send }).click();
      await expect(page.locator('.deliveries li')).toHaveCount(1);
      // The training outbox shows the link as the guest would receive it, newest first.
      await expect(page.locator('.outbox__message').first()).toContainText('3220');
      await shot('3ds-link-and-outbox');
      // Closed and opened again: the payment in progress comes back, with its waiting bar and "Abandon".
      await page.getByRole('button', { name: words.close }).click();
      await openFirstTo('SJD-3B7N1C', page.getByRole('button', { name: words.abandon }));
      await expectCallInView(page.locator('.waiting-bar'), 'the waiting bar');
      await shot('3ds-waiting-back');

      await openFirst('MEX-2H8R5T');
      await keyCard(page, '4000000000000002');
      await page.keyboard.press('Enter');
      await expect(
        page
          .locator('form')
          .filter({ has: page.getByLabel(words.card) })
          .getByRole('alert'),
      ).toBeVisible();
      await expectCallInView(
        page
          .locator('form')
          .filter({ has: page.getByLabel(words.card) })
          .getByRole('alert'),
        'the decline',
      );
      await shot('decline-in-form');

      // The Lock button (the idle lock has its own test in workspace.spec.ts; a short one here could fire mid-run on a busy machine).
      await page.getByRole('button', { name: words.lock, exact: true }).click();
      await expect(page.getByRole('heading', { name: words.locked })).toBeVisible();
      await shot('locked');
    });
  });
}

const DESK_WORDS = {
  'en-US': {
    approved: 'Payment approved',
    request: 'Request refund',
    requestTitle: 'Request a refund',
    now: 'A supervisor approves now',
  },
  'es-MX': {
    approved: 'Pago aprobado',
    request: 'Solicitar reembolso',
    requestTitle: 'Solicitar un reembolso',
    now: 'Un supervisor la aprueba ahora',
  },
} as const;

// The supervisor's and admin's sections, after an agent's payment and refund request (the default idle lock: no lock here).
for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`supervisor screens in ${language}`, () => {
    test.use({ language, viewport: SCREEN });

    test(`every supervisor and admin screen, captured (${language})`, async ({ page, app }) => {
      test.setTimeout(120_000);
      const words = DESK_WORDS[language];
      const dir = path.join('test-results', 'screenshots', language);
      mkdirSync(dir, { recursive: true });
      let n = 20;
      const shot = async (name: string): Promise<void> => {
        n++;
        await expectAccessible(page, `${name} (${language})`);
        await page.screenshot({ path: path.join(dir, `${String(n).padStart(2, '0')}-${name}.png`), fullPage: true });
      };
      const tab = async (index: number): Promise<void> => {
        await page.getByRole('tab').nth(index).click();
        await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 }).first()).toBeVisible();
      };

      await signIn(page, app, 'agent');
      await page.locator('#lookup-input').fill('MEX-2H8R5T');
      await page.locator('.result').first().waitFor();
      await page.locator('#lookup-input').press('Enter');
      // Typed only once the card form has the focus: on a busy machine the keys otherwise land in the search box.
      await expect(page.getByLabel(WORDS[language].card)).toBeFocused();
      await page.keyboard.type('4242424242424242');
      await page.keyboard.type(futureExpiry());
      await page.keyboard.type('123');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: words.approved })).toBeVisible();
      await page.getByRole('button', { name: new RegExp(`^${words.request} pay_`) }).click();
      const request = page.getByRole('region', { name: words.requestTitle });
      await request.locator('select').selectOption('requested_by_customer');
      await shot('agent-refund-request');
      await request.locator('button[type=submit]').click();
      await request.getByLabel(words.now).check();
      await shot('agent-manager-override');

      await signIn(page, app, 'supervisor');
      await tab(1);
      await page.locator('form.filters button[type=submit]').click();
      await page.locator('.table-scroll tbody button').first().click();
      await expect(page.locator('.payment-detail')).toBeVisible();
      await shot('supervisor-payments');
      await tab(2);
      await expect(page.locator('.table tbody tr')).toHaveCount(1);
      await shot('supervisor-approvals');
      await tab(3);
      await expect(page.locator('table.audit tbody tr').first()).toBeVisible();
      await shot('supervisor-audit');
      await tab(4);
      await expect(page.getByRole('figure')).toBeVisible();
      await shot('supervisor-report');

      await signIn(page, app, 'admin');
      await tab(5);
      await expect(page.locator('.table tbody tr')).toHaveCount(3);
      await shot('admin-accounts');
      await tab(6);
      await shot('admin-import');
      const header = 'confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due,currency';
      await page.locator('input[type=file]').setInputFiles({
        name: 'bad.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `${header}\nTST-1A2B3C,Test Guest,2026-03-14,2026-03-18,Hotel Test,abc,mxn\nTST-2B3C4D,Test Guest,2026-03-14,2026-03-10,Hotel Test,10.00,mxn\n`,
        ),
      });
      await page.locator('form button[type=submit]').click();
      await expect(page.locator('ul.errors li')).toHaveCount(2);
      await shot('admin-import-errors');
    });
  });
}

const UPDATE_WORDS = { 'en-US': 'Restart now', 'es-MX': 'Reiniciar ahora' } as const;

// The update banner: main's auto-update (electron-updater, which cannot run here) stands in as a ready status.
for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`update banner in ${language}`, () => {
    test.use({ language, viewport: SCREEN, updateStatus: { state: 'ready', version: '0.2.0', channel: 'stable' } });

    test(`a ready update, captured (${language})`, async ({ page, app }) => {
      const dir = path.join('test-results', 'screenshots', language);
      mkdirSync(dir, { recursive: true });
      await signIn(page, app, 'agent');
      await expect(page.getByRole('button', { name: UPDATE_WORDS[language] })).toBeVisible();
      await expect(page.getByText('0.2.0')).toBeVisible();
      await expectAccessible(page, `update ready (${language})`);
      await page.screenshot({ path: path.join(dir, '40-update-ready.png') });
    });
  });
}
