// Approving is seeing, end to end in Chromium over the real main stack at 1366×768, on the Spanish desk and the English
// one. The supervisor's queue shows what approving a request refunds in money (all that is left of the payment, now),
// the guest, reservation, card, payment date and who asked by name; "Approve…" moves no money: one step names the amount
// on its key, inside the window. A refund made meanwhile changes the amount: main refuses the approval and the key names
// the new one. The decided queue shows who rejected a request, when, and why. A supervisor's own refund of a payment
// takes the same one confirmation. Screenshots 70–74 in test-results/screenshots/<language>/.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Output } from '../../shared/ipc';
import { shortReference } from '../../shared/payments';
import { expectAccessible, expectInView, pageSender, SCREEN, signIn } from './support/desk';
import { expect, test, type AppHarness } from './support/harness';

const WORDS = {
  'en-US': {
    approvals: 'Approvals',
    payments: 'Payments',
    review: /^Approve…/,
    step: 'Approve this refund',
    question: 'Approve a refund of $400.00 USD to Chloé Dubois-Smith?',
    allLeftOf: 'All that is left of $450.00 USD',
    paid: 'Paid ',
    key: (amount: string) => `Refund ${amount}`,
    changed: 'You confirmed a refund of $400.00 USD, but what is left to refund on this payment is now $350.00 USD',
    approved: 'Approved: the refund for',
    reject: /^Reject /,
    rejectNote: 'Why is it rejected?',
    rejectConfirm: 'Reject request',
    showAll: 'Show decided requests too',
    why: 'Why: No cancellation on file; call the hotel first',
    reason: 'Reason',
    submit: 'Refund',
    confirmTitle: 'Confirm the refund',
    none: 'No request is waiting.',
  },
  'es-MX': {
    approvals: 'Aprobaciones',
    payments: 'Pagos',
    review: /^Aprobar…/,
    step: 'Aprobar este reembolso',
    question: '¿Aprobar reembolso de $400.00 USD a Chloé Dubois-Smith?',
    allLeftOf: 'Todo lo que queda de $450.00 USD',
    paid: 'Pagado el ',
    key: (amount: string) => `Reembolsar ${amount}`,
    changed:
      'Usted confirmó un reembolso de $400.00 USD, pero lo que queda por reembolsar en este pago ahora es $350.00 USD',
    approved: 'Aprobada: se envió el reembolso de',
    reject: /^Rechazar /,
    rejectNote: '¿Por qué se rechaza?',
    rejectConfirm: 'Rechazar solicitud',
    showAll: 'Mostrar también las ya decididas',
    why: 'Motivo: No cancellation on file; call the hotel first',
    reason: 'Motivo',
    submit: 'Reembolsar',
    confirmTitle: 'Confirme el reembolso',
    none: 'No hay solicitudes en espera.',
  },
} as const;

/** A channel through main's door as the operator signed in on the page. */
async function door<T>(app: AppHarness, channel: string, input: unknown): Promise<T> {
  const answer = await app.stack.dispatch(channel, pageSender(app), input);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code} ${answer.error.message}`);
  return answer.value as T;
}

/** The signed-in agent charges all that is owed with a Visa ending 4242 (through main's door); the payment once succeeded. */
async function paid(app: AppHarness, reservationId: string, amountCents: number): Promise<Output<'payments:get'>> {
  const method = await door<{ id: string }>(app, 'payments:tokenize', {
    operationId: randomUUID(),
    card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' },
    reservationId,
  });
  const payment = await door<Output<'payments:pay'>>(app, 'payments:pay', {
    operationId: randomUUID(),
    methodId: method.id,
    amountCents,
    currency: 'usd',
    reservationId,
    acknowledgedPaymentIds: [],
  });
  for (let i = 0; i < 100; i += 1) {
    const read = await door<Output<'payments:get'>>(app, 'payments:get', { paymentId: payment.id });
    if (read.status === 'succeeded') return read;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`payment ${payment.id} never succeeded`);
}

/** The refunds the service made of a payment, read through main's door. */
const refundsOf = async (app: AppHarness, paymentId: string) =>
  (await door<Output<'payments:get'>>(app, 'payments:get', { paymentId })).refunds;

for (const language of ['es-MX', 'en-US'] as const) {
  test.describe(`approving is seeing (${language})`, () => {
    test.use({ language, viewport: SCREEN });
    // Two sign-ins, three payments, two axe runs: more than the default on a busy machine.
    test.describe.configure({ timeout: 120_000 });

    test(`the queue and the approval step show the money, guest, reservation, card and who asked; one confirmation names the amount (${language})`, async ({
      page,
      app,
    }) => {
      const words = WORDS[language];
      const dir = path.join('test-results', 'screenshots', language);
      mkdirSync(dir, { recursive: true });

      // The agent charges 450.00 USD of Chloé's stay and she asks for all of it back; and Zoë's 90.00, asked back too.
      await signIn(page, app, 'agent');
      const chloe = await paid(app, 'SJD-4X6Y9Z', 45_000);
      await door(app, 'refunds:request', {
        requestId: randomUUID(),
        paymentId: chloe.id,
        reason: 'cancellation',
        note: 'Cancelled by phone',
      });
      const zoe = await paid(app, 'CUN-6B3D8F', 9_000);
      await door(app, 'refunds:request', { requestId: randomUUID(), paymentId: zoe.id, reason: 'duplicate' });
      // An admin refunds 50.00 USD of Chloé's directly: all that is left is now 400.00 USD.
      await signIn(page, app, 'admin');
      await door(app, 'refunds:create', {
        operationId: randomUUID(),
        paymentId: chloe.id,
        amountCents: 5_000,
        reason: 'requested_by_customer',
        acknowledgedRefundIds: [],
        expectedAmountCents: 5_000,
      });

      await signIn(page, app, 'supervisor');
      await page.getByRole('tab', { name: words.approvals }).click();
      const row = page.getByRole('row').filter({ hasText: 'Chloé Dubois-Smith' });
      await expect(row).toContainText('$400.00 USD');
      await expect(row).toContainText(words.allLeftOf);
      await expect(row).toContainText('SJD-4X6Y9Z');
      await expect(row).toContainText('Visa •••• 4242');
      await expect(row).toContainText(words.paid);
      await expect(row).toContainText('Ana Agent');
      // The reference read to the guest, not the service's id (that only names the buttons for screen readers).
      await expect(row).toContainText(shortReference(chloe.id));
      await expectAccessible(page, `approvals queue (${language})`);
      await page.screenshot({ path: path.join(dir, '70-approvals-queue.png') });

      // "Approve…" moves no money: it opens the one step, whose question and key name the amount.
      await row.getByRole('button', { name: words.review }).click();
      const step = page.getByRole('region', { name: words.step });
      await expect(step.getByText(words.question)).toBeFocused();
      const key = step.getByRole('button', { name: words.key('$400.00 USD') });
      await expectInView(page, key, 'the approval key');
      await expect(step).toContainText('Visa •••• 4242');
      await expect(step).toContainText('SJD-4X6Y9Z');
      await expect(step).toContainText('Ana Agent');
      // A reflex Enter on the focused question presses nothing.
      await page.keyboard.press('Enter');
      expect(await refundsOf(app, chloe.id)).toHaveLength(1);
      await expectAccessible(page, `approval step (${language})`);
      await page.screenshot({ path: path.join(dir, '71-approval-step.png') });

      // Meanwhile another refund of 50.00 USD goes through: the approval of 400.00 is refused, nothing is sent.
      const made = (await refundsOf(app, chloe.id)).map((r) => r.id);
      await door(app, 'refunds:create', {
        operationId: randomUUID(),
        paymentId: chloe.id,
        amountCents: 5_000,
        reason: 'requested_by_customer',
        acknowledgedRefundIds: made,
        expectedAmountCents: 5_000,
      });
      await key.click();
      await expect(step.getByRole('alert')).toContainText(words.changed);
      expect(await refundsOf(app, chloe.id)).toHaveLength(2);
      const newKey = step.getByRole('button', { name: words.key('$350.00 USD') });
      await expect(newKey).toBeVisible();
      await expectInView(page, newKey, 'the approval key, amount read again');
      await page.screenshot({ path: path.join(dir, '72-approval-amount-changed.png') });
      await newKey.click();
      await expect(page.getByText(words.approved).first()).toBeVisible();
      const refunds = await refundsOf(app, chloe.id);
      expect(refunds.map((r) => r.amountCents).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([5_000, 5_000, 35_000]);

      // Zoë's request is rejected with a note: the decided queue shows who, when and why.
      const other = page.getByRole('row').filter({ hasText: 'CUN-6B3D8F' });
      await other.getByRole('button', { name: words.reject }).click();
      await other.getByLabel(words.rejectNote).fill('No cancellation on file; call the hotel first');
      await other.getByRole('button', { name: words.rejectConfirm }).click();
      await expect(page.getByText(words.none)).toBeVisible();
      await page.getByLabel(words.showAll).check();
      const rejected = page.getByRole('row').filter({ hasText: 'CUN-6B3D8F' });
      await expect(rejected).toContainText(words.why);
      await expect(rejected).toContainText('Sam Supervisor, ');
      await page.screenshot({ path: path.join(dir, '73-approvals-decided.png') });

      // The supervisor's own refund of Zoë's payment: "Refund" opens the one confirmation, the key names the amount.
      await page.getByRole('tab', { name: words.payments }).click();
      await page.locator('form.filters button[type=submit]').click();
      await page.getByRole('row').filter({ hasText: 'CUN-6B3D8F' }).getByRole('button').first().click();
      const detail = page.locator('.payment-detail');
      await detail.getByLabel(words.reason, { exact: true }).selectOption('duplicate');
      await detail.getByRole('button', { name: words.submit, exact: true }).click();
      const confirm = page.getByRole('region', { name: words.confirmTitle });
      const refundKey = confirm.getByRole('button', { name: words.key('$90.00 USD') });
      await expectInView(page, refundKey, 'the refund key');
      expect(await refundsOf(app, zoe.id)).toHaveLength(0);
      await page.screenshot({ path: path.join(dir, '74-refund-confirm.png') });
      await refundKey.click();
      await expect.poll(async () => (await refundsOf(app, zoe.id)).map((r) => r.amountCents)).toEqual([9_000]);
    });
  });
}
