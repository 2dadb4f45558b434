// The updater behind the real IPC door (createMainStack in training): status, the updates:changed event, and no restart
// while a payment of this desk has no result. electron-updater's autoUpdater needs Electron: test/main/support/fake-updater.ts
// plays it (MacUpdater and Squirrel.Mac).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';
import { createUpdater, type Updater } from '../../../main/updates';
import { FakeElectron } from '../support/fake-electron';
import { FakeAutoUpdater } from '../support/fake-updater';
import { MIN_COST } from '../../../main/operators';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
let dir: string;
let stack: MainStack | undefined;
let fake: FakeAutoUpdater;
let electron: FakeElectron;
let updater: Updater;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'updates-stack-'));
  electron = new FakeElectron({
    defaultUserData: join(dir, 'user-data'),
    logs: join(dir, 'logs'),
    appPath: dir,
    packaged: true,
    argv: [],
  });
  fake = new FakeAutoUpdater({ platform: 'darwin', electron: () => electron });
  fake.answer = { kind: 'update', version: '2.0.0' };
  // As in main/index.ts: the updater exists before the stack and asks it about payments later; a restart closes the stack first.
  updater = createUpdater({
    settings: { url: 'https://updates.example.test/desk', channel: 'pilot' },
    loadAutoUpdater: () => fake,
    paymentInProgress: () => stack?.paymentInProgress() ?? false,
    prepareInstall: async () => {
      const running = stack;
      stack = undefined;
      await running?.close();
      electron.record('stack closed');
    },
  });
  stack = await createMainStack({
    passwordCost: MIN_COST,
    dataDir: dir,
    version: '1.0.0',
    fetch,
    isTrustedSender: () => true,
    service: { environment: 'training', simulator: { processingDelayMs: 0 } },
    updates: updater,
  });
  await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
  await stack.directory.createOperator('ada', {
    id: 'ana',
    displayName: 'Ana',
    role: 'agent',
    password: 'agent password 1234',
  });
  const signIn = await stack.dispatch('session:signIn', sender, { id: 'ana', password: 'agent password 1234' });
  expect(signIn.ok).toBe(true);
  // The desk is busy until its journal has been read once (what the last run left unanswered is not known before).
  await vi.waitFor(() => expect(stack?.paymentInProgress()).toBe(false));
});
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function call(channel: string, input: unknown = {}): Promise<unknown> {
  const result = await (stack as MainStack).dispatch(channel, sender, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

/** A payment that waits for 3-D Secure: it has no result yet. */
async function paymentWaitingForTheGuest(): Promise<void> {
  const method = (await call('payments:tokenize', {
    operationId: randomUUID(),
    card: { number: '4000000000003220', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
    reservationId: 'MEX-2H8R5T',
  })) as { id: string };
  const payment = (await call('payments:pay', {
    operationId: randomUUID(),
    methodId: method.id,
    amountCents: 5000,
    currency: 'mxn',
    reservationId: 'MEX-2H8R5T',
    acknowledgedPaymentIds: [],
  })) as { status: string };
  expect(payment.status).toBe('requires_action');
}

describe('updates through the door', () => {
  it('status and the updates:changed event reach the window', async () => {
    const events: unknown[] = [];
    (stack as MainStack).onEvent((event, payload) => {
      if (event === 'updates:changed') events.push(payload);
    });
    expect(fake.feeds).toEqual([
      { provider: 'generic', url: 'https://updates.example.test/desk/pilot', channel: 'latest' },
    ]);
    expect(await call('updates:status')).toEqual({ state: 'idle', channel: 'pilot' });
    await updater.checkNow();
    expect(events.at(-1)).toEqual({ state: 'ready', version: '2.0.0', channel: 'pilot' });
    expect(await call('updates:status')).toEqual({ state: 'ready', version: '2.0.0', channel: 'pilot' });
  });

  it('a payment waiting for 3-D Secure blocks the restart: the status says so and nothing is installed', async () => {
    await updater.checkNow();
    await paymentWaitingForTheGuest();
    expect((stack as MainStack).paymentInProgress()).toBe(true);
    expect(await call('updates:status')).toEqual({
      state: 'ready',
      version: '2.0.0',
      channel: 'pilot',
      blockedBy: 'payment_in_progress',
    });
    const refused = await (stack as MainStack).dispatch('updates:restart', sender, {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'payment_in_progress' } });
    expect(fake.installs).toEqual([]);
    expect(stack).toBeDefined();
  });

  it('with no payment in progress the restart is answered at once, closes the stack, then installs', async () => {
    await updater.checkNow();
    expect(await call('updates:restart')).toEqual({ ok: true });
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true));
    expect(fake.installs).toEqual([{ isSilent: true, isForceRunAfter: true }]);
    expect(electron.log).toEqual([
      'stack closed',
      'squirrel staged 2.0.0',
      'squirrel quitAndInstall',
      'app.quit',
      'quit',
    ]);
  });
});
