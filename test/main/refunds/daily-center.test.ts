// The supervisor's daily refund cap across the desks of a center: what they refunded at one desk counts at the next.
// Two desks on one journal (the center's real PostgreSQL, and two connections on one embedded file) and one simulator.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentEngine, simulatorConfig, type PaymentView } from '../../../main/payments';
import { JOURNAL_STORE, Journal } from '../../../main/payments/journal';
import { RefundDesk, RefundError, RefundRequests } from '../../../main/refunds';
import type { RefundHistory } from '../../../main/refunds/daily';
import { useSimulator } from '../../support/simulator';
import { embeddedStorage, StorageError, type Storage } from '../../../main/storage';
import type { OperatorView } from '../../../shared/operators';
import { useStoreBackends } from '../../support/backends';

const DESK_A = { deskId: '3c3c3c3c-0000-4000-8000-00000000003c' };
const DESK_B = { deskId: '4d4d4d4d-0000-4000-8000-00000000004d' };
const VISA = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' };
const SAM: OperatorView = { id: 'sam', displayName: 'Sam', role: 'supervisor', disabled: false };
const SUE: OperatorView = { id: 'sue', displayName: 'Sue', role: 'supervisor', disabled: false };

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });

interface Desk {
  journal: Journal;
  engine: PaymentEngine;
  requests: RefundRequests;
  refunds: RefundDesk;
  dir: string;
}
const opened: Desk[] = [];
afterEach(async () => {
  for (const desk of opened.splice(0)) {
    await desk.engine.close();
    await desk.journal.close();
    await desk.requests.close();
    rmSync(desk.dir, { recursive: true, force: true });
  }
});

async function openDesk(
  storage: Promise<Storage>,
  identity: { deskId: string },
  history?: (journal: Journal) => RefundHistory,
  now?: () => number,
): Promise<Desk> {
  const journal = await Journal.open(await storage, identity);
  const engine = new PaymentEngine({
    config: simulatorConfig(sim),
    secrets: { read: () => Promise.resolve(sim.clientSecret) },
    journal,
    fetch,
    ...(now ? { now } : {}),
  });
  // The refund requests stay in each desk's own file here (their store moves to the center separately).
  const dir = mkdtempSync(join(tmpdir(), 'refund-center-'));
  const requests = await RefundRequests.open(embeddedStorage(dir), identity);
  const refunds = new RefundDesk({
    engine,
    requests,
    history: history?.(journal) ?? journal,
    timeZone: 'UTC',
    verifyApprover: () => Promise.reject(new Error('not used here')),
  });
  const desk = { journal, engine, requests, refunds, dir };
  opened.push(desk);
  return desk;
}

async function succeededPayment(desk: Desk, amountCents: number): Promise<PaymentView> {
  const reservationId = `HTL-CAP-${randomUUID().slice(0, 6)}`;
  const card = await desk.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
  let payment = await desk.engine.pay({
    methodId: card.id,
    amountCents,
    currency: 'usd',
    reservationId,
    operatorId: 'ana',
  });
  for (let i = 0; i < 100 && payment.status !== 'succeeded'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    payment = await desk.engine.getPayment(payment.id);
  }
  expect(payment.status).toBe('succeeded');
  return payment;
}

describe.each(useStoreBackends([JOURNAL_STORE]))('the daily refund cap on two desks ($name)', (backend) => {
  it('450 USD refunded at desk A leaves 50 USD for the same supervisor at desk B (the default cap: 500 USD a day)', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const first = await succeededPayment(a, 100_000);
    const second = await succeededPayment(b, 100_000);
    await a.refunds.refund(
      { operationId: randomUUID(), paymentId: first.id, amountCents: 45_000, reason: 'duplicate' },
      SAM,
    );

    const refused: unknown = await b.refunds
      .refund({ operationId: randomUUID(), paymentId: second.id, amountCents: 10_000, reason: 'duplicate' }, SAM)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RefundError);
    expect(refused).toMatchObject({
      code: 'refund_daily_limit',
      params: { refundedCents: 45_000, leftCents: 5_000, limitCents: 50_000 },
    });
    // What is left today still goes, at either desk.
    const after = await b.refunds.refund(
      { operationId: randomUUID(), paymentId: second.id, amountCents: 5_000, reason: 'duplicate' },
      SAM,
    );
    expect(after.refunds.map((r) => r.amountCents)).toEqual([5_000]);
  });

  // The same supervisor signing two manager overrides at two agents' desks at once
  // (verifyApprover needs no session). The daily cap is checked again where the refund's operation is written, in a
  // serializable transaction of the center: desk B's early count is read just before desk A's refund is made, and its
  // refund is still refused.
  it('two refunds by the same supervisor at two desks at the same moment cannot both fit in what is left today', async () => {
    let atA: Promise<unknown> | undefined;
    const arranged: { a?: Desk; first?: PaymentView } = {};
    const late = (journal: Journal): RefundHistory => ({
      payments: (ids) => journal.payments(ids),
      refundOperationsBegunBetween: async (from, to, operatorId) => {
        const read = await journal.refundOperationsBegunBetween(from, to, operatorId);
        atA ??= arranged.a?.refunds.refund(
          { operationId: randomUUID(), paymentId: arranged.first?.id ?? '', amountCents: 40_000, reason: 'duplicate' },
          SAM,
        );
        await atA;
        return read;
      },
    });
    const a = await openDesk(backend.storage(), DESK_A);
    arranged.a = a;
    const b = await openDesk(backend.anotherDesk(), DESK_B, late);
    arranged.first = await succeededPayment(a, 100_000);
    const second = await succeededPayment(b, 100_000);
    const atB: unknown = await b.refunds
      .refund({ operationId: randomUUID(), paymentId: second.id, amountCents: 40_000, reason: 'duplicate' }, SAM)
      .catch((e: unknown) => e);
    await atA;
    expect(atB).toBeInstanceOf(RefundError);
    expect(atB).toMatchObject({ code: 'refund_daily_limit' });
  });

  // bench:center at 100 desks: approvals by different supervisors at once were rolled back and begun again (the cap's
  // read in a serializable transaction collided with every other refund being begun). An operator's refunds now take
  // turns, and other operators' never meet them.
  it('refunds by different supervisors at two desks at the same moment are each begun once, never rolled back', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const transactions = { count: 0, failed: 0 };
    for (const desk of [a, b]) {
      const transaction = desk.journal.transaction.bind(desk.journal);
      desk.journal.transaction = (fn, options) => {
        transactions.count += 1;
        return transaction(fn, options).catch((error: unknown) => {
          transactions.failed += 1;
          throw error;
        });
      };
    }
    const payments = await Promise.all([succeededPayment(a, 100_000), succeededPayment(b, 100_000)]);
    // Each payment has a refund already, as in every round below (a payment with refunds is saved in a transaction).
    await b.refunds.refund(
      { operationId: randomUUID(), paymentId: payments[1]?.id ?? '', amountCents: 1_000, reason: 'duplicate' },
      SUE,
    );
    await a.refunds.refund(
      { operationId: randomUUID(), paymentId: payments[0]?.id ?? '', amountCents: 1_000, reason: 'duplicate' },
      SAM,
    );
    // How many transactions one refund takes, alone.
    transactions.count = 0;
    await a.refunds.refund(
      { operationId: randomUUID(), paymentId: payments[0]?.id ?? '', amountCents: 1_000, reason: 'duplicate' },
      SAM,
    );
    const alone = transactions.count;
    expect(alone).toBeGreaterThan(0);
    transactions.count = 0;
    const rounds = 4;
    for (let round = 0; round < rounds; round++) {
      await Promise.all([
        a.refunds.refund(
          { operationId: randomUUID(), paymentId: payments[0]?.id ?? '', amountCents: 1_000, reason: 'duplicate' },
          SAM,
        ),
        b.refunds.refund(
          { operationId: randomUUID(), paymentId: payments[1]?.id ?? '', amountCents: 1_000, reason: 'duplicate' },
          SUE,
        ),
      ]);
    }
    // As many as each refund takes alone, and none rolled back: none was run again.
    expect(transactions.count).toBe(rounds * 2 * alone);
    expect(transactions.failed).toBe(0);
  });

  // A refund operation is stamped, and "today" counted, by the engine's clock, the desk's set right by the center's
  // (PaymentEngine.now), never the desk's own: at a desk whose clock runs a day behind, the refunds the supervisor made
  // today at a right desk would be yesterday's, and a second full cap would go out the same day.
  it('a desk whose clock runs a day behind does not give the same supervisor a second cap the same day', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B, undefined, () => Date.now() - 24 * 60 * 60 * 1000);
    const first = await succeededPayment(a, 100_000);
    const second = await succeededPayment(a, 100_000);
    await a.refunds.refund(
      { operationId: randomUUID(), paymentId: first.id, amountCents: 50_000, reason: 'duplicate' },
      SAM,
    );

    const refused: unknown = await b.refunds
      .refund({ operationId: randomUUID(), paymentId: second.id, amountCents: 40_000, reason: 'duplicate' }, SAM)
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'refund_daily_limit' });
  });

  // An approval whose refund's answer was kept on the desk (the center could not take it) is settled as soon as the
  // engine writes that answer (PaymentEngine.onKeptAnswer), not only at the approver's retry or the desk's next start:
  // meanwhile the shared queue would show it approved without its refund.
  it('an approved request whose refund answer was kept is settled with its refund once the answer is written', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const payment = await succeededPayment(a, 100_000);
    const ANA: OperatorView = { id: 'ana', displayName: 'Ana', role: 'agent', disabled: false };
    const requestId = randomUUID();
    await a.refunds.request({ requestId, paymentId: payment.id, amountCents: 10_000, reason: 'duplicate' }, ANA);
    // Once the refund's operation is begun (its row written before it is sent), the center cannot take the answer for a second.
    const transaction = a.journal.transaction.bind(a.journal);
    let downUntil: number | undefined;
    a.journal.transaction = async (fn, options) => {
      if ((await a.journal.operation(requestId)) !== undefined) downUntil ??= Date.now() + 1_000;
      if (downUntil !== undefined && Date.now() < downUntil)
        throw new StorageError('center_unavailable', 'The center cannot be reached.');
      return transaction(fn, options);
    };
    await expect(a.refunds.approve(requestId, SAM)).rejects.toMatchObject({ code: 'center_unavailable' });
    let state: string | undefined;
    for (let i = 0; i < 100 && state !== 'done'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = (await a.journal.operation(requestId))?.state;
    }
    expect(state).toBe('done');
    expect((await a.requests.get(requestId))?.refundId).toBeDefined();
  });
});
