// Crash recovery against the simulator over real HTTP. A child process (crash-child.ts) runs a real
// PaymentEngine whose Journal or fetch is wrapped to stop at a crash point; the test SIGKILLs it there,
// opens a new engine on the same journal file and checks that recovery ends with exactly one payment,
// journaled once, under the operation's original Idempotency-Key. The service is never mocked; fetch is
// wrapped in this process only to observe what the recovering engine sends.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, PaymentEngine, simulatorConfig } from '../../../main/payments';
import { useSimulator } from '../../support/simulator';
import { runToCrashPoint, sigkill } from '../support/crash-parent';
import { dirname } from 'node:path';
import { openJournal } from '../../support/journal';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
/** How long the service holds the child's POST /payments in the after-send case. */
const HOLD_MS = 4000;
const PROCESSING_DELAY_MS = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;

const sim = useSimulator({ processingDelayMs: PROCESSING_DELAY_MS });
let dir: string;
let journalPath: string;
const children: ChildProcess[] = [];
const engines: { engine: PaymentEngine; journal: Journal }[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'recovery-test-'));
  journalPath = join(dir, 'journal.db');
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  for (const { engine, journal } of engines.splice(0)) {
    await engine.close();
    await journal.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

const advance = (seconds: number) => sim.advanceClock(seconds);

const YEAR = new Date().getUTCFullYear() + 3;
const VISA = { number: '4242424242424242', expMonth: 12, expYear: YEAR, cvv: '123' };
const who = { reservationId: 'HTL-RECOVER-1', operatorId: 'agent-7' };

/** What the recovering engine sent and what it was answered. */
interface Sent {
  request: string;
  key: string | null;
  status: number;
  replayed: boolean;
  code: string | undefined;
}

async function openEngine() {
  const sent: Sent[] = [];
  const observing: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const base = [sim.baseUrl, sim.cdeUrl, sim.authUrl].find((b) => url.startsWith(b + '/')) ?? '';
    const response = await fetch(input, init);
    const error: unknown = response.ok
      ? undefined
      : await response
          .clone()
          .json()
          .catch(() => undefined);
    const code =
      typeof error === 'object' &&
      error !== null &&
      'error' in error &&
      typeof error.error === 'object' &&
      error.error !== null &&
      'code' in error.error
        ? String(error.error.code)
        : undefined;
    sent.push({
      request: `${init?.method ?? 'GET'} ${url.slice(base.length).replace(/pay_[0-9a-f]{32}/, '{id}')}`,
      key: new Headers(init?.headers).get('idempotency-key'),
      status: response.status,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      code,
    });
    return response;
  };
  const journal = await openJournal(dirname(journalPath));
  const engine = new PaymentEngine({
    config: simulatorConfig(sim),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    journal,
    fetch: observing,
  });
  engines.push({ engine, journal });
  return { engine, journal, sent };
}

/** Tokenizes the test card into the journal file, then closes that engine: the child opens the file next. */
async function tokenizedMethod(): Promise<string> {
  const { engine, journal } = await openEngine();
  await engine.recover();
  const method = await engine.tokenize({ card: VISA, ...who });
  engines.splice(
    engines.findIndex((e) => e.engine === engine),
    1,
  );
  await engine.close();
  await journal.close();
  return method.id;
}

/** The job crash-child.ts reads from CRASH_JOB (its schema lives there; it cannot be imported without running it). */
interface CrashJob {
  point: 'after-journal' | 'after-send' | 'after-answer';
  journalPath: string;
  authUrl: string;
  cdeUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  operationId: string;
  methodId: string;
  reservationId: string;
  operatorId: string;
  amountCents: number;
  currency: 'usd' | 'mxn';
}

/** Starts the child and resolves with its first `AT …` line (and when it came); rejects on anything else. */
function crashChild(job: CrashJob): Promise<{ child: ChildProcess; line: string; at: number }> {
  return runToCrashPoint(CHILD, job, children);
}

/** POST {baseUrl}/payments straight to the service, outside the engine. */
async function rawCreatePayment(
  key: string,
  body: unknown,
): Promise<{ status: number; replayed: string | null; id: unknown }> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: sim.clientId,
    client_secret: sim.clientSecret,
  });
  const tokenResponse = await fetch(`${sim.authUrl}/oauth2/token`, { method: 'POST', body: form });
  expect(tokenResponse.status).toBe(200);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const response = await fetch(`${sim.baseUrl}/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { id?: unknown };
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), id: json.id };
}

describe('recovery after a crash mid-payment (child process, SIGKILL)', () => {
  it.each([
    // The service never saw the request: the recovery send creates the payment.
    ['after-journal', false],
    // The service got the request (and, held by a delay fault, finished it after the crash).
    ['after-send', true],
    // The service answered; the answer died with the process before the journal was written.
    ['after-answer', true],
  ] as const)(
    '%s: one payment in the journal and at the service, under the original key',
    async (point, replayExpected) => {
      const methodId = await tokenizedMethod();
      if (point === 'after-send') await sim.fault('POST /payments', 'delay', 1, HOLD_MS);
      const operationId = randomUUID();
      const { child, line, at } = await crashChild({
        point,
        journalPath,
        authUrl: sim.authUrl,
        cdeUrl: sim.cdeUrl,
        baseUrl: sim.baseUrl,
        clientId: sim.clientId,
        clientSecret: sim.clientSecret,
        operationId,
        methodId,
        amountCents: 24550,
        currency: 'usd',
        ...who,
      });
      expect(line).toBe(`AT ${point}`);
      await sigkill(child);

      const { engine, journal, sent } = await openEngine();
      // What the crash left: the operation journaled and unanswered, no payment (the after-answer
      // transaction was never committed).
      const crashed = await journal.operation(operationId);
      expect(crashed).toMatchObject({
        kind: 'create_payment',
        state: 'pending',
        resendable: true,
        resultId: undefined,
      });
      const key = crashed?.key ?? '';
      expect(await journal.paymentsOf(who.reservationId)).toEqual([]);

      if (point === 'after-send') {
        // Restarted while the service still holds the first request: the re-send (same key) is told
        // "in progress", which is not an answer. The operation stays pending, nothing is journaled.
        const early = await engine.recover();
        expect(Date.now() - at).toBeLessThan(HOLD_MS);
        expect(early).toMatchObject({ resent: [], failed: [operationId] });
        expect(sent.filter((s) => s.request === 'POST /payments').map((s) => [s.key, s.status, s.code])).toEqual(
          Array.from({ length: 3 }, () => [key, 409, 'idempotency_in_progress']),
        );
        expect(await journal.operation(operationId)).toMatchObject({ state: 'pending', key });
        expect(await journal.paymentsOf(who.reservationId)).toEqual([]);
        // Once the held request is done, the next start recovers it.
        await sleep(Math.max(0, at + HOLD_MS + 300 - Date.now()));
        sent.splice(0);
      }

      const report = await engine.recover();
      expect(report).toMatchObject({ resent: [operationId], failed: [], abandoned: [], reconcile: [] });
      const done = await journal.operation(operationId);
      expect(done).toMatchObject({ state: 'done', key });
      const paymentId = done?.resultId ?? '';
      expect(paymentId).toMatch(/^pay_[0-9a-f]{32}$/);
      expect(report.following).toEqual([paymentId]);
      expect(await journal.pendingOperations()).toEqual([]);

      // Recovery sent the create once more, with the original key; whether that was answered from the
      // service's stored response tells where the crash happened.
      const creates = sent.filter((s) => s.request === 'POST /payments');
      expect(creates.map((s) => [s.key, s.status, s.replayed])).toEqual([[key, 201, replayExpected]]);

      const journaled = await journal.paymentsOf(who.reservationId);
      expect(journaled.map((p) => [p.id, p.status, p.amountCents, p.operatorId])).toEqual([
        [paymentId, 'processing', 24550, who.operatorId],
      ]);

      // The true status, once the service has processed it.
      await advance(PROCESSING_DELAY_MS / 1000 + 1);
      expect((await engine.getPayment(paymentId)).status).toBe('succeeded');
      expect((await journal.paymentsOf(who.reservationId)).map((p) => [p.id, p.status])).toEqual([
        [paymentId, 'succeeded'],
      ]);
      expect((await engine.listReservation(who.reservationId)).payments).toHaveLength(1);

      // The service holds one payment for the key: the same key and body again is a replay of it.
      const again = await rawCreatePayment(key, done?.payload);
      expect(again).toEqual({ status: 201, replayed: 'true', id: paymentId });
    },
    30_000,
  );
});

describe('recovery of operations that must not be re-sent', () => {
  it('a payment unanswered for over 24 h is marked for reconciliation, a pending tokenization abandoned; neither is sent', async () => {
    const methodId = await tokenizedMethod();
    const { engine, journal, sent } = await openEngine();
    const body = {
      methodId,
      amount: 80,
      currency: 'usd',
      reservationId: who.reservationId,
      metadata: { agent: who.operatorId },
    };
    const stale = await journal.begin({
      key: randomUUID(),
      operationId: randomUUID(),
      kind: 'create_payment',
      payload: body,
      resendable: true,
      paymentId: undefined,
      createdAt: Date.now() - 25 * 60 * 60 * 1000,
      ...who,
    });
    const tokenize = await journal.begin({
      key: randomUUID(),
      operationId: randomUUID(),
      kind: 'tokenize',
      payload: { type: 'card', card: { brand: 'visa', last4: '4242', expMonth: VISA.expMonth, expYear: VISA.expYear } },
      resendable: false,
      paymentId: undefined,
      createdAt: Date.now() - 60_000,
      ...who,
    });

    const report = await engine.recover();
    expect(report).toEqual({
      resent: [],
      failed: [],
      abandoned: [tokenize.operationId],
      reconcile: [stale.operationId],
      following: [],
    });
    expect(await journal.operation(stale.operationId)).toMatchObject({
      state: 'reconcile',
      errorCode: 'unanswered_24h',
      resultId: undefined,
      key: stale.key,
    });
    expect(await journal.operation(tokenize.operationId)).toMatchObject({
      state: 'abandoned',
      errorCode: 'card_not_kept',
      resultId: undefined,
    });
    expect((await journal.operationsInState('reconcile')).map((o) => o.operationId)).toEqual([stale.operationId]);
    expect((await journal.operationsInState('abandoned')).map((o) => o.operationId)).toEqual([tokenize.operationId]);
    expect(await journal.pendingOperations()).toEqual([]);
    expect(sent).toEqual([]);
    expect(await journal.paymentsOf(who.reservationId)).toEqual([]);
    expect((await journal.methodsOf(who.reservationId)).map((m) => m.id)).toEqual([methodId]);

    // A second start finds nothing to do.
    expect(await engine.recover()).toEqual({ resent: [], failed: [], abandoned: [], reconcile: [], following: [] });
    expect(sent).toEqual([]);

    // The service never saw the stale key: it is still unused (a first use, not a replay).
    const first = await rawCreatePayment(stale.key, body);
    expect(first).toMatchObject({ status: 201, replayed: null });
  });

  // Same 24 h rule on the retry path: the agent (or the UI) retries the operation by its id after the
  // start-up marked it for reconciliation. It must be refused before any request: re-sending a key the
  // service may have forgotten could charge twice.
  it('a payment marked for reconciliation is not re-sent when its operation id is retried', async () => {
    const methodId = await tokenizedMethod();
    const { engine, journal, sent } = await openEngine();
    const operationId = randomUUID();
    const input = { operationId, methodId, amountCents: 8000, currency: 'usd' as const, ...who };
    const stale = await journal.begin({
      key: randomUUID(),
      operationId,
      kind: 'create_payment',
      payload: {
        methodId,
        amount: 80,
        currency: 'usd',
        reservationId: who.reservationId,
        metadata: { agent: who.operatorId },
      },
      resendable: true,
      paymentId: undefined,
      createdAt: Date.now() - DAY_MS - 60 * 60 * 1000,
      ...who,
    });
    expect((await engine.recover()).reconcile).toEqual([operationId]);

    const retried = await engine.pay(input).then(
      (p) => ({ paid: p.id }),
      (e: unknown) => ({ refused: e }),
    );
    expect(sent.filter((s) => s.request === 'POST /payments')).toEqual([]);
    expect(retried).toMatchObject({ refused: { kind: 'invalid_input', code: 'operation_needs_reconciliation' } });
    expect(await journal.operation(operationId)).toMatchObject({
      state: 'reconcile',
      key: stale.key,
      resultId: undefined,
    });
    expect(await journal.paymentsOf(who.reservationId)).toEqual([]);
  });
});
