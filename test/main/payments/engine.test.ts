// The engine facade end to end against the simulator over real HTTP: flows, faults, bad input, no secrets at rest.
// fetch is wrapped only to observe (count requests, see tokens); the service is never mocked.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PaymentEngine,
  ServiceClient,
  simulatorConfig,
  ServiceError,
  TokenManager,
  type EngineEvent,
  type PaymentView,
} from '../../../main/payments';
import { useSimulator } from '../../support/simulator';
import { openJournal } from '../../support/journal';

const sim = useSimulator({ processingDelayMs: 1000, refundDelayMs: 1000 });
let dir: string;
const open: PaymentEngine[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engine-test-'));
});
afterEach(async () => {
  for (const engine of open.splice(0)) await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Rewrites a service answer before the engine reads it: for answers the simulator never gives but the real service might. */
type Rewrite = (url: string, init: RequestInit | undefined, body: unknown) => unknown;

async function makeEngine(
  options: { rewrite?: { current: Rewrite | undefined }; timeoutMs?: number; returnUrl?: string } = {},
) {
  const requests: string[] = [];
  const answers: string[] = [];
  const tokens: string[] = [];
  const logs: string[] = [];
  const events: EngineEvent[] = [];
  const paymentKeys: string[] = [];
  const observing: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    requests.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
    const key = new Headers(init?.headers).get('idempotency-key');
    if (key !== null && init?.method === 'POST' && new URL(url).pathname.endsWith('/payments')) paymentKeys.push(key);
    let response = await fetch(input, init);
    const rewrite = options.rewrite?.current;
    if (rewrite && response.ok && !url.endsWith('/oauth2/token')) {
      const rewritten = rewrite(url, init, await response.json());
      response = new Response(JSON.stringify(rewritten), { status: response.status, headers: response.headers });
    }
    answers.push(
      `${init?.method ?? 'GET'} ${new URL(url).pathname} ${response.status}${response.headers.get('idempotent-replayed') === 'true' ? ' replayed' : ''}`,
    );
    if (url.endsWith('/oauth2/token') && response.ok) {
      const body = (await response.clone().json()) as { access_token: string };
      tokens.push(body.access_token);
    }
    return response;
  };
  const journal = await openJournal(dir);
  const logger = {
    info: (f: object, m?: string) => logs.push(JSON.stringify(f) + (m ?? '')),
    warn: (f: object, m?: string) => logs.push(JSON.stringify(f) + (m ?? '')),
  };
  const engine = new PaymentEngine({
    config: {
      ...simulatorConfig(sim, options.timeoutMs),
      ...(options.returnUrl === undefined ? {} : { returnUrl: options.returnUrl }),
    },
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    journal,
    fetch: observing,
    logger,
    sleep: () => Promise.resolve(),
    pollSchedule: [30, 60],
  });
  engine.on((e) => events.push(e));
  open.push(engine);
  return { engine, journal, requests, answers, tokens, logs, events, paymentKeys };
}

const YEAR = new Date().getUTCFullYear() + 3;
const card = (number: string, cvv = '123') => ({ number, expMonth: 12, expYear: YEAR, cvv });
const VISA = card('4242424242424242');
const MSI = card('4000004840000008');
const ALL_CARDS = [
  VISA,
  card('5555555555554444'),
  card('378282246310005', '1234'),
  MSI,
  card('4000000000003220'),
  card('4000000000000002'),
  card('4000000000009995'),
  card('4000000000000069'),
  card('4000000000000127'),
];
const who = { reservationId: 'HTL-2041', operatorId: 'agent-7' };

/** Resolves when the watched payment reaches the status (the poller reads it on its own schedule). */
function until(engine: PaymentEngine, id: string, status: string): Promise<PaymentView> {
  return new Promise((resolve) => {
    const stop = engine.watch(id, (p) => {
      if (p.status === status && p.refunds.every((r) => r.status !== 'pending')) {
        stop();
        resolve(p);
      }
    });
  });
}

describe('flows through the facade', () => {
  it('is busy (no update restarts the app) from a payment’s start until it is settled, and again after a restart', async () => {
    const { engine } = await makeEngine();
    await engine.recover();
    expect(engine.busy()).toBe(false);
    const method = await engine.tokenize({ card: VISA, ...who });
    const paying = engine.pay({ methodId: method.id, amountCents: 1_000, currency: 'usd', ...who });
    expect(engine.busy()).toBe(true);
    const paid = await paying;
    expect(paid.status).toBe('processing');
    expect(engine.busy()).toBe(true);
    await engine.close();
    // The next start knows it from the journal, before anything is written.
    const { engine: next } = await makeEngine();
    expect((await next.recover()).following).toEqual([paid.id]);
    expect(next.busy()).toBe(true);
    const done = until(next, paid.id, 'succeeded');
    await sim.advanceClock(2);
    await done;
    await vi.waitFor(() => expect(next.busy()).toBe(false));
  });

  it('reads its busy state back once for a burst of writes, off the call’s path, and is busy until that read', async () => {
    const { engine, journal } = await makeEngine();
    await engine.recover();
    const reads = vi.spyOn(journal, 'hasUnfinished');
    const method = await engine.tokenize({ card: VISA, ...who });
    const paid = await engine.pay({ methodId: method.id, amountCents: 1_000, currency: 'usd', ...who });
    // The calls answered without reading it (on a center each read waits for the desk's one connection): busy meanwhile.
    expect(reads).not.toHaveBeenCalled();
    expect(engine.busy()).toBe(true);
    await vi.waitFor(() => expect(reads).toHaveBeenCalled());
    // Both calls' writes (operations, card, payment, attempts) were read back together, not once each.
    expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
    expect(paid.status).toBe('processing');
    expect(engine.busy()).toBe(true);
    const done = until(engine, paid.id, 'succeeded');
    await sim.advanceClock(2);
    await done;
    await vi.waitFor(() => expect(engine.busy()).toBe(false));
  });

  // The engine is busy until its first read of the journal, and while recover() runs: busy() answering only from what
  // the last write made it read would say false at a start, while recover() re-sends an unanswered payment (its answer
  // not in), and the update guard (paymentInProgress) would let an update restart the desk in the middle of the charge.
  it('R2: is busy while recover() re-sends an unanswered payment, before its answer is in', async () => {
    const first = await makeEngine();
    await first.engine.recover();
    const method = await first.engine.tokenize({ card: VISA, ...who });
    // The desk stopped after journaling a payment and before its answer (what a crash or a forced quit leaves).
    const operationId = randomUUID();
    await first.journal.begin({
      key: randomUUID(),
      operationId,
      kind: 'create_payment',
      payload: { methodId: method.id, amount: 10, currency: 'usd', reservationId: who.reservationId },
      createdAt: Date.now(),
      reservationId: who.reservationId,
      operatorId: who.operatorId,
      resendable: true,
      paymentId: undefined,
    });
    open.splice(open.indexOf(first.engine), 1);
    await first.engine.close();
    await first.journal.close();

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sending = false;
    const holding: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (init?.method === 'POST' && new URL(url).pathname.endsWith('/payments')) {
        sending = true;
        await held;
      }
      return fetch(input, init);
    };
    const journal = await openJournal(dir);
    const engine = new PaymentEngine({
      config: simulatorConfig(sim),
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      journal,
      fetch: holding,
      sleep: () => Promise.resolve(),
    });
    open.push(engine);
    const recovering = engine.recover();
    try {
      await vi.waitFor(() => expect(sending).toBe(true));
      // The charge is on its way with its key: an update must not restart the desk now.
      expect(engine.busy()).toBe(true);
    } finally {
      release();
      expect((await recovering).resent).toEqual([operationId]);
      await journal.close().catch(() => undefined);
    }
  });

  it('A: tokenize, pay, follow to succeeded; the reservation lists both', async () => {
    const { engine, journal } = await makeEngine();
    const method = await engine.tokenize({ card: VISA, guestEmail: 'guest@example.com', ...who });
    expect(method).toMatchObject({ brand: 'visa', last4: '4242' });
    const paid = await engine.pay({
      methodId: method.id,
      amountCents: 125050,
      currency: 'mxn',
      ...who,
      note: 'deposit',
      keepCard: true,
    });
    expect(paid.status).toBe('processing');
    const done = until(engine, paid.id, 'succeeded');
    await sim.advanceClock(2);
    expect((await done).amountCents).toBe(125050);
    const listed = await engine.listReservation(who.reservationId);
    expect(listed.methods.map((m) => m.id)).toEqual([method.id]);
    expect(listed.payments.map((p) => [p.id, p.status])).toEqual([[paid.id, 'succeeded']]);
    expect((await journal.operationsInState('done')).map((o) => o.kind)).toEqual(['tokenize', 'create_payment']);
  });

  it('B and C: MSI, amount update with plans recomputed, confirmation with a plan', async () => {
    const { engine } = await makeEngine();
    const method = await engine.tokenize({ card: MSI, ...who });
    const pending = await engine.pay({
      methodId: method.id,
      amountCents: 100000,
      currency: 'mxn',
      installments: true,
      ...who,
    });
    expect(pending).toMatchObject({ status: 'pending_confirmation', availableInstallments: [3, 6, 9] });
    const updated = await engine.updateAmount({
      paymentId: pending.id,
      amountCents: 180000,
      operatorId: who.operatorId,
    });
    expect(updated).toMatchObject({
      amountCents: 180000,
      originalAmountCents: 100000,
      availableInstallments: [3, 6, 9, 12, 18],
    });
    const confirmed = await engine.confirm({
      paymentId: pending.id,
      installmentsCount: 18,
      expectedAmountCents: 180000,
      operatorId: who.operatorId,
    });
    expect(confirmed).toMatchObject({ status: 'processing', installments: { count: 18, perInstallmentCents: 10000 } });
    const done = until(engine, pending.id, 'succeeded');
    await sim.advanceClock(2);
    await done;
  });

  it('D: a saved card charged again without card details', async () => {
    const { engine, requests } = await makeEngine();
    const method = await engine.tokenize({ card: VISA, ...who });
    // Saved with the guest's consent (only such a card is charged again).
    const first = await engine.pay({
      methodId: method.id,
      amountCents: 10000,
      currency: 'usd',
      keepCard: true,
      ...who,
    });
    // Charged again once the first is over: a payment still being charged holds the reservation (one at a time).
    await sim.advanceClock(2);
    await engine.getPayment(first.id);
    const before = requests.filter((r) => r.endsWith('/methods')).length;
    const second = await engine.pay({ methodId: method.id, amountCents: 4000, currency: 'usd', ...who });
    expect(second.methodId).toBe(method.id);
    expect(requests.filter((r) => r.endsWith('/methods')).length).toBe(before);
  });

  it('refunds: partial, then the rest, followed to succeeded; over-refund refused before any request', async () => {
    const { engine, requests } = await makeEngine();
    const method = await engine.tokenize({ card: VISA, ...who });
    const paid = await engine.pay({ methodId: method.id, amountCents: 10000, currency: 'usd', ...who });
    await sim.advanceClock(2);
    await engine.getPayment(paid.id);
    const partial = await engine.refund({
      paymentId: paid.id,
      amountCents: 3000,
      reason: 'requested_by_customer',
      operatorId: 'sup-1',
    });
    expect(partial.refundableCents).toBe(7000);
    const sent = requests.length;
    await expect(
      engine.refund({ paymentId: paid.id, amountCents: 7001, reason: 'duplicate', operatorId: 'sup-1' }),
    ).rejects.toMatchObject({
      code: 'refund_exceeds_remaining',
    });
    expect(requests.length).toBe(sent);
    const full = await engine.refund({ paymentId: paid.id, reason: 'cancellation', operatorId: 'sup-1' });
    expect(full.refunds.map((r) => r.amountCents)).toEqual([3000, 7000]);
    expect(full.refundableCents).toBe(0);
    const settled = until(engine, paid.id, 'succeeded');
    await sim.advanceClock(2);
    expect((await settled).refunds.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
  });
});

describe('faults through the facade', () => {
  it.each([
    ['POST /methods', 'tokenize'],
    ['POST /payments', 'create_payment'],
    ['POST /payments/{id}/refunds', 'refund'],
  ] as const)(
    'drop_after_commit on %s: the retry is a replay, so the service holds one resource',
    async (operation, kind) => {
      const { engine, journal, requests, answers } = await makeEngine();
      const method = await engine.tokenize({ card: VISA, ...who });
      const paid = await engine.pay({
        methodId: method.id,
        amountCents: 10000,
        currency: 'usd',
        keepCard: kind === 'create_payment',
        ...who,
      });
      await sim.advanceClock(2);
      await engine.getPayment(paid.id);
      await sim.fault(operation, 'drop_after_commit');
      const sentBefore = requests.length;
      const answeredBefore = answers.length;
      if (kind === 'tokenize') await engine.tokenize({ card: VISA, ...who });
      if (kind === 'create_payment')
        await engine.pay({ methodId: method.id, amountCents: 5500, currency: 'usd', ...who });
      if (kind === 'refund')
        await engine.refund({ paymentId: paid.id, amountCents: 1000, reason: 'duplicate', operatorId: 'sup-1' });
      const path = operation.split(' ')[1] ?? '';
      const matches = (line: string) =>
        new RegExp(`^POST /\\w+${path.replace('{id}', 'pay_[0-9a-f]{32}')}( |$)`).test(line);
      // two sends of the operation: the first lost its answer, the second was answered from the stored response
      expect(requests.slice(sentBefore).filter(matches)).toHaveLength(2);
      expect(answers.slice(answeredBefore).filter(matches)).toEqual([expect.stringMatching(/ 201 replayed$/)]);
      const ops = (await journal.operationsInState('done')).filter((o) => o.kind === kind);
      expect(ops.at(-1)?.resultId).toMatch(/^(mth|pay|ref)_/);
      expect(await journal.pendingOperations()).toEqual([]);
      const listed = await engine.listReservation(who.reservationId);
      // Tokenized, not kept (no consent): the journal holds it, the saved cards do not list it.
      if (kind === 'tokenize') expect(await journal.methodsOf(who.reservationId)).toHaveLength(2);
      if (kind === 'create_payment') expect(listed.payments).toHaveLength(2);
      if (kind === 'refund') expect(listed.payments[0]?.refunds).toHaveLength(1);
    },
  );

  it('a transient failure leaves the operation pending; the same operation id re-sends with the same key', async () => {
    const { engine, journal } = await makeEngine();
    const method = await engine.tokenize({ card: VISA, ...who });
    await sim.fault('POST /payments', 'error_503', 3);
    const operationId = randomUUID();
    const attempt = { operationId, methodId: method.id, amountCents: 7500, currency: 'usd' as const, ...who };
    await expect(engine.pay(attempt)).rejects.toMatchObject({ code: 'unavailable' });
    const pending = await journal.operation(operationId);
    expect(pending?.state).toBe('pending');
    const paid = await engine.pay(attempt);
    expect(await journal.operation(operationId)).toMatchObject({ state: 'done', resultId: paid.id, key: pending?.key });
    await expect(engine.pay({ ...attempt, amountCents: 7600 })).rejects.toMatchObject({ code: 'operation_changed' });
    expect((await engine.listReservation(who.reservationId)).payments).toHaveLength(1);
  });

  it('a definitive refusal closes the operation as failed', async () => {
    const { engine, journal } = await makeEngine();
    const method = await engine.tokenize({ card: VISA, ...who });
    const operationId = randomUUID();
    await expect(
      engine.pay({ operationId, methodId: method.id, amountCents: 1000, currency: 'usd', installments: true, ...who }),
    ).rejects.toMatchObject({
      code: 'installments_unavailable',
    });
    expect(await journal.operation(operationId)).toMatchObject({
      state: 'failed',
      errorCode: 'installments_unavailable',
    });
  });
});

describe('one payment at a time per reservation', () => {
  it('two charges at once on one reservation (two operation ids): one Idempotency-Key, one payment', async () => {
    const { engine, paymentKeys } = await makeEngine();
    const method = await engine.tokenize({ card: VISA, ...who });
    const charge = { methodId: method.id, amountCents: 12000, currency: 'mxn' as const, ...who };
    const [a, b] = await Promise.allSettled([
      engine.pay({ operationId: randomUUID(), ...charge }),
      engine.pay({ operationId: randomUUID(), ...charge }),
    ]);
    expect(new Set(paymentKeys).size).toBe(1);
    expect(a).toMatchObject({ status: 'fulfilled' });
    // The second gets the same payment, or is told the first has no answer yet: never a second payment.
    if (b.status === 'fulfilled') expect(b.value.id).toBe(a.status === 'fulfilled' ? a.value.id : '');
    else expect(b.reason).toMatchObject({ code: 'payment_unanswered' });
    expect((await engine.listReservation(who.reservationId)).payments).toHaveLength(1);
  });
});

describe('amount update and confirmation (MSI)', () => {
  it('a late PATCH never leaves the guest charged an older amount: confirmation checks the amount the agent saw', async () => {
    const { engine, requests } = await makeEngine({ timeoutMs: 300 });
    const method = await engine.tokenize({ card: MSI, ...who });
    const pending = await engine.pay({
      methodId: method.id,
      amountCents: 100000,
      currency: 'mxn',
      installments: true,
      ...who,
    });
    // The first update is held by the service past the engine's timeout: it lands later, after the next one.
    await sim.fault('PATCH /payments/{id}', 'delay', 1, 1200);
    const first = await engine.updateAmount({ paymentId: pending.id, amountCents: 150000, operatorId: who.operatorId });
    expect(first.amountCents).toBe(150000);
    const second = await engine.updateAmount({
      paymentId: pending.id,
      amountCents: 180000,
      operatorId: who.operatorId,
    });
    expect(second.amountCents).toBe(180000);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    // The agent confirms the 1,800.00 on the screen; the service now holds the late 1,500.00.
    const sent = requests.length;
    const refused = await engine
      .confirm({ paymentId: pending.id, installmentsCount: 3, expectedAmountCents: 180000, operatorId: who.operatorId })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'amount_changed', details: { param: 'expectedAmountCents' } });
    expect(refused).toMatchObject({
      code: 'amount_changed',
      field: 'expectedAmountCents',
      params: { heldCents: 150000, expectedCents: 180000, currency: 'mxn' },
    });
    expect(requests.slice(sent).filter((r) => r.endsWith('/confirmation'))).toEqual([]);
    expect((await engine.getPayment(pending.id)).status).toBe('pending_confirmation');
    // Set again and confirmed, the guest is charged what the agent saw.
    await engine.updateAmount({ paymentId: pending.id, amountCents: 180000, operatorId: who.operatorId });
    const confirmed = await engine.confirm({
      paymentId: pending.id,
      installmentsCount: 3,
      expectedAmountCents: 180000,
      operatorId: who.operatorId,
    });
    expect(confirmed).toMatchObject({
      status: 'processing',
      amountCents: 180000,
      installments: { count: 3, perInstallmentCents: 60000 },
    });
  });

  it('a PATCH whose answer is lost is not re-sent blindly: the payment is read first, and an update already applied is not sent again', async () => {
    const { engine, requests } = await makeEngine();
    const method = await engine.tokenize({ card: MSI, ...who });
    const pending = await engine.pay({
      methodId: method.id,
      amountCents: 100000,
      currency: 'mxn',
      installments: true,
      ...who,
    });
    await sim.fault('PATCH /payments/{id}', 'drop_after_commit', 1);
    const sent = requests.length;
    const updated = await engine.updateAmount({
      paymentId: pending.id,
      amountCents: 150000,
      operatorId: who.operatorId,
    });
    expect(updated.amountCents).toBe(150000);
    // One PATCH, then the read that found it applied (the poller may read the payment too).
    const after = requests.slice(sent).map((r) => r.replace(/pay_[0-9a-f]{32}/, '{id}'));
    expect(after.filter((r) => r.startsWith('PATCH'))).toEqual(['PATCH /api/payments/{id}']);
    expect(after.slice(0, 2)).toEqual(['PATCH /api/payments/{id}', 'GET /api/payments/{id}']);
  });
});

describe('a refund operation left pending over 24 hours', () => {
  it('does not block every new refund of the payment with a false "sent again" message: it is marked for reconciliation, never re-sent, and the new refund is made against what the service lists', async () => {
    const { engine, journal, requests } = await makeEngine();
    const method = await engine.tokenize({ card: VISA, ...who });
    const paid = await engine.pay({ methodId: method.id, amountCents: 10000, currency: 'usd', ...who });
    await sim.advanceClock(2);
    await engine.getPayment(paid.id);
    const stale = await journal.begin({
      key: randomUUID(),
      operationId: randomUUID(),
      kind: 'refund',
      payload: { amount: 40, reason: 'duplicate' },
      resendable: true,
      reservationId: who.reservationId,
      operatorId: 'sup-1',
      paymentId: paid.id,
      createdAt: Date.now() - 25 * 60 * 60 * 1000,
    });
    const sent = requests.length;
    const refunded = await engine.refund({
      operationId: randomUUID(),
      paymentId: paid.id,
      amountCents: 3000,
      reason: 'requested_by_customer',
      operatorId: 'sup-1',
    });
    expect(refunded.refunds.map((r) => r.amountCents)).toEqual([3000]);
    expect(refunded.refundableCents).toBe(7000);
    expect(requests.slice(sent).filter((r) => r.endsWith('/refunds'))).toHaveLength(1);
    expect(await journal.operation(stale.operationId)).toMatchObject({
      state: 'reconcile',
      errorCode: 'unanswered_24h',
    });
    // And the next refund is not blocked either.
    await engine.refund({
      operationId: randomUUID(),
      paymentId: paid.id,
      amountCents: 1000,
      reason: 'requested_by_customer',
      operatorId: 'sup-1',
    });
  });
});

describe('money on the wire', () => {
  it('every amount the engine sends has at most two decimals in its JSON body (never a raw double such as 0.30000000000000004)', async () => {
    const bodies: string[] = [];
    const rewrite: { current: Rewrite | undefined } = {
      current: (url, init, body) => {
        if (typeof init?.body === 'string' && /\/(payments|refunds)/.test(url) && init.method !== 'GET')
          bodies.push(init.body);
        return body;
      },
    };
    const { engine } = await makeEngine({ rewrite });
    const method = await engine.tokenize({ card: MSI, ...who });
    // Amounts whose sums in floating point go astray (0.1 + 0.2, 1000.1 + 0.2…): in cents they cannot.
    // Each on its own reservation: one payment at a time per reservation, and the MSI one waits for its plan.
    const single = await engine.pay({ methodId: method.id, amountCents: 10 + 20, currency: 'mxn', ...who });
    // A card is charged for its own reservation only: the MSI card keyed again for the other one.
    const other = await engine.tokenize({ card: MSI, ...who, reservationId: 'MEX-MSI001' });
    const msi = await engine.pay({
      methodId: other.id,
      amountCents: 100010 + 20,
      currency: 'mxn',
      installments: true,
      ...who,
      reservationId: 'MEX-MSI001',
    });
    await engine.updateAmount({ paymentId: msi.id, amountCents: 120010 + 20, operatorId: who.operatorId });
    await sim.advanceClock(2);
    await engine.getPayment(single.id);
    await engine.refund({
      paymentId: single.id,
      amountCents: 10 + 10 + 10 - 20,
      reason: 'duplicate',
      operatorId: 'sup-1',
    });
    const card = await engine.tokenize({ card: VISA, ...who, reservationId: 'MEX-BIG001' });
    const big = await engine.pay({
      methodId: card.id,
      amountCents: 99_999_999,
      currency: 'usd',
      ...who,
      reservationId: 'MEX-BIG001',
    });
    expect(big.amountCents).toBe(99_999_999);
    const amounts = bodies.map((body) => /"amount":([^,}]+)/.exec(body)?.[1]);
    expect(amounts).toEqual(['0.3', '1000.3', '1200.3', '0.1', '999999.99']);
  });
});

describe('the returnUrl setting', () => {
  it('goes with every new payment, so the cardholder lands on the hotel’s page after 3-D Secure', async () => {
    const bodies: unknown[] = [];
    const rewrite: { current: Rewrite | undefined } = {
      current: (url, init, body) => {
        if (typeof init?.body === 'string' && init.method === 'POST' && new URL(url).pathname.endsWith('/payments'))
          bodies.push(JSON.parse(init.body));
        return body;
      },
    };
    const { engine } = await makeEngine({ rewrite, returnUrl: 'https://hotel.example.test/3ds-done' });
    const method = await engine.tokenize({ card: card('4000000000003220'), ...who });
    const payment = await engine.pay({ methodId: method.id, amountCents: 5000, currency: 'mxn', ...who });
    expect(payment.status).toBe('requires_action');
    expect(bodies).toEqual([expect.objectContaining({ returnUrl: 'https://hotel.example.test/3ds-done' })]);
  });
});

describe('odd answers of the service are tolerated', () => {
  it('a refund entry without an amount does not make the payment unreadable; nothing more is refunded until its amount is known', async () => {
    const rewrite: { current: Rewrite | undefined } = { current: undefined };
    const { engine, requests } = await makeEngine({ rewrite });
    const method = await engine.tokenize({ card: VISA, ...who });
    const paid = await engine.pay({ methodId: method.id, amountCents: 10000, currency: 'usd', ...who });
    await sim.advanceClock(2);
    await engine.getPayment(paid.id);
    // A refund made elsewhere (another desk, the service's dashboard), listed by the service without its amount.
    const other = new ServiceClient({
      config: simulatorConfig(sim),
      fetch,
      tokens: new TokenManager({
        authUrl: sim.authUrl,
        clientId: sim.clientId,
        secrets: { read: () => Promise.resolve(sim.clientSecret) },
        timeoutMs: 5000,
        fetch,
      }),
    });
    const elsewhere = (await other.createRefund(paid.id, { amount: 25, reason: 'duplicate' }, randomUUID())).value;
    rewrite.current = (url, init, body) =>
      (init?.method ?? 'GET') === 'GET' && url.includes('/payments/')
        ? {
            ...(body as object),
            refunds: (body as { refunds: object[] }).refunds.map((r) =>
              Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'amount')),
            ),
          }
        : body;
    const read = await engine.getPayment(paid.id);
    expect(read.status).toBe('succeeded');
    expect(read.refunds.map((r) => [r.id, r.status])).toEqual([[elsewhere.id, 'pending']]);
    expect(read.refundableCents).toBe(0);
    const sent = requests.length;
    await expect(
      engine.refund({ paymentId: paid.id, amountCents: 1000, reason: 'duplicate', operatorId: 'sup-1' }),
    ).rejects.toMatchObject({ code: 'refund_amount_unknown' });
    expect(requests.slice(sent).filter((r) => r.endsWith('/refunds'))).toEqual([]);
    // Once the service lists the amount again, the payment reads as before.
    rewrite.current = undefined;
    const whole = await engine.getPayment(paid.id);
    expect(whole.refunds.map((r) => r.amountCents)).toEqual([2500]);
    expect(whole.refundableCents).toBe(7500);
  });
});

describe('bad input is refused before any request, and nothing is journaled', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['amount with a fraction of a cent', { amountCents: 1000.5 }],
    ['amount in major units', { amount: 10 }],
    ['amount zero', { amountCents: 0 }],
    ['amount above 999,999.99', { amountCents: 100_000_000 }],
    ['NaN', { amountCents: Number.NaN }],
    ['Infinity', { amountCents: Number.POSITIVE_INFINITY }],
    ['currency eur', { currency: 'eur' }],
    ['currency uppercase', { currency: 'MXN' }],
    ['missing reservation', { reservationId: '' }],
    ['method id of the wrong shape', { methodId: 'mth_123' }],
    ['an unknown field', { surcharge: 5 }],
  ];
  it.each(cases)('pay: %s', async (_, change) => {
    const { engine, journal, requests } = await makeEngine();
    const input = { methodId: `mth_${'a'.repeat(32)}`, amountCents: 1000, currency: 'usd', ...who, ...change };
    const error = await engine.pay(input as Parameters<PaymentEngine['pay']>[0]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'invalid_input' });
    expect((error as ServiceError).message.length).toBeGreaterThan(10);
    expect(requests).toEqual([]);
    expect(await journal.pendingOperations()).toEqual([]);
    expect(await journal.operationsInState('failed')).toEqual([]);
  });

  it('tokenize: a Luhn failure, a past expiry, a short amex CVC', async () => {
    const { engine, requests } = await makeEngine();
    await expect(engine.tokenize({ card: card('4242424242424241'), ...who })).rejects.toMatchObject({
      code: 'invalid_input',
      details: { param: 'card.number' },
    });
    await expect(engine.tokenize({ card: { ...VISA, expYear: 2020 }, ...who })).rejects.toMatchObject({
      details: { param: 'card.expYear' },
    });
    await expect(engine.tokenize({ card: card('378282246310005', '123'), ...who })).rejects.toMatchObject({
      details: { param: 'card.cvv' },
    });
    expect(requests).toEqual([]);
  });

  it('refund and read: ids of the wrong shape', async () => {
    const { engine, requests } = await makeEngine();
    await expect(engine.getPayment('pay_nope')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(engine.refund({ paymentId: 'pay_x', reason: 'duplicate', operatorId: 'sup' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(requests).toEqual([]);
  });
});

describe('no card number, CVV, secret or token at rest', () => {
  it('after every test card, none is in the journal files, the logs or the events', async () => {
    const { engine, journal, tokens, logs, events } = await makeEngine();
    // Each card on its own reservation: one payment at a time per reservation, and some wait (3-D Secure, a plan).
    const reservations = ALL_CARDS.map((_, i) => `${who.reservationId}-${i}`);
    for (const [i, c] of ALL_CARDS.entries()) {
      const reservationId = reservations[i] ?? who.reservationId;
      const method = await engine.tokenize({ card: c, guestEmail: 'guest@example.com', ...who, reservationId });
      const msi = c === MSI;
      await engine.pay({
        methodId: method.id,
        amountCents: 50000,
        currency: 'mxn',
        ...(msi ? { installments: true } : {}),
        ...who,
        reservationId,
      });
    }
    await sim.advanceClock(2);
    for (const reservationId of reservations)
      for (const p of (await engine.listReservation(reservationId)).payments) await engine.getPayment(p.id);
    await journal.close();
    const files = readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1'));
    const haystacks = [...files, logs.join('\n'), JSON.stringify(events)];
    expect(tokens.length).toBeGreaterThan(0);
    expect(events.length).toBeGreaterThan(0);
    for (const text of haystacks) {
      for (const c of ALL_CARDS) expect(text).not.toContain(c.number);
      expect(text).not.toMatch(/"cvv"/i);
      expect(text).not.toContain(sim.clientSecret);
      for (const t of tokens) expect(text).not.toContain(t);
    }
  });
});
