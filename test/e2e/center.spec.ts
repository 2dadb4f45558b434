// One call center end to end: two desk windows of one call center, each a full harness stack with its own data folder, both on
// one real PostgreSQL (Debian's server, started here as the postgres user on a free port in a temp folder, set up by
// docs/center/setup.sql and migrated by its owner as IT would) and one simulator. The agent at desk A leaves a refund
// request in the queue; the supervisor at desk B sees it in the center's queue and approves it; the agent's reservation
// at desk A then shows the refund as "Refunded". Nothing is mocked.
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { CENTER_STORES } from '../../main/center';
import { launchSimulator, type RunningSimulator } from '../support/simulator';
import { centerStorage } from '../../main/storage';
import { createCenter, type TestCenter } from '../support/center';
import { startPostgres, type PostgresServer } from '../support/postgres';
import { startHarness, type AppHarness } from './support/harness';
import { openReservation, openSection, payInFull, signIn } from './support/desk';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

let server: PostgresServer;
let center: TestCenter;
let sim: RunningSimulator;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startPostgres();
  center = await createCenter(server, { stores: CENTER_STORES });
  sim = await launchSimulator({ processingDelayMs: 300, refundDelayMs: 300 });
});

test.afterAll(async () => {
  await sim?.close();
  await center?.drop().catch(() => undefined);
  await server?.stop();
});

async function deskWindow(
  browser: Browser,
  language: 'en-US' | 'es-MX' = 'en-US',
): Promise<{ page: Page; app: AppHarness & { stop(): Promise<void> } }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  const app = await startHarness(page, {
    language,
    processingDelayMs: 300,
    idleTimeoutMs: undefined,
    simulator: sim,
    storage: () => centerStorage(center.app),
  });
  return { page, app };
}

/** The agent asks for a refund of the payment and leaves it in the approvals queue (as a cancellation). */
async function leaveRequestInQueue(page: Page, paymentId: string): Promise<void> {
  await page.getByRole('button', { name: `Request refund ${paymentId}` }).click();
  const request = page.getByRole('region', { name: 'Request a refund' });
  await request.getByLabel('Reason').selectOption('cancellation');
  await request.getByRole('button', { name: 'Send request' }).click();
  await request.getByLabel('Leave it in the queue').check();
  await expect(request.getByText('The request waits in the approvals queue')).toBeVisible();
}

test("two desks of one center: the agent's request at desk A is approved by the supervisor at desk B, and A's reservation shows it refunded", async ({
  browser,
}) => {
  const a = await deskWindow(browser);
  const b = await deskWindow(browser);
  try {
    const [infoA, infoB] = await Promise.all([
      a.app.stack.dispatch('app:info', { url: a.app.url, isMainFrame: true, webContentsId: 1 }, {}),
      b.app.stack.dispatch('app:info', { url: b.app.url, isMainFrame: true, webContentsId: 1 }, {}),
    ]);
    expect(infoA.ok && infoB.ok).toBe(true);
    if (infoA.ok && infoB.ok) {
      expect((infoA.value as { deskId: string }).deskId).not.toBe((infoB.value as { deskId: string }).deskId);
      expect((infoB.value as { storage: string }).storage).toBe('center');
    }

    // Desk A: the operators are created once, in the center; the agent takes a payment and leaves a refund request.
    await signIn(a.page, a.app, 'agent');
    const paymentId = await payInFull(a.page, 'PVR-5J1L3M', 'Héctor Ibáñez Salazar');
    await leaveRequestInQueue(a.page, paymentId);

    // Desk B: the supervisor signs in with the account made at desk A and finds the request in the center's queue.
    await signIn(b.page, b.app, 'supervisor');
    await openSection(b.page, 'Approvals');
    const queued = b.page.getByRole('row').filter({ hasText: paymentId });
    await expect(queued).toContainText('Ana Agent');
    await queued.getByRole('button', { name: `Approve… ${paymentId}` }).click();
    await b.page
      .getByRole('region', { name: 'Approve this refund' })
      .getByRole('button', { name: /^Refund \$/ })
      .click();
    await expect(b.page.getByText(`Approved: the refund for ${paymentId} was sent.`).first()).toBeVisible();
    await expect(b.page.locator('.refund-list tbody tr').first()).toContainText('Refunded', { timeout: 15_000 });
    await b.page.screenshot({ path: test.info().outputPath('desk-b-approved.png') });

    // Desk A: the agent closes the reservation, opens it again (the guest calls back) and sees the refund made at desk B.
    await a.page.getByRole('button', { name: 'Close reservation' }).click();
    await openReservation(a.page, 'PVR-5J1L3M', 'Héctor Ibáñez Salazar');
    const row = a.page.getByRole('row').filter({ hasText: paymentId }).first();
    await expect(row).toContainText('Refunded', { timeout: 15_000 });
    await a.page.screenshot({ path: test.info().outputPath('desk-a-refunded.png') });
  } finally {
    await a.app.stop();
    await b.app.stop();
  }
});

test("pushed, not polled: a request made at desk A appears in the supervisor's open queue at desk B within 2 s, and B's approval reaches A's open reservation", async ({
  browser,
}) => {
  const a = await deskWindow(browser);
  const b = await deskWindow(browser);
  try {
    await signIn(a.page, a.app, 'agent');
    const paymentId = await payInFull(a.page, 'OAX-3S7T2V', 'Efraín Téllez Ocaña');

    // The supervisor's queue is open at desk B before the request exists (the queue no longer reads itself on a timer).
    await signIn(b.page, b.app, 'supervisor');
    await openSection(b.page, 'Approvals');
    await expect(b.page.getByRole('row').filter({ hasText: paymentId })).toHaveCount(0);

    await leaveRequestInQueue(a.page, paymentId);

    const queued = b.page.getByRole('row').filter({ hasText: paymentId });
    await expect(queued).toContainText('Ana Agent', { timeout: 2_000 });
    await queued.getByRole('button', { name: `Approve… ${paymentId}` }).click();
    await b.page
      .getByRole('region', { name: 'Approve this refund' })
      .getByRole('button', { name: /^Refund \$/ })
      .click();
    await expect(b.page.getByText(`Approved: the refund for ${paymentId} was sent.`).first()).toBeVisible();

    // Desk A never closed the reservation: the refund made at desk B is pushed to it.
    const row = a.page.getByRole('row').filter({ hasText: paymentId }).first();
    await expect(row).toContainText('Refunded', { timeout: 15_000 });
  } finally {
    await a.app.stop();
    await b.app.stop();
  }
});

test('the center restarting under an open queue, and a queue opened while it is down: a short "reconnecting" note in the desk\'s language, gone when the center is back, and the queue live again', async ({
  browser,
}) => {
  const a = await deskWindow(browser);
  const b = await deskWindow(browser, 'es-MX');
  try {
    await signIn(a.page, a.app, 'agent');
    await signIn(b.page, b.app, 'supervisor');
    await openSection(b.page, 'Aprobaciones');
    const queue = b.page.getByRole('region', { name: 'Solicitudes de reembolso por aprobar' });
    await expect(queue.getByRole('table').or(queue.getByText('No hay solicitudes en espera.'))).toBeVisible();
    const note = b.page.getByRole('status').filter({ hasText: 'Reconectando con el centro' });
    await expect(note).toHaveCount(0);

    // The center goes down (a restart, a failover) under the open queue: it says at once that it may be out of date.
    await server.stopServer();
    try {
      await expect(note).toBeVisible({ timeout: 10_000 });
      await b.page.screenshot({
        path: path.join('test-results', 'screenshots', 'es-MX', '45-center-reconnecting.png'),
      });
    } finally {
      await server.startServer();
    }
    // Back: the note goes, and a request made at desk A now is pushed to the open queue.
    await expect(note).toHaveCount(0, { timeout: 20_000 });
    const first = await payInFull(a.page, 'MID-6P9Q2R', 'Ximena Peña Córdova');
    await leaveRequestInQueue(a.page, first);
    await expect(queue.getByRole('row').filter({ hasText: first })).toHaveCount(1, { timeout: 2_000 });

    // The supervisor leaves the queue (nothing watched: the desk lets its LISTEN connection go); the center goes down and
    // the queue is opened meanwhile: it cannot be read, and the note says the desk is reconnecting.
    await openSection(b.page, 'Espacio de trabajo');
    await server.stopServer();
    try {
      await openSection(b.page, 'Aprobaciones');
      await expect(queue.getByRole('alert')).toContainText('No se puede conectar con la base de datos del centro');
      await expect(note).toBeVisible({ timeout: 5_000 });
    } finally {
      await server.startServer();
    }
    // Back: the queue is read again by itself (the error goes) and is live: a new request at desk A is pushed to it.
    await expect(note).toHaveCount(0, { timeout: 20_000 });
    await expect(queue.getByRole('alert')).toHaveCount(0, { timeout: 5_000 });
    await expect(queue.getByRole('row').filter({ hasText: first })).toHaveCount(1);
    await a.page.getByRole('button', { name: 'Close reservation' }).click();
    const second = await payInFull(a.page, 'MEX-7A3C6E', 'Ramón Echeverría Lugo');
    await leaveRequestInQueue(a.page, second);
    await expect(queue.getByRole('row').filter({ hasText: second })).toHaveCount(1, { timeout: 2_000 });
  } finally {
    await a.app.stop();
    await b.app.stop();
  }
});
