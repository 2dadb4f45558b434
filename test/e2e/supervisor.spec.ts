// The supervisor desk end to end, through the harness (real IPC door, engine, journal, refunds, audit, simulator):
// refunds partial then full, the agent refused by main, manager override with both ids in the audit, the refund limit,
// over-refund blocked before any request, the approvals queue, the end-of-day report and its CSV, accounts, import, axe.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './support/harness';
import type { AppHarness } from './support/harness';
import type { Api } from '../../shared/ipc';
import {
  SUPERVISOR,
  expectAccessible,
  openReservation,
  openSection,
  pageSender,
  payInFull,
  signIn,
} from './support/desk';
import { shortReference } from '../../shared/payments';

/** The supervisor finds a payment by its reservation and opens it; returns the detail's region. */
async function openPayment(page: Page, reservation: string, paymentId: string) {
  await openSection(page, 'Payments');
  await page.getByLabel('Reservation', { exact: true }).fill(reservation);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: `Open ${paymentId}` }).click();
  const detail = page.getByRole('region', { name: `Payment ${paymentId}` });
  await expect(detail).toBeVisible();
  return detail;
}

/** The refunds a payment has on the service's side, asked straight of main (the supervisor is signed in). */
async function refundsOf(app: AppHarness, paymentId: string): Promise<unknown[]> {
  const answer = await app.stack.dispatch('payments:get', pageSender(app), { paymentId });
  expect(answer.ok).toBe(true);
  return answer.ok ? (answer.value as { refunds: unknown[] }).refunds : [];
}

// Each test takes payments as the agent, then works as the supervisor: longer than a single screen's test.
test.describe.configure({ timeout: 90_000 });

const today = (): string => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

test('a supervisor refunds part of a payment, then the rest; both followed to succeeded, then nothing is left', async ({
  page,
  app,
}) => {
  await signIn(page, app, 'agent');
  await expect(page.getByRole('tablist')).toHaveCount(0);
  const paymentId = await payInFull(page, 'MEX-2H8R5T', 'José Ángel Muñoz Pérez');

  await signIn(page, app, 'supervisor');
  await expect(page.getByRole('tab')).toHaveText(['Workspace', 'Payments', 'Approvals', 'Audit', 'Report']);
  const detail = await openPayment(page, 'MEX-2H8R5T', paymentId);
  await expect(page.getByRole('table', { name: 'Payments found' })).toContainText('Visa ·4242');
  await expect(page.getByRole('table', { name: 'Payments found' })).toContainText('ana');
  await expect(detail.getByTestId('refundable')).toHaveText('$3,600.00 MXN');
  await expect(detail).toContainText('Your limits: $10,000.00 MXN per refund, $10,000.00 MXN a day in all.');
  await expectAccessible(page, 'payments: search and detail');

  await detail.getByLabel('Partial').check();
  await detail.getByLabel('Refund amount').fill('1000');
  await detail.getByLabel('Reason').selectOption('requested_by_customer');
  await detail.getByRole('button', { name: 'Refund', exact: true }).click();
  // One confirmation, naming the amount, before the money moves.
  await detail.getByRole('button', { name: 'Refund $1,000.00 MXN' }).click();
  await expect(detail.getByText('Refund of $1,000.00 MXN sent.')).toBeVisible();
  const refunds = detail.locator('.refund-list tbody tr');
  await expect(refunds).toHaveCount(1);
  await expect(refunds.first()).toContainText('Requested by the guest');
  await expect(refunds.first()).toContainText('Refunded', { timeout: 15_000 });
  await expect(detail.getByTestId('refundable')).toHaveText('$2,600.00 MXN');

  // The rest: "full" is all that is left.
  await expect(detail.getByLabel(/^Full: all that is left/)).toBeChecked();
  await expect(detail.getByLabel('Refund amount')).toBeDisabled();
  await expect(detail.getByLabel('Refund amount')).toHaveValue('2600.00');
  await detail.getByLabel('Reason').selectOption('cancellation');
  await detail.getByRole('button', { name: 'Refund', exact: true }).click();
  await detail.getByRole('button', { name: 'Refund $2,600.00 MXN' }).click();
  await expect(refunds).toHaveCount(2);
  await expect(refunds.nth(0)).toContainText('Refunded', { timeout: 15_000 });
  await expect(refunds.nth(1)).toContainText('Refunded', { timeout: 15_000 });
  await expect(detail.getByTestId('refundable')).toHaveText('$0.00 MXN');
  await expect(detail.getByText('Nothing is left to refund on this payment.')).toBeVisible();
  await expect(detail.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
  expect(await refundsOf(app, paymentId)).toHaveLength(2);
});

test("an agent's refund is refused by main even through the channel; the agent asks, a supervisor approves on the same screen", async ({
  page,
  app,
}) => {
  await signIn(page, app, 'agent');
  const paymentId = await payInFull(page, 'MEX-4K6W9Z', 'María Fernanda Gutiérrez Ríos');

  // The renderer calling the channel itself: main refuses by role.
  const direct = await page.evaluate((id) => {
    const bridge = (globalThis as unknown as { api: Api }).api;
    return bridge.refunds.create({
      operationId: crypto.randomUUID(),
      paymentId: id,
      reason: 'duplicate',
      acknowledgedRefundIds: [],
      expectedAmountCents: 180_000,
    });
  }, paymentId);
  expect(direct).toMatchObject({ ok: false, error: { code: 'forbidden' } });

  await page.getByRole('button', { name: `Request refund ${paymentId}` }).click();
  const request = page.getByRole('region', { name: 'Request a refund' });
  await request.getByLabel('Partial').check();
  await request.getByLabel('Refund amount').fill('500');
  await request.getByLabel('Reason').selectOption('duplicate');
  await request.getByLabel(/^Note for the supervisor/).fill('Charged twice by phone');
  await expectAccessible(page, 'agent: request a refund');
  await request.getByRole('button', { name: 'Send request' }).click();
  await expect(request.getByText('Request sent: it waits for a supervisor.')).toBeVisible();

  await request.getByLabel('A supervisor approves now').check();
  await request.getByLabel('Supervisor id').fill(SUPERVISOR.id);
  await request.getByLabel('Supervisor password').fill('not the password 1');
  await request.getByRole('button', { name: 'Approve refund' }).click();
  await expect(request.getByRole('alert')).toBeVisible();
  await expect(request.getByLabel('Supervisor password')).toHaveValue('');
  await expectAccessible(page, 'agent: manager override');
  await request.getByLabel('Supervisor password').fill(SUPERVISOR.password);
  await request.getByRole('button', { name: 'Approve refund' }).click();
  await expect(request.getByText('Requested by ana, approved by sam.')).toBeVisible();
  await expect(request.locator('.refund-list tbody tr').first()).toContainText('Refunded', { timeout: 15_000 });

  // The supervisor's audit shows the approval with both ids.
  await signIn(page, app, 'supervisor');
  await openSection(page, 'Audit');
  await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Approved a refund' });
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  const rows = page.locator('table.audit tbody tr');
  // Newest first: the approval, then the override refused for the wrong password.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Approved a refund');
  // Each row names the desk that wrote it (its id's first 8 characters; the whole id on hover).
  await expect(rows.nth(0).locator('td').last()).toHaveText(/^Desk [0-9a-f]{8}, no\. \d+$/);
  await expect(rows.nth(0)).toContainText('OK');
  await expect(rows.nth(0)).toContainText('Asked by: ana');
  await expect(rows.nth(0)).toContainText('Approved by: sam');
  // The payment by the reference read to the guest, its whole id on hover.
  await expect(rows.nth(0).locator(`[title="${paymentId}"]`)).toHaveText(shortReference(paymentId));
  await expect(rows.nth(1)).toContainText('Refused');
  await expectAccessible(page, 'audit');

  await page.getByRole('button', { name: 'Verify chain' }).click();
  await expect(page.getByRole('alert')).toContainText(/Chains intact: \d+ rows; desks: 1\./);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`audit-${today()}.csv`);
  const csv = await readFile((await file.path()) ?? '', 'utf8');
  expect(csv).toContain('refund.approve');
});

test('over-refund is blocked before any request; a refund above the supervisor limit is refused by main', async ({
  page,
  app,
}) => {
  await signIn(page, app, 'agent');
  const paymentId = await payInFull(page, 'CUN-7F3K2A', 'Sofía Núñez Ortega');

  await signIn(page, app, 'supervisor');
  const detail = await openPayment(page, 'CUN-7F3K2A', paymentId);
  await expect(detail.getByTestId('refundable')).toHaveText('$12,450.00 MXN');

  // More than what is left: said at once, and nothing is sent.
  await detail.getByLabel('Partial').check();
  await detail.getByLabel('Refund amount').fill('12450.01');
  await detail.getByLabel('Reason').selectOption('duplicate');
  await expect(detail.getByText('Only $12,450.00 MXN is left to refund on this payment.')).toBeVisible();
  await expect(detail.getByLabel('Refund amount')).toHaveAttribute('aria-invalid', 'true');
  await detail.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(detail.getByText('No refunds yet.')).toBeVisible();
  const audit = await app.stack.dispatch('audit:list', pageSender(app), { action: 'refund' });
  expect(audit.ok && (audit.value as { rows: unknown[] }).rows).toEqual([]);

  // All of it: above the supervisor's 10,000 MXN.
  await detail.getByLabel(/^Full: all that is left/).check();
  await detail.getByRole('button', { name: 'Refund', exact: true }).click();
  await detail.getByRole('button', { name: 'Refund $12,450.00 MXN' }).click();
  await expect(detail.getByRole('alert')).toContainText('you may refund up to $10,000.00 MXN');
  await expect(detail.getByText('No refunds yet.')).toBeVisible();
  expect(await refundsOf(app, paymentId)).toHaveLength(0);
});

test('the queue: an agent leaves a request, the supervisor approves it from Approvals and sees the refund succeed', async ({
  page,
  app,
}) => {
  await signIn(page, app, 'agent');
  const paymentId = await payInFull(page, 'PVR-5J1L3M', 'Héctor Ibáñez Salazar');
  await page.getByRole('button', { name: `Request refund ${paymentId}` }).click();
  const request = page.getByRole('region', { name: 'Request a refund' });
  await request.getByLabel('Reason').selectOption('cancellation');
  await request.getByRole('button', { name: 'Send request' }).click();
  await request.getByLabel('Leave it in the queue').check();
  await expect(request.getByText('The request waits in the approvals queue')).toBeVisible();
  await expect(request.locator('table').first()).toContainText('Waiting for approval');

  await signIn(page, app, 'supervisor');
  await openSection(page, 'Approvals');
  const row = page.getByRole('row').filter({ hasText: paymentId });
  await expect(row).toContainText('All that is left');
  await expect(row).toContainText('Cancellation');
  await expect(row).toContainText('Ana Agent');
  await expectAccessible(page, 'approvals queue');
  await row.getByRole('button', { name: `Approve… ${paymentId}` }).click();
  await page
    .getByRole('region', { name: 'Approve this refund' })
    .getByRole('button', { name: /^Refund \$/ })
    .click();
  await expect(page.getByText(`Approved: the refund for ${paymentId} was sent.`).first()).toBeVisible();
  await expect(page.locator('.refund-list tbody tr').first()).toContainText('Refunded', { timeout: 15_000 });
  await expect(page.getByText('No request is waiting.')).toBeVisible();
  await page.getByLabel('Show decided requests too').check();
  await expect(page.getByRole('row').filter({ hasText: 'Héctor Ibáñez Salazar' })).toContainText('Approved');
});

test("the end-of-day report: the day's totals match the payments made; CSV download; printable", async ({
  page,
  app,
}) => {
  await signIn(page, app, 'agent');
  await payInFull(page, 'OAX-1S4T8V', 'Raúl Domínguez Aguilar');
  await payInFull(page, 'MID-6P9Q2R', 'Ximena Peña Córdova');

  await signIn(page, app, 'supervisor');
  await openSection(page, 'Report');
  // Today, in the desk's format (mm/dd/yyyy in English), not the browser's date picker.
  const [year, month, day] = today().split('-');
  await expect(page.getByLabel('Day', { exact: true })).toHaveValue(`${month}/${day}/${year}`);
  const byAgent = page.getByRole('table', { name: 'By agent' });
  await expect(byAgent.getByRole('row').filter({ hasText: 'ana' })).toContainText('$1,500.00 MXN');
  await expect(byAgent.getByRole('row').filter({ hasText: 'ana' }).getByRole('cell').nth(1)).toHaveText('2');
  await expect(page.getByRole('table', { name: 'Totals by currency' })).toContainText('$1,500.00 MXN');
  await expect(page.getByRole('table', { name: 'MSI by plan' })).toContainText('Single payment');
  await expect(
    page.getByRole('figure', { name: /Payments by hour in MXN \(in all: 2, for \$1,500\.00 MXN\)/ }),
  ).toBeVisible();
  await expectAccessible(page, 'end-of-day report');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`end-of-day-${today()}.csv`);
  const csv = await readFile((await file.path()) ?? '', 'utf8');
  expect(csv).toContain(`agent,${today()},ana,MXN,2,1500.00,0,0.00,1500.00`);

  // The printed page shows the report alone: no navigation, no buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('tablist')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(byAgent).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  let printed = false;
  await page.exposeFunction('__printed', () => (printed = true));
  await page.evaluate(() => {
    const page = globalThis as unknown as { print: () => void; __printed: () => void };
    page.print = () => page.__printed();
  });
  await page.getByRole('button', { name: 'Print' }).click();
  await expect.poll(() => printed).toBe(true);
});

test('the admin: accounts (create, role, disable, reset password), reservations imported from CSV, and the Lock button', async ({
  page,
  app,
}) => {
  await signIn(page, app, 'admin');
  await expect(page.getByRole('tab')).toHaveText([
    'Workspace',
    'Payments',
    'Approvals',
    'Audit',
    'Report',
    'Accounts',
    'Import reservations',
  ]);
  // Keyboard: arrows move between the tabs.
  await page.getByRole('tab', { name: 'Workspace' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Import reservations' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Accounts' })).toHaveAttribute('aria-selected', 'true');

  const accounts = page.getByRole('table', { name: 'Operator accounts' });
  await expect(accounts).toContainText('sam');
  await page.getByLabel('Operator ID').fill('leo');
  await page.getByLabel('Name', { exact: true }).fill('Leo Agent');
  await page.getByLabel('Role', { exact: true }).selectOption('agent');
  await page.getByLabel(/^Password/).fill('leo password 12345');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Account leo created.')).toBeVisible();
  await page.getByLabel('Role of leo').selectOption('supervisor');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Change to supervisor' }).click();
  await expect(page.getByText('Account leo updated.')).toBeVisible();
  await page.getByRole('button', { name: 'Disable leo' }).click();
  await expect(accounts.getByRole('row').filter({ hasText: 'leo' })).toContainText('Disabled');
  await page.getByRole('button', { name: 'Reset password leo' }).click();
  await page.getByLabel('New password for leo').fill('another password 99');
  await page.getByRole('button', { name: 'Set password', exact: true }).click();
  await expect(page.getByText('The password of leo was changed.')).toBeVisible();
  await expectAccessible(page, 'accounts');
  expect(await app.stack.directory.view('leo')).toMatchObject({ role: 'supervisor', disabled: true });

  await openSection(page, 'Import reservations');
  const header = 'confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due,currency';
  await page.getByLabel('CSV file').setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${header}\nTST-1A2B3C,Test Guest,2026-03-14,2026-03-18,Hotel Test,abc,mxn\n`),
  });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Nothing was imported');
  await expect(page.getByRole('alert')).toContainText('Line 2');
  await expectAccessible(page, 'import with errors');
  await page.getByLabel('CSV file').setInputFiles({
    name: 'good.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${header}\nTST-1A2B3C,Test Guest,2026-03-14,2026-03-18,Hotel Test,100.00,mxn\n`),
  });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText('Imported: 1 new, 0 updated.');

  await page.getByRole('button', { name: 'Lock' }).click();
  await expect(page.getByRole('heading', { name: 'The desk was locked' })).toBeVisible();
});

test('axe on the empty supervisor sections, and F2 returns to the workspace search', async ({ page, app }) => {
  await signIn(page, app, 'supervisor');
  for (const section of ['Payments', 'Approvals', 'Audit', 'Report']) {
    await openSection(page, section);
    await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 }).first()).toBeVisible();
    await expectAccessible(page, `${section}, empty`);
  }
  await page.keyboard.press('F2');
  await expect(page.locator('#lookup-input')).toBeFocused();
  await openReservation(page, 'MEX-7A3C6E', 'Ramón Echeverría Lugo');
});
