// Races between desks: two desks on one journal (the center's real PostgreSQL, and two connections on one
// embedded file) and one simulator, each desk's moment forced where the race would be. fetch is wrapped only to observe
// what the service made; a desk's journal is wrapped only to run the other desk at the worst moment.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../main/payments';
import { JOURNAL_STORE } from '../../../main/payments/journal';
import { StorageError } from '../../../main/storage';
import { useStoreBackends } from '../../support/backends';
import { DESK_A, DESK_B, useEngineDesks } from '../../support/engine-desks';

const year = new Date().getUTCFullYear() + 3;
const VISA = { number: '4242424242424242', expMonth: 12, expYear: year, cvv: '123' };
/** The simulator's card that asks for 3-D Secure: its payment waits for the cardholder (requires_action). */
const CHALLENGE = { number: '4000000000003220', expMonth: 12, expYear: year, cvv: '123' };

const { made, openDesk } = useEngineDesks();

describe.each(useStoreBackends([JOURNAL_STORE]))('two desks, the worst moment ($name)', (backend) => {
  it('a payment answered at desk A between desk B reading the payments and the unanswered attempts: B does not charge the reservation again while A’s waits for 3-D Secure', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const reservationId = `CUN-${randomUUID().slice(0, 6).toUpperCase()}`;
    const cardA = await a.engine.tokenize({ card: CHALLENGE, reservationId, operatorId: 'ana' });
    const cardB = await b.engine.tokenize({ card: VISA, reservationId, operatorId: 'luis' });

    // Desk B has read the reservation's payments (none yet) and is about to read its unanswered attempts: desk A's
    // payment is begun, sent and answered (waiting for the cardholder) right then.
    let atA: Promise<unknown> | undefined;
    const read = b.journal.paymentOperationsOf.bind(b.journal);
    b.journal.paymentOperationsOf = async (...args) => {
      atA ??= a.engine.pay({
        methodId: cardA.id,
        amountCents: 5_000,
        currency: 'usd',
        reservationId,
        operatorId: 'ana',
      });
      await atA;
      return read(...args);
    };
    const atB = await b.engine
      .pay({ methodId: cardB.id, amountCents: 5_000, currency: 'usd', reservationId, operatorId: 'luis' })
      .catch((error: unknown) => error);

    expect(await atA).toMatchObject({ status: 'requires_action' });
    // One payment on the reservation while the first is in progress: B is told in words, nothing sent.
    expect(atB).toBeInstanceOf(ServiceError);
    expect((atB as ServiceError).code).toBe('reservation_payment_in_progress');
    expect(made.payments.size).toBe(1);
    // B's attempt left nothing that a retry or a restart would send.
    expect(await b.journal.pendingOperations()).toEqual([]);
  });

  // An answer received while the center is down is kept and written when it returns.
  it('an answer received while the center cannot be written is kept and written once the center is back, without the agent asking again; trying again then charges nothing more', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const reservationId = `HTL-D-${randomUUID().slice(0, 6)}`;
    const operationId = randomUUID();
    const card = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
    // The center goes away as the answer arrives (every write fails as the storage layer says it), and is back 1.5 s later.
    const transaction = a.journal.transaction.bind(a.journal);
    let downUntil: number | undefined;
    let refused = 0;
    a.journal.transaction = async (fn) => {
      // The begin's own transaction goes through; every one after the service made the payment fails until the center is back.
      if (made.payments.size > 0) downUntil ??= Date.now() + 1_500;
      if (downUntil !== undefined && Date.now() < downUntil) {
        refused++;
        throw new StorageError('center_unavailable', 'The center cannot be reached.');
      }
      return transaction(fn);
    };
    const paid: unknown = await a.engine
      .pay({ operationId, methodId: card.id, amountCents: 7_000, currency: 'usd', reservationId, operatorId: 'ana' })
      .catch((e: unknown) => e);
    // The agent is told the center is down, at once.
    expect(paid).toMatchObject({ code: 'center_unavailable' });
    expect(made.payments.size).toBe(1);
    expect(a.engine.busy()).toBe(true);
    let written: { id: string; status: string }[] = [];
    for (let i = 0; i < 80 && written.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      written = await a.journal.paymentsOf(reservationId);
    }
    expect(refused).toBeGreaterThan(1);
    expect(written.map((p) => p.id)).toEqual([...made.payments]);
    expect((await a.journal.paymentOperationsOf(reservationId, ['pending'])).length).toBe(0);
    // The agent, told the center was down, tries the same payment again: the one payment, nothing more sent to the service.
    const again = await a.engine.pay({
      operationId,
      methodId: card.id,
      amountCents: 7_000,
      currency: 'usd',
      reservationId,
      operatorId: 'ana',
    });
    expect(again.id).toBe(written[0]?.id);
    expect(made.payments.size).toBe(1);
  });

  it('a desk closed while it still keeps an answer leaves the operation unanswered, and the next start re-sends it with its key: one payment', async () => {
    const storage = backend.storage();
    const a = await openDesk(storage, DESK_A);
    const reservationId = `HTL-K-${randomUUID().slice(0, 6)}`;
    const card = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
    const before = made.payments.size;
    const transaction = a.journal.transaction.bind(a.journal);
    a.journal.transaction = async (fn) => {
      if (made.payments.size > before) throw new StorageError('center_unavailable', 'The center cannot be reached.');
      return transaction(fn);
    };
    await expect(
      a.engine.pay({ methodId: card.id, amountCents: 4_000, currency: 'usd', reservationId, operatorId: 'ana' }),
    ).rejects.toMatchObject({ code: 'center_unavailable' });
    expect(made.payments.size).toBe(before + 1);
    await a.engine.close();
    const restarted = await openDesk(backend.anotherDesk(), DESK_A);
    const report = await restarted.engine.recover();
    expect(report.resent.length).toBe(1);
    expect(made.payments.size).toBe(before + 1);
    expect((await restarted.journal.paymentsOf(reservationId)).map((p) => p.id)).toHaveLength(1);
  });

  it('an operation desk A settled is never overwritten by desk B’s stale decision (reconcile, failed): its answer and result stay', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const reservationId = `HTL-S-${randomUUID().slice(0, 6)}`;
    const key = randomUUID();
    const operationId = randomUUID();
    await a.journal.begin({
      key,
      operationId,
      kind: 'create_payment',
      payload: { methodId: 'pm_x', amount: 12.5, currency: 'usd', reservationId, metadata: { agent: 'ana' } },
      resendable: true,
      reservationId,
      operatorId: 'ana',
      paymentId: undefined,
      createdAt: Date.now(),
    });
    // Desk B read it unanswered (past 24 h, say) just before desk A's answer came and was written.
    const seen = await b.journal.paymentOperationsOf(reservationId, ['pending']);
    expect(seen.map((op) => op.key)).toEqual([key]);
    await a.journal.settle(key, { state: 'done', resultId: 'pay_answered', httpStatus: 201 }, Date.now());
    await b.journal.settle(key, { state: 'reconcile', errorCode: 'unanswered_24h' }, Date.now());
    await b.journal.settle(key, { state: 'failed', errorCode: 'card_declined', httpStatus: 402 }, Date.now());

    expect(await a.journal.operationByKey(key)).toMatchObject({
      state: 'done',
      resultId: 'pay_answered',
      errorCode: undefined,
    });
  });

  // Desk A's network to the center fails as the service answers its payment (the
  // answer is kept on desk A); desk B, whose clock runs a day ahead, takes the same reservation. B finds A's attempt
  // unanswered "for 24 hours" by its own clock and marks it for reconciliation: the kept answer must still be written
  // when A's center is back (the journal takes a 'done' over a 'reconcile', as it does for an answer written at once),
  // not dropped because the row is no longer 'pending'.
  it('a kept answer whose operation another desk marked for reconciliation meanwhile is still written', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B, { now: () => Date.now() + 25 * 60 * 60 * 1000 });
    const reservationId = `HTL-R-${randomUUID().slice(0, 6)}`;
    const card = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
    const before = made.payments.size;
    const transaction = a.journal.transaction.bind(a.journal);
    let down = true;
    a.journal.transaction = async (fn) => {
      if (down && made.payments.size > before)
        throw new StorageError('center_unavailable', 'The center cannot be reached.');
      return transaction(fn);
    };
    await expect(
      a.engine.pay({ methodId: card.id, amountCents: 6_000, currency: 'usd', reservationId, operatorId: 'ana' }),
    ).rejects.toMatchObject({ code: 'center_unavailable' });
    const [op] = await b.journal.paymentOperationsOf(reservationId, ['pending']);
    expect(op).toBeDefined();
    // Desk B's call finds it (its clock says: unanswered for a day) and marks it; what B does next is the test below.
    await b.journal.settle(op?.key ?? '', { state: 'reconcile', errorCode: 'unanswered_24h' }, Date.now());
    down = false;
    let written: { id: string }[] = [];
    for (let i = 0; i < 80 && written.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      written = await a.journal.paymentsOf(reservationId);
    }
    expect(written.map((p) => p.id)).toEqual([...made.payments].slice(before));
    expect(await a.journal.operation(op?.operationId ?? '')).toMatchObject({ state: 'done' });
  });

  // Operations are stamped and aged by the engine's clock (the desk's, set right by the center's: PaymentEngine.now,
  // syncClock), never by comparing another desk's created_at (its clock) with this desk's: a desk whose clock ran a day
  // ahead would close desk A's attempt as "unanswered for 24 hours" while A still waited for the service's answer (or
  // kept it), free the reservation and charge it again.
  it('a desk whose clock runs a day ahead does not charge a reservation again while desk A keeps the answer of its payment', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B, { now: () => Date.now() + 25 * 60 * 60 * 1000 });
    const reservationId = `HTL-T-${randomUUID().slice(0, 6)}`;
    const cardA = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
    const cardB = await b.engine.tokenize({ card: VISA, reservationId, operatorId: 'luis' });
    const before = made.payments.size;
    const transaction = a.journal.transaction.bind(a.journal);
    a.journal.transaction = async (fn) => {
      if (made.payments.size > before) throw new StorageError('center_unavailable', 'The center cannot be reached.');
      return transaction(fn);
    };
    await expect(
      a.engine.pay({ methodId: cardA.id, amountCents: 6_000, currency: 'usd', reservationId, operatorId: 'ana' }),
    ).rejects.toMatchObject({ code: 'center_unavailable' });
    expect(made.payments.size).toBe(before + 1);
    await b.engine
      .pay({ methodId: cardB.id, amountCents: 6_000, currency: 'usd', reservationId, operatorId: 'luis' })
      .catch(() => undefined);
    expect(made.payments.size).toBe(before + 1);
  });

  // A refund's operation is its body (amount, reason) and its payment: asked for again by its id with another payment
  // id, it is refused and nothing is sent. "Resumed" on the other payment with the first one's key, it would refund
  // payment 2, close the operation as done and leave payment 1's approved refund unmade; through the refund desk it would
  // also skip every cap (an operation already begun is not checked again), whoever began it. Desk A's refund of payment
  // 1 is begun (its answer lost); desk B asks for the same operation id on payment 2.
  it('an operation begun for one payment is not resumed for another: refused, nothing sent', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const pay = async (): Promise<string> => {
      const reservationId = `HTL-P-${randomUUID().slice(0, 6)}`;
      const card = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
      let payment = await a.engine.pay({
        methodId: card.id,
        amountCents: 20_000,
        currency: 'usd',
        reservationId,
        operatorId: 'ana',
      });
      for (let i = 0; i < 100 && payment.status !== 'succeeded'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        payment = await a.engine.getPayment(payment.id);
      }
      expect(payment.status).toBe('succeeded');
      return payment.id;
    };
    const first = await pay();
    const second = await pay();
    const operationId = randomUUID();
    // Desk A began the refund of the first payment and did not get its answer (the service never saw it, here).
    await a.journal.begin({
      key: randomUUID(),
      operationId,
      kind: 'refund',
      payload: { amount: 100, reason: 'duplicate' },
      createdAt: Date.now(),
      paymentId: first,
      reservationId: (await a.engine.getPayment(first)).reservationId,
      operatorId: 'root',
      resendable: true,
    });
    const refundsBefore = made.refunds.size;
    await expect(
      b.engine.refund({ operationId, paymentId: second, amountCents: 10_000, reason: 'duplicate', operatorId: 'sam' }),
    ).rejects.toMatchObject({ code: 'operation_changed' });
    expect(made.refunds.size).toBe(refundsBefore);
    expect(await b.journal.operation(operationId)).toMatchObject({ state: 'pending', paymentId: first });
  });
});
