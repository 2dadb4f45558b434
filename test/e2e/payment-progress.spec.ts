// A payment's progress end to end, through the harness (real IPC door, engine, journal, simulator): the balance still owed goes down
// and today's charge is said before another; a card is kept only with the guest's consent and a declined one never, a
// saved card is charged after Enter once more; a 3-D Secure payment comes back after closing the reservation, after
// the lock and after a restart, is re-sent and abandoned; what the agent typed survives a decline; the idle warning.
import type { Page } from '@playwright/test';
import { expect, test } from './support/harness';
import { expectAccessible, keyCard, openReservation, pageSender, signInAgent, simulatorFault } from './support/desk';
import type { AppHarness } from './support/harness';

const amountField = (page: Page) => page.getByLabel('Amount', { exact: true });

/** Types an amount (and a note), then keys the card and sends it with Enter. */
async function charge(
  page: Page,
  card: string,
  { amount, note, keep = false }: { amount?: string; note?: string; keep?: boolean } = {},
): Promise<void> {
  if (amount !== undefined) await amountField(page).fill(amount);
  if (note !== undefined) await page.getByLabel('Note for the payment (optional)').fill(note);
  if (keep) await page.getByLabel('Keep this card for later charges (the guest agrees)').check();
  await page.getByLabel('Card number').focus();
  await keyCard(page, card);
  await page.keyboard.press('Enter');
}

async function overview(app: AppHarness, reservationId: string) {
  const answer = await app.stack.dispatch('reservations:overview', pageSender(app), { reservationId });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as {
    payments: { status: string }[];
    methods: { last4: string }[];
    inProgress?: { paymentId: string }[];
  };
}

test('the balance still owed goes down after a payment, and the form says what was already charged today', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'CUN-6B3D8F', 'Zoë Anderson');
  await expect(amountField(page)).toHaveValue('980.00');
  await expect(page.getByRole('list', { name: 'Charged today' })).toHaveCount(0);
  await charge(page, '4242424242424242', { amount: '250' });

  const result = page.getByRole('region', { name: 'Payment approved' });
  await expect(result).toContainText('$250.00 USD');
  // The short reference is the payment id's last 8 characters, grouped (as the receipt writes it: shared/payments).
  const id = /pay_[a-f0-9]{32}/.exec((await result.textContent()) ?? '')?.[0] ?? '';
  const tail = id.slice(-8).toUpperCase();
  await expect(result.locator('.reference')).toHaveText(`${tail.slice(0, 4)}-${tail.slice(4)}`);
  await page.getByRole('button', { name: 'Done — new payment' }).click();

  await expect(amountField(page)).toHaveValue('730.00');
  await expect(page.getByRole('list', { name: 'Charged today' })).toContainText(
    /^Already charged \$250\.00 USD today at \d{1,2}:\d{2}\s?[AP]M\.$/,
  );
  await expect(page.getByRole('region', { name: /Zoë Anderson/ })).toContainText('$730.00 USD');
  await expectAccessible(page, 'payment form with today’s charge');
});

test('the result offers a receipt by SMS or e-mail, prefilled from the reservation; in training the outbox shows it with the short reference', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'SJD-8D2F6G', 'Michael Johnson');
  await charge(page, '4242424242424242', { amount: '125' });
  const result = page.getByRole('region', { name: 'Payment approved' });
  const reference = (await result.locator('.reference').textContent()) ?? '';
  expect(reference).toMatch(/^[A-F0-9]{4}-[A-F0-9]{4}$/);
  const receipt = result.getByRole('form', { name: 'Send the receipt to the guest' });
  // Prefilled from the reservation: its phone for SMS, its e-mail for e-mail; the guest's language.
  await expect(receipt.getByLabel('Guest phone (with country code)')).toHaveValue('+1 312 555 0187');
  await expect(receipt.getByLabel('Message language')).toHaveValue('en-US');
  await receipt.getByRole('radio', { name: 'E-mail' }).check();
  await expect(receipt.getByLabel('Guest e-mail')).toHaveValue('michael.johnson@example.com');
  await expectAccessible(page, 'result with the receipt');
  await receipt.getByRole('button', { name: 'Send receipt' }).click();
  await expect(receipt.getByText(/Training: captured for m\*+@example\.com/)).toBeVisible();
  const outbox = page.getByRole('region', { name: 'Training outbox' });
  const mail = outbox.locator('li').filter({ hasText: 'your payment receipt' });
  await expect(mail).toContainText(`we received your payment of $125.00`);
  await expect(mail).toContainText(`Visa`);
  await expect(mail).toContainText('4242');
  await expect(mail).toContainText(`Reference: ${reference}.`);
  // A receipt has no link: nothing for the trainee's cardholder to answer.
  await expect(mail.getByRole('button')).toHaveCount(0);

  // By SMS, too, to the reservation's phone (unchanged), and the button says it goes again.
  await receipt.getByRole('radio', { name: 'SMS' }).check();
  await receipt.getByRole('button', { name: 'Send the receipt again' }).click();
  await expect(receipt.getByText(/Training: captured for \+1 \*+0187/)).toBeVisible();
  await expect(outbox.locator('li').filter({ hasText: `Reference: ${reference}.` })).toHaveCount(2);
  // The result's own button is still the one Enter presses.
  await expect(result.getByRole('button', { name: 'Done — new payment' })).toBeVisible();
});

test('the receipt is sent from the keyboard without losing the focus, and a double Enter sends it once', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'SJD-8D2F6G', 'Michael Johnson');
  await charge(page, '4242424242424242', { amount: '75' });
  const result = page.getByRole('region', { name: 'Payment approved' });
  const receipt = result.getByRole('form', { name: 'Send the receipt to the guest' });
  const reference = (await result.locator('.reference').textContent()) ?? '';
  // Tab to the button and press it: while it is being sent the button must keep the focus (a disabled button drops it to
  // the page, and the agent's next key goes nowhere).
  const send = receipt.getByRole('button', { name: 'Send receipt' });
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(receipt.getByText(/Training: captured for \+1 \*+0187/)).toBeVisible();
  await expect(receipt.getByRole('button', { name: 'Send the receipt again' })).toBeFocused();

  // By e-mail, from its field, a double Enter (a key pressed twice by a hurried agent) sends the guest one receipt, not two.
  await receipt.getByRole('radio', { name: 'E-mail' }).check();
  await receipt.getByLabel('Guest e-mail').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  const outbox = page.getByRole('region', { name: 'Training outbox' });
  await expect(outbox.locator('li').filter({ hasText: `Reference: ${reference}.` })).toHaveCount(2);
  await page.waitForTimeout(500);
  await expect(outbox.locator('li').filter({ hasText: `Reference: ${reference}.` })).toHaveCount(2);
});

test('a card is kept only with the guest’s consent and a declined card never; a saved card is charged after Enter once more', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'SJD-4X6Y9Z', 'Chloé Dubois-Smith');
  await expect(page.getByLabel('Keep this card for later charges (the guest agrees)')).not.toBeChecked();

  // Without consent: paid, not kept.
  await charge(page, '4242424242424242', { amount: '100' });
  await page.getByRole('button', { name: 'Done — new payment' }).click();
  await expect(page.getByLabel('Card number')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Saved cards' })).toHaveCount(0);

  // With consent, but declined: never offered.
  await charge(page, '4000000000000002', { amount: '100', keep: true });
  await expect(
    page
      .locator('form')
      .filter({ has: page.getByLabel('Card number') })
      .getByRole('alert'),
  ).toContainText('declined');
  await expect(page.getByRole('heading', { name: 'Saved cards' })).toHaveCount(0);

  // With consent, paid: kept, the only saved card.
  await expect(page.getByLabel('Keep this card for later charges (the guest agrees)')).not.toBeChecked();
  await charge(page, '5555555555554444', { keep: true });
  await expect(page.getByRole('region', { name: 'Payment approved' })).toContainText('Mastercard •••• 4444');
  await page.getByRole('button', { name: 'Done — new payment' }).click();
  await expect(page.getByRole('heading', { name: 'Saved cards' })).toBeVisible();
  // One saved card to charge (the card form's own key is "Charge <amount>").
  await expect(page.getByRole('button', { name: /^Charge .*••••/ })).toHaveCount(1);
  expect((await overview(app, 'SJD-4X6Y9Z')).methods.map((method) => method.last4)).toEqual(['4444']);

  // The saved card: amount and card shown, nothing charged until Enter.
  await amountField(page).fill('50');
  await page.getByRole('button', { name: 'Charge Mastercard •••• 4444' }).click();
  await expect(page.getByText('Charge $50.00 USD to Mastercard •••• 4444?')).toBeVisible();
  await expect(
    page.getByRole('group', { name: /Mastercard •••• 4444\?$/ }).getByRole('button', { name: 'Charge $50.00 USD' }),
  ).toBeFocused();
  await expectAccessible(page, 'saved card confirmation');
  expect((await overview(app, 'SJD-4X6Y9Z')).payments).toHaveLength(3);
  await page.keyboard.press('Enter');
  const result = page.getByRole('region', { name: 'Payment approved' });
  await expect(result).toContainText('$50.00 USD');
  await expect(result).toContainText('Mastercard •••• 4444');
  expect((await overview(app, 'SJD-4X6Y9Z')).payments).toHaveLength(4);
});

test('amount and note survive a decline; only the card is cleared', async ({ page, app }) => {
  await signInAgent(page, app);
  await openReservation(page, 'SJD-4X6Y9Z', 'Chloé Dubois-Smith');
  await charge(page, '4000000000009995', { amount: '300', note: 'Deposit, room 12' });
  await expect(
    page
      .locator('form')
      .filter({ has: page.getByLabel('Card number') })
      .getByRole('alert'),
  ).toContainText('insufficient funds');
  await expect(amountField(page)).toHaveValue('300');
  await expect(page.getByLabel('Note for the payment (optional)')).toHaveValue('Deposit, room 12');
  await expect(page.getByLabel('Card number')).toHaveValue('');
  await keyCard(page, '5555555555554444');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Payment approved' })).toContainText('$300.00 USD');
});

test('a 3-D Secure payment comes back after closing the reservation, after the lock and after a restart; re-sent by another channel, then abandoned', async ({
  page,
  app,
}) => {
  test.setTimeout(90_000);
  const panel = page.getByRole('region', { name: /Payment status/ });
  /** The live panel, and no new charge. */
  async function panelIsBack(channel: string): Promise<void> {
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('timer')).toHaveText(/^Waiting \d\d:\d\d$/);
    await expect(panel).toContainText(/The link works for another \d\d:\d\d/);
    await expect(panel).toContainText('Tell the guest:');
    await expect(panel).toContainText(`Last sent by ${channel} to`);
    await expect(panel.getByRole('button', { name: 'Send again' })).toBeVisible();
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Charge / })).toHaveCount(0);
  }

  await signInAgent(page, app);
  await openReservation(page, 'SJD-3B7N1C', "Emily O'Connor");
  await charge(page, '4000000000003220');
  await expect(page.getByRole('heading', { name: 'Send the verification link to the guest' })).toBeVisible();
  await expect(panel.getByRole('timer')).toHaveText(/^Waiting 00:0\d$/);
  await expect(panel).toContainText('Tell the guest:');
  // The call's header says what is being charged, not a bare "still owed $0.00".
  const header = page.getByRole('group', { name: 'The call' });
  await expect(header).toContainText('Being charged now: $5,680.00');
  await expect(header).toContainText('Still owed after it: $0.00');
  await panel.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText(/Training: captured for \+1 \*+0143/)).toBeVisible();

  // Closed and reopened.
  await page.getByRole('button', { name: 'Close reservation' }).click();
  await openReservation(page, 'SJD-3B7N1C', "Emily O'Connor");
  await panelIsBack('SMS');
  await expectAccessible(page, 'payment in progress, back');

  // Locked and signed in again.
  await page.getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'The desk was locked' })).toBeVisible();
  await page.locator('#sign-in-id').fill('ana');
  await page.locator('#sign-in-password').fill('agent password 1234');
  await page.keyboard.press('Enter');
  await panelIsBack('SMS');

  // The app restarted: main's stack over the same data folder, the page loaded again.
  await app.restart();
  await signInAgent(page, app);
  await openReservation(page, 'SJD-3B7N1C', "Emily O'Connor");
  await panelIsBack('SMS');

  // Re-sent by WhatsApp (main asks to confirm a quick re-send).
  await panel.getByRole('radio', { name: 'WhatsApp' }).check();
  await panel.getByRole('button', { name: 'Send again' }).click();
  const another = panel.getByRole('button', { name: 'Send another' });
  const captured = panel.getByText(/Training: captured for \+1 \*+0143/);
  await expect(another.or(captured)).toBeVisible();
  if (await another.isVisible()) await another.click();
  await expect(captured).toBeVisible();
  const outbox = page.getByRole('region', { name: 'Training outbox' });
  await expect(outbox.locator('strong', { hasText: /^WhatsApp$/ })).toHaveCount(1);

  // Abandoned: a new card form, and main lists nothing in progress.
  await panel.getByRole('button', { name: 'Abandon and use another card' }).click();
  await expect(page.getByLabel('Card number')).toBeVisible();
  await expect(panel).toHaveCount(0);
  expect((await overview(app, 'SJD-3B7N1C')).inProgress ?? []).toEqual([]);
});

test('abandon while the service cannot be asked: refused, and the agent is told to try again and until when at the latest', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'SJD-8D2F6G', 'Michael Johnson');
  await charge(page, '4000000000003220');
  const panel = page.getByRole('region', { name: /Payment status/ });
  await expect(panel.getByRole('button', { name: 'Abandon and use another card' })).toBeVisible();
  // No link was sent yet: the guest is not asked to ignore one.
  await expect(panel).toContainText('The payment is left to expire unpaid: nothing is charged on it.');
  await expect(panel).not.toContainText('Ask the guest to ignore the link already sent.');
  // Every read of the payment gets a 503 for a while (the abandon's read, and the desk's own checks meanwhile).
  await simulatorFault(app, 'GET /payments/{id}', 'error_503', 40);
  await panel.getByRole('button', { name: 'Abandon and use another card' }).click();
  const refusal = panel.getByRole('alert');
  await expect(refusal).toContainText(
    'it is not abandoned and no other card can be charged yet. Try again in a minute.',
    { timeout: 20_000 },
  );
  await expect(refusal).toContainText(
    /At the latest at \d{1,2}:\d{2}(:\d{2})?\s?[AP]M the link stops working and the payment expires unpaid/,
  );
  // Still blocked: the live panel, no card form.
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await expectAccessible(page, 'abandon refused during an outage');
  // The refusal came while the button was pressed: the focus is still on it (not dropped to the page), so the agent can try again.
  await expect(panel.getByRole('button', { name: 'Abandon and use another card' })).toBeFocused();
});

test('an abandoned payment the guest approves after all: the open reservation says so, with what to do', async ({
  page,
  app,
}) => {
  await signInAgent(page, app);
  await openReservation(page, 'SJD-8D2F6G', 'Michael Johnson');
  await charge(page, '4000000000003220');
  const panel = page.getByRole('region', { name: /Payment status/ });
  await panel.getByRole('button', { name: 'Send link' }).click();
  await expect(panel.getByText(/Training: captured for \+1 \*+0187/)).toBeVisible();
  await panel.getByRole('button', { name: 'Abandon and use another card' }).click();
  await expect(page.getByLabel('Card number')).toBeVisible();
  const notice = page.getByRole('region', { name: 'An abandoned payment was approved after all' });
  await expect(notice).toHaveCount(0);

  // The guest opens the link already sent and approves it (the trainee plays the cardholder from the outbox).
  await page
    .getByRole('region', { name: 'Training outbox' })
    .getByRole('button', { name: 'Cardholder approves' })
    .click();
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(notice.getByRole('alert')).toContainText(
    /The guest approved the payment of \$3,125\.40 USD abandoned at \d{1,2}:\d{2}(:\d{2})?\s?[AP]M/,
  );
  await expect(notice.getByRole('alert')).toContainText(
    'and it went through. If another card was charged for it too, one of the two charges must be refunded: ask a supervisor.',
    { timeout: 20_000 },
  );
  await expectAccessible(page, 'abandoned payment approved after all');
});

test.describe('the idle lock', () => {
  test.use({ idleTimeoutMs: 6_000 });

  test('is announced before it comes, and a key press keeps the desk open', async ({ page, app }) => {
    await signInAgent(page, app);
    const warning = page.getByRole('alert').filter({ hasText: 'The desk locks at' });
    await expect(warning).toBeVisible({ timeout: 10_000 });
    await expect(warning).toContainText('Press any key to keep working.');
    await page.keyboard.press('Shift');
    await expect(warning).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'The desk was locked' })).toHaveCount(0);
    // Left alone again: the warning, then the lock.
    await expect(warning).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('heading', { name: 'The desk was locked' })).toBeVisible({ timeout: 10_000 });
  });
});
