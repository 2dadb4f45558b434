// A refund interrupted by a crash and recovered at restart without a second refund, against the simulator
// over real HTTP. A child process (crash-child.ts) approves an agent's refund request with a real RefundDesk
// and PaymentEngine whose requests store, Journal or fetch is wrapped to stop at a crash point; the test
// SIGKILLs it there, opens a new engine and desk on the same files, runs the start-up recovery
// (engine.recover(), then desk.reconcile()) and checks the service holds at most one refund, under the
// operation's original Idempotency-Key, and that the request knows what became of it. The service is never
// mocked; fetch is wrapped in this process only to observe what the recovering engine sends.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, PaymentEngine, simulatorConfig } from '../../../main/payments';
import { RefundDesk, RefundRequests } from '../../../main/refunds';
import { embeddedStorage } from '../../../main/storage';
import { useSimulator } from '../../support/simulator';
import { runToCrashPoint, sigkill } from '../support/crash-parent';
import { CRASH_DESK_ID } from '../support/crash-kit';
import type { OperatorView } from '../../../shared/operators';
import { openJournal } from '../../support/journal';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
/** How long the service holds the child's refund request in the after-send case (it finishes it after the crash). */
const HOLD_MS = 800;

const SAM: OperatorView = { id: 'sam', displayName: 'Sam', role: 'supervisor', disabled: false };
const ANA: OperatorView = { id: 'ana', displayName: 'Ana', role: 'agent', disabled: false };
const CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' };
const RESERVATION = 'HTL-REFUND-CRASH';
const REFUND_POST = /^POST \/payments\/pay_[0-9a-f]{32}\/refunds$/;

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let dir: string;
let journalPath: string;
let requestsPath: string;
const children: ChildProcess[] = [];
const opened: { engine: PaymentEngine; journal: Journal; requests: RefundRequests }[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'refund-crash-'));
  journalPath = join(dir, 'journal.db');
  requestsPath = join(dir, 'refund-requests.db');
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  for (const { engine, journal, requests } of opened.splice(0)) await closeAll(engine, journal, requests);
  rmSync(dir, { recursive: true, force: true });
});

async function closeAll(engine: PaymentEngine, journal: Journal, requests: RefundRequests): Promise<void> {
  await engine.close();
  await journal.close();
  await requests.close();
}

/** What the recovering engine sent and what it was answered. */
interface Sent {
  request: string;
  key: string | null;
  status: number;
  replayed: boolean;
}

/** An engine and desk on the test's files, as the app opens them at start-up; `sent` records every request. */
async function openDesk() {
  const sent: Sent[] = [];
  const observing: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const base = [sim.baseUrl, sim.cdeUrl, sim.authUrl].find((b) => url.startsWith(b + '/')) ?? '';
    const response = await fetch(input, init);
    sent.push({
      request: `${init?.method ?? 'GET'} ${url.slice(base.length)}`,
      key: new Headers(init?.headers).get('idempotency-key'),
      status: response.status,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    });
    return response;
  };
  const journal = await openJournal(dirname(journalPath));
  const requests = await RefundRequests.open(embeddedStorage(dirname(requestsPath)), { deskId: CRASH_DESK_ID });
  const engine = new PaymentEngine({
    config: simulatorConfig(sim),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    journal,
    fetch: observing,
  });
  const desk = new RefundDesk({
    engine,
    requests,
    history: journal,
    verifyApprover: () => Promise.reject(new Error('not used here')),
  });
  const handle = { engine, journal, requests };
  opened.push(handle);
  return {
    engine,
    journal,
    requests,
    desk,
    sent,
    close: async () => {
      opened.splice(opened.indexOf(handle), 1);
      await closeAll(engine, journal, requests);
    },
  };
}

/** A succeeded 150 USD payment taken by the agent, in the journal file; and her request for 60 of it, waiting. */
async function paymentAndRequest(): Promise<{ paymentId: string; requestId: string }> {
  const { engine, desk, close } = await openDesk();
  await engine.recover();
  const method = await engine.tokenize({ card: CARD, reservationId: RESERVATION, operatorId: ANA.id });
  let payment = await engine.pay({
    methodId: method.id,
    amountCents: 15000,
    currency: 'usd',
    reservationId: RESERVATION,
    operatorId: ANA.id,
  });
  for (let i = 0; i < 100 && payment.status !== 'succeeded'; i++) {
    await sleep(20);
    payment = await engine.getPayment(payment.id);
  }
  expect(payment).toMatchObject({ status: 'succeeded', refundableCents: 15000, refunds: [] });
  const request = await desk.request(
    {
      requestId: randomUUID(),
      paymentId: payment.id,
      amountCents: 6000,
      reason: 'requested_by_customer',
      note: 'Late checkout charged twice.',
    },
    ANA,
  );
  expect(request).toMatchObject({ status: 'pending', requestedBy: 'ana', amountCents: 6000 });
  await close();
  return { paymentId: payment.id, requestId: request.id };
}

type CrashPoint = 'after-decision' | 'after-journal' | 'after-send';

/** Starts the child and resolves with its first `AT …` line; rejects on anything else. */
function crashChild(
  point: CrashPoint,
  paymentId: string,
  requestId: string,
): Promise<{ child: ChildProcess; line: string }> {
  const job = {
    point,
    journalPath,
    requestsPath,
    authUrl: sim.authUrl,
    cdeUrl: sim.cdeUrl,
    baseUrl: sim.baseUrl,
    clientId: sim.clientId,
    clientSecret: sim.clientSecret,
    requestId,
    paymentId,
    approver: SAM,
  };
  return runToCrashPoint(CHILD, job, children);
}

/** GET {baseUrl}/payments/{id} straight from the service, outside any engine (and so outside the journal). */
async function serviceRefunds(paymentId: string): Promise<{ id: string; amount: number; status: string }[]> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: sim.clientId,
    client_secret: sim.clientSecret,
  });
  const tokenResponse = await fetch(`${sim.authUrl}/oauth2/token`, { method: 'POST', body: form });
  expect(tokenResponse.status).toBe(200);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const response = await fetch(`${sim.baseUrl}/payments/${paymentId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const payment = (await response.json()) as { refunds: { id: string; amount: number; status: string }[] };
  return payment.refunds.map(({ id, amount, status }) => ({ id, amount, status }));
}

describe('a refund approval interrupted by SIGKILL, recovered at restart (child process)', () => {
  it.each([
    // The service never saw the request: the recovery send makes the refund.
    ['after-journal', false],
    // The service got the request and, holding it, finished it after the crash: the recovery send is answered
    // from its stored response.
    ['after-send', true],
  ] as const)(
    '%s: one refund at the service and in the journal, under the original key; the request learns it',
    async (point, replayExpected) => {
      const { paymentId, requestId } = await paymentAndRequest();
      if (point === 'after-send') await sim.fault('POST /payments/{id}/refunds', 'delay', 1, HOLD_MS);
      const { child, line } = await crashChild(point, paymentId, requestId);
      expect(line).toBe(`AT ${point}`);
      await sigkill(child);

      if (point === 'after-send') {
        // The request outlived the process: wait (bounded) until the service has finished it, so that the
        // restart finds it done rather than still in progress.
        let held = await serviceRefunds(paymentId);
        for (let i = 0; i < 200 && held.length === 0; i++) {
          await sleep(25);
          held = await serviceRefunds(paymentId);
        }
        expect(held).toMatchObject([{ amount: 60 }]);
      } else {
        expect(await serviceRefunds(paymentId)).toEqual([]);
      }

      const { engine, journal, requests, desk, sent } = await openDesk();
      // What the crash left: the approval written with both ids, its refund journaled and unanswered.
      expect(await requests.get(requestId)).toMatchObject({
        status: 'approved',
        requestedBy: 'ana',
        decidedBy: 'sam',
        override: false,
        refundId: undefined,
      });
      const crashed = await journal.operation(requestId);
      expect(crashed).toMatchObject({
        kind: 'refund',
        state: 'pending',
        resendable: true,
        paymentId,
        operatorId: 'sam',
        resultId: undefined,
      });
      const key = crashed?.key ?? '';
      expect(key).toMatch(/^[0-9a-f-]{36}$/);
      expect((await journal.payment(paymentId))?.refunds).toEqual([]);

      // The start-up: the engine re-sends, then the desk reconciles the request.
      const report = await engine.recover();
      expect(report).toMatchObject({ resent: [requestId], failed: [], abandoned: [], reconcile: [] });
      expect(await desk.reconcile()).toBe(1);

      const done = await journal.operation(requestId);
      expect(done).toMatchObject({ state: 'done', key });
      const refundId = done?.resultId ?? '';
      expect(refundId).not.toBe('');
      expect(await journal.pendingOperations()).toEqual([]);

      // Exactly one refund POST, with the key journaled before the crash; a replay when the service had it.
      const posts = sent.filter((s) => REFUND_POST.test(s.request));
      expect(posts.map((s) => [s.key, s.status, s.replayed])).toEqual([[key, 201, replayExpected]]);

      // The service holds one refund, the journal the same one (the approver's), the request knows it.
      expect(await serviceRefunds(paymentId)).toEqual([{ id: refundId, amount: 60, status: 'succeeded' }]);
      expect((await journal.payment(paymentId))?.refunds.map((r) => [r.id, r.amountCents, r.operatorId])).toEqual([
        [refundId, 6000, 'sam'],
      ]);
      expect(await requests.get(requestId)).toMatchObject({
        status: 'approved',
        requestedBy: 'ana',
        decidedBy: 'sam',
        refundId,
        failure: undefined,
      });
      expect(await desk.requestsFor(paymentId)).toMatchObject([
        { id: requestId, status: 'approved', requestedBy: 'ana', decidedBy: 'sam', refundId },
      ]);

      // A second start finds nothing to do; approving again from the queue answers the same refund.
      sent.splice(0);
      expect(await engine.recover()).toMatchObject({ resent: [], failed: [] });
      expect(await desk.reconcile()).toBe(0);
      const again = await desk.approve(requestId, SAM);
      expect(again.request.refundId).toBe(refundId);
      expect(again.payment).toMatchObject({ refundableCents: 9000 });
      expect(sent.filter((s) => REFUND_POST.test(s.request))).toEqual([]);
      expect(await serviceRefunds(paymentId)).toHaveLength(1);
    },
    30_000,
  );

  it('after-decision: approved but never journaled, nothing was sent; the restart closes the request as failed and a new one is refunded once', async () => {
    const { paymentId, requestId } = await paymentAndRequest();
    const { child, line } = await crashChild('after-decision', paymentId, requestId);
    expect(line).toBe('AT after-decision');
    await sigkill(child);

    const { engine, journal, requests, desk, sent } = await openDesk();
    expect(await requests.get(requestId)).toMatchObject({ status: 'approved', decidedBy: 'sam', refundId: undefined });
    expect(await journal.operation(requestId)).toBeUndefined();

    expect(await engine.recover()).toMatchObject({ resent: [], failed: [], abandoned: [], reconcile: [] });
    expect(await desk.reconcile()).toBe(1);
    // No refund was sent, so none can be pending: the request is closed, with both ids still on record.
    expect(await requests.get(requestId)).toMatchObject({
      status: 'failed',
      requestedBy: 'ana',
      decidedBy: 'sam',
      refundId: undefined,
      failure: 'The refund was not made. Ask for it again.',
    });
    expect(sent.filter((s) => REFUND_POST.test(s.request))).toEqual([]);
    expect(await serviceRefunds(paymentId)).toEqual([]);
    expect((await journal.payment(paymentId))?.refunds).toEqual([]);

    // The closed request is not approved again by accident; the agent asks again and that one is refunded once.
    await expect(desk.approve(requestId, SAM)).rejects.toMatchObject({ code: 'request_closed' });
    expect(await journal.operation(requestId)).toBeUndefined();
    const retry = await desk.request(
      { requestId: randomUUID(), paymentId, amountCents: 6000, reason: 'requested_by_customer' },
      ANA,
    );
    const approved = await desk.approve(retry.id, SAM);
    expect(approved.request).toMatchObject({ status: 'approved', decidedBy: 'sam' });
    expect(approved.payment).toMatchObject({ refundableCents: 9000 });
    const refunds = await serviceRefunds(paymentId);
    expect(refunds).toMatchObject([{ amount: 60 }]);
    expect(approved.request.refundId).toBe(refunds[0]?.id);
    expect(sent.filter((s) => REFUND_POST.test(s.request))).toHaveLength(1);
  }, 30_000);
});
