// One payment at a time per reservation until its outcome is known, through the real door (createMainStack): the
// two-charge scenario with the simulator's drop faults on POST /payments, for a new attempt and for a restart (a new
// stack over the same data folder running recover()). The simulator runs in this process and outlives the stacks
// (a restart of the app does not restart the service); the Idempotency-Keys sent are read from the journal's own
// record of every request (its attempts table), nothing is mocked.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import type { SenderInfo } from '../../../main/ipc';
import { simulatorConfig, type ConnectedService } from '../../../main/payments';
import { simulatorControl, useSimulator, type SimulatorFault } from '../../support/simulator';
import { MIN_COST } from '../../../main/operators';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const RESERVATION = 'MEX-2H8R5T';
const AGENT = { id: 'ana', password: 'agent password 1234' };
const OTHER_AGENT = { id: 'beto', password: 'agent password 5678' };
const YEAR = new Date().getUTCFullYear() + 2;

const sim = useSimulator({ processingDelayMs: 500 });
let dir: string;
const stacks: MainStack[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'one-payment-'));
});
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** Faults go to the service the stack talks to (its control endpoint, as training exposes it). */
const fault = (stack: MainStack, kind: SimulatorFault, count: number) =>
  simulatorControl(stack.training?.controlUrl ?? sim.controlUrl).fault('POST /payments', kind, count);

/** The app's connection to the service, here the simulator that keeps running across the app's restarts. */
const attached = (): Promise<ConnectedService> =>
  Promise.resolve({
    config: simulatorConfig(sim),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    training: { controlUrl: sim.controlUrl },
    close: () => Promise.resolve(),
  });

/** Starts the app's main stack over the data folder (a start of the app), with the agents in place. */
async function start(): Promise<MainStack> {
  const stack = await createMainStack({
    passwordCost: MIN_COST,
    dataDir: dir,
    version: 'test',
    fetch,
    isTrustedSender: () => true,
    connect: attached,
  });
  stacks.push(stack);
  if (await stack.directory.needsFirstAdmin()) {
    await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
    await stack.directory.createOperator('ada', {
      id: AGENT.id,
      displayName: 'Ana',
      role: 'agent',
      password: AGENT.password,
    });
    await stack.directory.createOperator('ada', {
      id: OTHER_AGENT.id,
      displayName: 'Beto',
      role: 'agent',
      password: OTHER_AGENT.password,
    });
  }
  return stack;
}

async function call(stack: MainStack, channel: string, input: unknown) {
  return stack.dispatch(channel, sender, input);
}
async function ok<T>(stack: MainStack, channel: string, input: unknown): Promise<T> {
  const result = await call(stack, channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}
async function signIn(stack: MainStack, who = AGENT): Promise<void> {
  await call(stack, 'session:signOut', {});
  await ok(stack, 'session:signIn', who);
}
async function savedCard(stack: MainStack): Promise<string> {
  const method = await ok<{ id: string }>(stack, 'payments:tokenize', {
    operationId: randomUUID(),
    card: { number: '4242424242424242', expMonth: 12, expYear: YEAR, cvv: '123' },
    reservationId: RESERVATION,
  });
  return method.id;
}

/** What the journal holds (a second connection, as the next start would read it). */
function journal<T>(read: (db: Database.Database) => T): T {
  const db = new Database(join(dir, 'journal.db'), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}
/** Every Idempotency-Key the app ever sent on POST /payments. */
const paymentKeys = (): string[] =>
  journal((db) =>
    (
      db.prepare(`SELECT DISTINCT idempotency_key AS key FROM attempts WHERE operation = 'POST /payments'`).all() as {
        key: string;
      }[]
    ).map((r) => r.key),
  );
const keyOf = (operationId: string): string | undefined =>
  journal(
    (db) =>
      (db.prepare('SELECT key FROM operations WHERE operation_id = ?').get(operationId) as { key: string } | undefined)
        ?.key,
  );
const paymentsOf = (stack: MainStack) =>
  ok<{ payments: { id: string; status: string }[] }>(stack, 'reservations:overview', { reservationId: RESERVATION });

/** POST /payments straight to the service with a key and body: a replay tells which payment the key made. */
async function replay(
  key: string,
  operationId: string,
): Promise<{ status: number; replayed: string | null; id: unknown }> {
  const payload = journal(
    (db) =>
      JSON.parse(
        (db.prepare('SELECT payload FROM operations WHERE operation_id = ?').get(operationId) as { payload: string })
          .payload,
      ) as unknown,
  );
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: sim.clientId,
    client_secret: sim.clientSecret,
  });
  const { access_token: token } = (await (
    await fetch(`${sim.authUrl}/oauth2/token`, { method: 'POST', body: form })
  ).json()) as { access_token: string };
  const response = await fetch(`${sim.baseUrl}/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(payload),
  });
  const json = (await response.json()) as { id?: unknown };
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), id: json.id };
}

const UNANSWERED = 'The earlier payment of 120.00 MXN has no answer yet; it is being checked — do not charge again.';

describe.each(['drop_after_commit', 'drop_before_commit'] as const)('%s on every try of POST /payments', (drop) => {
  it('a new attempt (new operation id, same reservation, card and amount) re-sends the first with its own key: the agent sees that payment, one key, one payment', async () => {
    const stack = await start();
    await signIn(stack);
    const methodId = await savedCard(stack);
    const charge = {
      methodId,
      amountCents: 12000,
      currency: 'mxn',
      reservationId: RESERVATION,
      acknowledgedPaymentIds: [],
    };
    await fault(stack, drop, 3);
    const first = randomUUID();
    expect(await call(stack, 'payments:pay', { operationId: first, ...charge })).toMatchObject({
      ok: false,
      error: { code: 'network_error' },
    });

    const second = await ok<{ id: string; status: string }>(stack, 'payments:pay', {
      operationId: randomUUID(),
      ...charge,
    });
    const key = keyOf(first) ?? '';
    expect(paymentKeys()).toEqual([key]);
    expect((await paymentsOf(stack)).payments.map((p) => p.id)).toEqual([second.id]);
    expect(await replay(key, first)).toEqual({ status: 201, replayed: 'true', id: second.id });
  });

  it('still unanswered: the new attempt is refused in words; a restart recovers the first; one key, one payment, audited as recovered', async () => {
    let stack = await start();
    await signIn(stack);
    const methodId = await savedCard(stack);
    const charge = {
      methodId,
      amountCents: 12000,
      currency: 'mxn',
      reservationId: RESERVATION,
      acknowledgedPaymentIds: [],
    };
    await fault(stack, drop, 6);
    const first = randomUUID();
    expect(await call(stack, 'payments:pay', { operationId: first, ...charge })).toMatchObject({ ok: false });
    const refused = await call(stack, 'payments:pay', { operationId: randomUUID(), ...charge });
    expect(refused).toEqual({
      ok: false,
      error: { code: 'payment_unanswered', params: { amountCents: 12_000, currency: 'mxn' } },
    });
    expect((await paymentsOf(stack)).payments).toEqual([]);
    const key = keyOf(first) ?? '';
    expect(paymentKeys()).toEqual([key]);

    // The app stops and starts again over the same data folder.
    await stack.close();
    stacks.splice(stacks.indexOf(stack), 1);
    stack = await start();
    const report = await stack.recover();
    expect(report.resent).toEqual([first]);
    await signIn(stack);
    const payments = (await paymentsOf(stack)).payments;
    expect(payments).toHaveLength(1);
    const paymentId = payments[0]?.id ?? '';
    expect(paymentKeys()).toEqual([key]);
    expect(await replay(key, first)).toEqual({ status: 201, replayed: 'true', id: paymentId });
    const recovered = await stack.audit.query({ action: 'payment.recovered' }, 10);
    expect(
      recovered.map((row) => [row.actor, row.resource, row.details['operationId'], row.details['reservationId']]),
    ).toEqual([['system', paymentId, first, RESERVATION]]);
  });
});

describe('the reservation shows the unanswered payment, and Check again', () => {
  it('lists the attempt with its amount; Check again re-sends it with its own key: still no answer, then the payment', async () => {
    const stack = await start();
    await signIn(stack);
    const methodId = await savedCard(stack);
    await fault(stack, 'drop_after_commit', 6);
    const first = randomUUID();
    expect(
      await call(stack, 'payments:pay', {
        operationId: first,
        methodId,
        amountCents: 12000,
        currency: 'mxn',
        reservationId: RESERVATION,
        acknowledgedPaymentIds: [],
      }),
    ).toMatchObject({ ok: false });
    const overview = await ok<{ pendingPayments: unknown[] }>(stack, 'reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.pendingPayments).toEqual([
      expect.objectContaining({
        operationId: first,
        amountCents: 12000,
        currency: 'mxn',
        brand: 'visa',
        last4: '4242',
        state: 'unanswered',
        installments: false,
      }),
    ]);
    expect(await ok(stack, 'payments:checkAgain', { operationId: first })).toMatchObject({
      state: 'unanswered',
      message: UNANSWERED,
    });
    const answered = await ok<{ state: string; payment: { id: string } }>(stack, 'payments:checkAgain', {
      operationId: first,
    });
    expect(answered).toMatchObject({ state: 'answered', payment: { reservationId: RESERVATION } });
    expect(paymentKeys()).toEqual([keyOf(first)]);
    const after = await ok<{ payments: { id: string }[]; pendingPayments: unknown[] }>(stack, 'reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(after.payments.map((p) => p.id)).toEqual([answered.payment.id]);
    expect(after.pendingPayments).toEqual([]);
    expect(
      (await stack.audit.query({ action: 'payment.check' }, 10)).map((row) => [row.outcome, row.details['state']]),
    ).toEqual([
      ['ok', 'answered'],
      ['ok', 'unanswered'],
    ]);
  });
});

describe('what identifies a payment operation is its money fields', () => {
  it('resumed with another note and by another agent: the same operation, re-sent with its original payload and key', async () => {
    const stack = await start();
    await signIn(stack);
    const methodId = await savedCard(stack);
    const operationId = randomUUID();
    const charge = {
      operationId,
      methodId,
      amountCents: 12000,
      currency: 'mxn',
      reservationId: RESERVATION,
      acknowledgedPaymentIds: [],
    };
    await fault(stack, 'drop_before_commit', 3);
    expect(await call(stack, 'payments:pay', { ...charge, note: 'deposit' })).toMatchObject({
      ok: false,
      error: { code: 'network_error' },
    });
    await signIn(stack, OTHER_AGENT);
    const paid = await ok<{ id: string }>(stack, 'payments:pay', { ...charge, note: 'another note' });
    expect(paymentKeys()).toEqual([keyOf(operationId)]);
    expect(await replay(keyOf(operationId) ?? '', operationId)).toMatchObject({
      status: 201,
      replayed: 'true',
      id: paid.id,
    });
    // The payload sent is the one first written: its note and agent.
    const payload = journal(
      (db) =>
        JSON.parse(
          (db.prepare('SELECT payload FROM operations WHERE operation_id = ?').get(operationId) as { payload: string })
            .payload,
        ) as { metadata: unknown },
    );
    expect(payload.metadata).toEqual({ agent: AGENT.id, note: 'deposit' });
  });
});

describe('a reservation is one reservation whatever the case of its number', () => {
  it('an attempt unanswered on "mex-2h8r5t" blocks a charge on "MEX-2H8R5T" (a re-import wrote it in capitals) and shows on it with Check again', async () => {
    const stack = await start();
    await signIn(stack);
    const methodId = await savedCard(stack);
    const lower = RESERVATION.toLowerCase();
    await fault(stack, 'drop_after_commit', 6);
    const first = randomUUID();
    expect(
      await call(stack, 'payments:pay', {
        operationId: first,
        methodId,
        amountCents: 12000,
        currency: 'mxn',
        reservationId: lower,
        acknowledgedPaymentIds: [],
      }),
    ).toMatchObject({ ok: false });
    // Confirmation numbers are compared without case across the desk (the reservations store, search, look-ups).
    const overview = await ok<{ pendingPayments: { operationId: string }[] }>(stack, 'reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.pendingPayments.map((p) => p.operationId)).toEqual([first]);
    expect(
      await call(stack, 'payments:pay', {
        operationId: randomUUID(),
        methodId,
        amountCents: 12000,
        currency: 'mxn',
        reservationId: RESERVATION,
        acknowledgedPaymentIds: [],
      }),
    ).toEqual({
      ok: false,
      error: { code: 'payment_unanswered', params: { amountCents: 12_000, currency: 'mxn' } },
    });
    expect(paymentKeys()).toEqual([keyOf(first)]);
    // Answered at last: the payment shows on the reservation under either spelling, and a new charge gets that payment.
    const answered = await ok<{ state: string; payment: { id: string } }>(stack, 'payments:checkAgain', {
      operationId: first,
    });
    expect(answered.state).toBe('answered');
    expect((await paymentsOf(stack)).payments.map((p) => p.id)).toEqual([answered.payment.id]);
    expect(paymentKeys()).toEqual([keyOf(first)]);
  });
});
