// The payment journal's contract on both backends (the embedded journal.db and the center's real PostgreSQL), the
// adoption of a journal.db written by the SqliteFile era, and the center's money rules held by the database across desks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  JOURNAL_STORE,
  Journal,
  LEGACY_SQLITE_MIGRATIONS,
  SCHEMA_VERSION,
  reservationKey,
  type Operation,
} from '../../../main/payments/journal';
import { embeddedStorage, SqliteFile, UniqueViolationError } from '../../../main/storage';
import { hearAt, useStoreBackends } from '../../support/backends';

const DESK_A = { deskId: '0a0a0a0a-0000-4000-8000-00000000000a' };
const DESK_B = { deskId: '0b0b0b0b-0000-4000-8000-00000000000b' };

type Begin = Parameters<Journal['begin']>[0];
let counter = 0;
const op = (extra: Partial<Begin> = {}): Begin => {
  counter++;
  return {
    key: `k-${counter}`,
    operationId: `o-${counter}`,
    kind: 'create_payment',
    payload: { amount: 10, currency: 'usd' },
    resendable: true,
    reservationId: `R-${counter}`,
    operatorId: 'ana',
    paymentId: undefined,
    createdAt: 1_000 + counter,
    ...extra,
  };
};
const payment = (id: string, reservationId: string, extra: Record<string, unknown> = {}) => ({
  id,
  status: 'succeeded',
  amount: 10,
  currency: 'usd',
  methodId: 'mth_1',
  reservationId,
  refunds: [],
  metadata: {},
  createdAt: '2030-01-01T00:00:00Z',
  ...extra,
});

describe.each(useStoreBackends([JOURNAL_STORE]))('the journal on $name', (backend) => {
  async function open(desk = DESK_A): Promise<Journal> {
    return Journal.open(await backend.storage(), desk);
  }
  async function other(desk = DESK_B): Promise<Journal> {
    return Journal.open(await backend.anotherDesk(), desk);
  }

  it('writes an operation before it is sent and reads it back, naming its desk', async () => {
    const journal = await open();
    const begun = await journal.begin(
      op({ kind: 'refund', payload: { reason: 'duplicate' }, reservationId: 'cun-6b3d8f', paymentId: 'pay_1' }),
    );
    expect(begun).toMatchObject({
      state: 'pending',
      kind: 'refund',
      reservationId: 'cun-6b3d8f',
      paymentId: 'pay_1',
      deskId: DESK_A.deskId,
      resendable: true,
    });
    expect(typeof begun.createdAt).toBe('number');
    expect((await journal.pendingOperations()).map((o) => o.operationId)).toEqual([begun.operationId]);
    await journal.settle(begun.key, { state: 'done', resultId: 're_1', httpStatus: 201 }, 5_000);
    expect(await journal.operation(begun.operationId)).toMatchObject({ state: 'done', resultId: 're_1' });
    expect(await journal.pendingOperations()).toEqual([]);
  });

  it('keys are unique: one operation id, one Idempotency-Key', async () => {
    const journal = await open();
    const first = op();
    await journal.begin(first);
    await expect(journal.begin({ ...first, key: 'another-key', reservationId: 'OTHER-1' })).rejects.toBeInstanceOf(
      UniqueViolationError,
    );
    await expect(
      journal.begin({ ...first, operationId: 'another-id', reservationId: 'OTHER-2' }),
    ).rejects.toBeInstanceOf(UniqueViolationError);
  });

  it('canceled is final for the journal too: neither a canceled payment nor a canceled refund is unsettled; an unknown status is', async () => {
    const journal = await open();
    await journal.savePayment(payment('pay_canceled', 'R', { status: 'canceled' }));
    await journal.savePayment(
      payment('pay_refund_canceled', 'R', {
        refunds: [{ id: 'ref_1', status: 'canceled', amount: 5, currency: 'usd' }],
      }),
    );
    await journal.savePayment(payment('pay_review', 'R', { status: 'under_review' }));
    await journal.savePayment(
      payment('pay_refund_review', 'R', {
        refunds: [{ id: 'ref_2', status: 'under_review', amount: 5, currency: 'usd' }],
      }),
    );
    expect((await journal.unsettledPaymentIds()).sort()).toEqual(['pay_refund_review', 'pay_review']);
  });

  it('stores at most the last four digits of a card', async () => {
    const journal = await open();
    await journal.saveMethod(
      {
        id: 'mth_1',
        type: 'card',
        card: { last4: '4242424242424242', brand: 'visa', expMonth: 1, expYear: 2030 },
        createdAt: '2026-01-01T00:00:00Z',
      },
      'R',
    );
    expect((await journal.methodsOf('R'))[0]?.last4).toBe('4242');
  });

  it('keeps cents exact as numbers, the first agent, and a refund amount first seen', async () => {
    const journal = await open();
    await journal.savePayment(
      payment('pay_1', 'CUN-6B3D8F', {
        amount: 20_000_000.07,
        refunds: [{ id: 're_1', status: 'pending', currency: 'usd' }],
      }),
      { operatorId: 'ana' },
    );
    await journal.savePayment(
      payment('pay_1', 'CUN-6B3D8F', {
        amount: 20_000_000.07,
        refunds: [{ id: 're_1', status: 'succeeded', amount: 3, currency: 'usd' }],
      }),
      { operatorId: 'luis' },
    );
    const stored = await journal.payment('pay_1');
    expect(stored).toMatchObject({
      amountCents: 2_000_000_007,
      operatorId: 'ana',
      deskId: DESK_A.deskId,
      refunds: [{ id: 're_1', amountCents: 300, status: 'succeeded' }],
    });
    expect(typeof stored?.amountCents).toBe('number');
  });

  it('finds a reservation however its number is typed: case, dashes, spaces, dots', async () => {
    const journal = await open();
    await journal.savePayment(payment('pay_1', 'CUN-6B3D8F'));
    await journal.begin(op({ reservationId: 'cun 6b3d8f', key: 'kx', operationId: 'ox' }));
    for (const typed of ['cun6b3d8f', 'CUN.6B3D8F', 'CUN–6B3D8F', ' cun-6b3d8f']) {
      expect((await journal.paymentsOf(typed)).map((p) => p.id)).toEqual(['pay_1']);
      expect((await journal.paymentOperationsOf(typed, ['pending'])).map((o) => o.operationId)).toEqual(['ox']);
    }
    expect(reservationKey('cun-6b3d.8f')).toBe('CUN6B3D8F');
    expect((await journal.searchPayments({ reservationIds: ['CUN6B3D8F'], limit: 10 })).map((p) => p.id)).toEqual([
      'pay_1',
    ]);
  });

  it('searches by payment id prefix (its wildcards literal), card, agent and dates', async () => {
    const journal = await open();
    await journal.saveMethod(
      {
        id: 'mth_1',
        type: 'card',
        card: { last4: '4242', brand: 'visa', expMonth: 1, expYear: 2030 },
        createdAt: '2026-01-01T00:00:00Z',
      },
      'R',
    );
    await journal.savePayment(payment('pay_ab1', 'R', { createdAt: '2030-01-02T00:00:00Z' }), { operatorId: 'Ana' });
    await journal.savePayment(payment('pay_ab2', 'R', { createdAt: '2030-01-03T00:00:00Z', methodId: 'mth_2' }), {
      operatorId: 'luis',
    });
    expect((await journal.searchPayments({ paymentId: 'pay_ab', limit: 10 })).map((p) => p.id)).toEqual([
      'pay_ab2',
      'pay_ab1',
    ]);
    expect(await journal.searchPayments({ paymentId: 'pay_%', limit: 10 })).toEqual([]);
    expect((await journal.searchPayments({ last4: '4242', limit: 10 })).map((p) => [p.id, p.brand])).toEqual([
      ['pay_ab1', 'visa'],
    ]);
    expect((await journal.searchPayments({ operatorId: 'ana', limit: 10 })).map((p) => p.id)).toEqual(['pay_ab1']);
    expect((await journal.searchPayments({ createdFrom: '2030-01-03T00:00:00Z', limit: 10 })).map((p) => p.id)).toEqual(
      ['pay_ab2'],
    );
    expect(await journal.searchPayments({ reservationIds: [], limit: 10 })).toEqual([]);
  });

  it('writes all of a transaction or nothing', async () => {
    const journal = await open();
    const begun = await journal.begin(op());
    await expect(
      journal.transaction(async (j) => {
        await j.savePayment(payment('pay_t', 'R'));
        await j.settle(begun.key, { state: 'done', resultId: 'pay_t', httpStatus: 201 }, 1);
        throw new Error('lost before commit');
      }),
    ).rejects.toThrow('lost before commit');
    expect(await journal.payment('pay_t')).toBeUndefined();
    expect((await journal.operation(begun.operationId))?.state).toBe('pending');
  });

  it('is unfinished, in one statement, while this desk has an unanswered operation, an unsettled payment or a refund not final', async () => {
    const a = await open(DESK_A);
    const b = await other(DESK_B);
    expect(await a.hasUnfinished()).toBe(false);
    const begun = await a.begin(op());
    expect(await a.hasUnfinished()).toBe(true);
    // Another desk's work is that desk's.
    expect(await b.hasUnfinished()).toBe(false);
    await a.settle(begun.key, { state: 'done', resultId: 'pay_u', httpStatus: 201 }, 1);
    expect(await a.hasUnfinished()).toBe(false);
    await a.savePayment(payment('pay_u', 'R-U', { status: 'processing' }));
    expect(await a.hasUnfinished()).toBe(true);
    await a.savePayment(payment('pay_u', 'R-U'));
    expect(await a.hasUnfinished()).toBe(false);
    await a.savePayment(
      payment('pay_u', 'R-U', { refunds: [{ id: 'ref_u', status: 'pending', amount: 5, currency: 'usd' }] }),
    );
    expect(await a.hasUnfinished()).toBe(true);
    expect(await b.hasUnfinished()).toBe(false);
    await a.savePayment(
      payment('pay_u', 'R-U', { refunds: [{ id: 'ref_u', status: 'canceled', amount: 5, currency: 'usd' }] }),
    );
    expect(await a.hasUnfinished()).toBe(false);
  });

  it('tells the other desks of a payment or refund saved only when what it says changed (a poll that finds nothing new is silent)', async () => {
    const journal = await open();
    const hearing = await hearAt(await backend.anotherDesk());
    // The embedded files have no other desk to tell, and nothing to listen with.
    expect(hearing === undefined).toBe(backend.name === 'sqlite');
    if (hearing === undefined) return;
    try {
      const told = async (count: number): Promise<void> => {
        await hearing.settle(count);
        expect(hearing.heard.map((change) => change.kind === 'payment' && change.paymentId)).toEqual(
          Array.from({ length: count }, () => 'pay_n'),
        );
      };
      await journal.savePayment(payment('pay_n', 'R-N', { status: 'processing' }));
      await told(1);
      await journal.savePayment(payment('pay_n', 'R-N', { status: 'processing' }));
      await told(1);
      await journal.savePayment(payment('pay_n', 'R-N'));
      await told(2);
      await journal.savePayment(
        payment('pay_n', 'R-N', { refunds: [{ id: 'ref_n', status: 'pending', amount: 5, currency: 'usd' }] }),
      );
      await told(3);
      await journal.savePayment(
        payment('pay_n', 'R-N', { refunds: [{ id: 'ref_n', status: 'pending', amount: 5, currency: 'usd' }] }),
      );
      await journal.saveRefund(
        { id: 'ref_n', paymentId: 'pay_n', status: 'pending', amount: 5, currency: 'usd' },
        { id: 'pay_n', currency: 'usd', reservationId: 'R-N' },
      );
      await told(3);
      // Who made the refund, learnt later, is news; the same again is not.
      await journal.saveRefund(
        { id: 'ref_n', paymentId: 'pay_n', status: 'pending', amount: 5, currency: 'usd' },
        { id: 'pay_n', currency: 'usd', reservationId: 'R-N' },
        'sara',
      );
      await told(4);
      await journal.saveRefund(
        { id: 'ref_n', paymentId: 'pay_n', status: 'pending', amount: 5, currency: 'usd' },
        { id: 'pay_n', currency: 'usd', reservationId: 'R-N' },
        'sara',
      );
      await told(4);
      await journal.savePayment(
        payment('pay_n', 'R-N', { refunds: [{ id: 'ref_n', status: 'succeeded', amount: 5, currency: 'usd' }] }),
      );
      await told(5);
      expect((await journal.payment('pay_n'))?.refunds).toMatchObject([
        { id: 'ref_n', status: 'succeeded', operatorId: 'sara' },
      ]);
    } finally {
      await hearing.close();
    }
  });

  it("writes each part of the service's word that changed alone (a save that finds nothing new writes nothing, never less)", async () => {
    const journal = await open();
    await journal.savePayment(
      payment('pay_c', 'R-C', {
        status: 'requires_action',
        nextAction: { type: 'redirect', url: 'https://a.example/1' },
      }),
    );
    const alone: [Record<string, unknown>, Partial<Record<string, unknown>>][] = [
      [{ nextAction: { type: 'redirect', url: 'https://a.example/2' } }, { nextActionUrl: 'https://a.example/2' }],
      [{ expiresAt: '2030-01-01T00:15:00Z' }, { expiresAt: '2030-01-01T00:15:00Z' }],
      [{ updatedAt: '2030-01-01T00:01:00Z' }, { updatedAt: '2030-01-01T00:01:00Z' }],
      [
        { amount: 12, originalAmount: 10 },
        { amountCents: 1200, originalAmountCents: 1000 },
      ],
      [{ availableInstallments: [3, 6] }, { availableInstallments: [3, 6] }],
      [{ installments: { count: 3, perInstallment: 4 } }, { installments: { count: 3, perInstallmentCents: 400 } }],
      [
        { failure: { code: 'card_declined', message: 'Declined' } },
        { failureCode: 'card_declined', failureMessage: 'Declined' },
      ],
      [
        { failure: { code: 'card_declined', message: 'Declined again' } },
        { failureCode: 'card_declined', failureMessage: 'Declined again' },
      ],
    ];
    let said: Record<string, unknown> = {
      status: 'requires_action',
      nextAction: { type: 'redirect', url: 'https://a.example/1' },
    };
    for (const [change, stored] of alone) {
      said = { ...said, ...change };
      await journal.savePayment(payment('pay_c', 'R-C', said));
      expect(await journal.payment('pay_c')).toMatchObject(stored);
    }
  });

  it('never takes a final status back: a desk whose read came before it was final writes nothing, and tells no one', async () => {
    const journal = await open();
    const late = await other();
    const hearing = await hearAt(await backend.anotherDesk());
    expect(hearing === undefined).toBe(backend.name === 'sqlite');
    try {
      await journal.savePayment(payment('pay_s', 'R-S', { status: 'processing' }));
      await journal.savePayment(payment('pay_s', 'R-S', { updatedAt: '2030-01-01T00:00:05Z' }));
      // Desk B read the payment while it was processing; its answer arrives after A wrote succeeded.
      await late.savePayment(payment('pay_s', 'R-S', { status: 'processing' }));
      expect(await journal.payment('pay_s')).toMatchObject({ status: 'succeeded', updatedAt: '2030-01-01T00:00:05Z' });

      // The same with refunds (the payment and its refunds in one transaction), and a refund saved alone.
      const pending = { id: 'ref_s', status: 'pending', amount: 5, currency: 'usd' };
      const succeeded = { ...pending, status: 'succeeded' };
      await journal.savePayment(payment('pay_s', 'R-S', { updatedAt: '2030-01-01T00:00:05Z', refunds: [pending] }));
      await journal.savePayment(payment('pay_s', 'R-S', { updatedAt: '2030-01-01T00:00:05Z', refunds: [succeeded] }));
      await late.savePayment(payment('pay_s', 'R-S', { status: 'processing', refunds: [pending] }));
      await late.saveRefund({ ...pending, paymentId: 'pay_s' }, { id: 'pay_s', currency: 'usd', reservationId: 'R-S' });
      expect(await journal.payment('pay_s')).toMatchObject({
        status: 'succeeded',
        refunds: [{ id: 'ref_s', status: 'succeeded' }],
      });
      // The refund's POST answered late (pending) still says who made it: that is taken, its status is not.
      await late.saveRefund(
        { ...pending, paymentId: 'pay_s' },
        { id: 'pay_s', currency: 'usd', reservationId: 'R-S' },
        'sara',
      );
      expect((await journal.payment('pay_s'))?.refunds).toMatchObject([
        { id: 'ref_s', status: 'succeeded', operatorId: 'sara' },
      ]);
      // A final word after a final word is still the service's: written.
      await late.savePayment(payment('pay_s', 'R-S', { status: 'failed', refunds: [succeeded] }));
      expect(await journal.payment('pay_s')).toMatchObject({ status: 'failed' });
      if (hearing !== undefined) {
        await hearing.settle(6);
        expect(hearing.heard.map((change) => change.kind === 'payment' && change.paymentId)).toEqual(
          Array.from({ length: 6 }, () => 'pay_s'),
        );
      }
    } finally {
      await hearing?.close();
    }
  });

  it('keeps every final status against every stale word the spec names (not only succeeded against processing)', async () => {
    const journal = await open();
    const late = await other();
    const reservation = { currency: 'usd', reservationId: 'R-K' };
    for (const final of ['succeeded', 'failed', 'expired', 'canceled']) {
      for (const stale of ['pending_confirmation', 'processing', 'requires_action']) {
        const id = `pay_${final}_${stale}`;
        await journal.savePayment(payment(id, 'R-K', { status: final, updatedAt: '2030-01-01T00:00:05Z' }));
        // The stale word says more than its status (an MSI amount changed before it expired): none of it is taken.
        await late.savePayment(payment(id, 'R-K', { status: stale, amount: 12, availableInstallments: [3] }));
        expect(await journal.payment(id), `${final} then ${stale}`).toMatchObject({
          status: final,
          amountCents: 1000,
          availableInstallments: [],
          updatedAt: '2030-01-01T00:00:05Z',
        });
      }
    }
    for (const final of ['succeeded', 'failed', 'canceled']) {
      const id = `ref_${final}`;
      await journal.saveRefund(
        { id, paymentId: 'pay_succeeded_processing', status: final, amount: 5, currency: 'usd' },
        { id: 'pay_succeeded_processing', ...reservation },
      );
      await late.saveRefund(
        { id, paymentId: 'pay_succeeded_processing', status: 'pending', amount: 5, currency: 'usd' },
        { id: 'pay_succeeded_processing', ...reservation },
      );
      await late.savePayment(
        payment('pay_succeeded_processing', 'R-K', {
          refunds: [{ id, status: 'pending', amount: 5, currency: 'usd' }],
        }),
      );
      expect(
        (await journal.payment('pay_succeeded_processing'))?.refunds.find((r) => r.id === id),
        `refund ${final} then pending`,
      ).toMatchObject({ status: final });
    }
  });

  it('takes a status this app does not know over a final one: it may have moved money (shared/payments/status.ts), so the journal does not hide it', async () => {
    const journal = await open();
    const late = await other();
    // A failed payment took nothing; the service now says something this app does not know. Kept as failed, the
    // reservation's balance would offer its amount to charge again (main/payments/balance.ts counts an unknown status).
    await journal.savePayment(
      payment('pay_u', 'R-U', { status: 'failed', failure: { code: 'card_declined', message: 'Declined' } }),
    );
    await late.savePayment(payment('pay_u', 'R-U', { status: 'under_review' }));
    expect(await journal.payment('pay_u')).toMatchObject({ status: 'under_review' });
    // The same for a refund that moved no money (it would not count against what is left to refund).
    await journal.saveRefund(
      { id: 'ref_u', paymentId: 'pay_u', status: 'failed', amount: 5, currency: 'usd' },
      { id: 'pay_u', currency: 'usd', reservationId: 'R-U' },
    );
    await late.saveRefund(
      { id: 'ref_u', paymentId: 'pay_u', status: 'under_review', amount: 5, currency: 'usd' },
      { id: 'pay_u', currency: 'usd', reservationId: 'R-U' },
    );
    expect((await journal.payment('pay_u'))?.refunds).toMatchObject([{ id: 'ref_u', status: 'under_review' }]);
    expect(await journal.unsettledPaymentIds()).toEqual(['pay_u']);
  });

  it('tells the other desks of an operation begun and of its answer, once (an answer that stands is not written again)', async () => {
    const journal = await open();
    const hearing = await hearAt(await backend.anotherDesk());
    // The embedded files have nobody else to tell; the rows are the same.
    expect(hearing === undefined).toBe(backend.name === 'sqlite');
    try {
      const refund = await journal.begin(op({ kind: 'refund', reservationId: 'cun-6b3d8f', paymentId: 'pay_t1' }));
      expect(refund).toMatchObject({
        state: 'pending',
        kind: 'refund',
        reservationId: 'cun-6b3d8f',
        paymentId: 'pay_t1',
        deskId: DESK_A.deskId,
      });
      const charge = await journal.begin(op({ reservationId: 'SJD-1' }));
      await journal.settle(refund.key, { state: 'done', resultId: 're_t1', httpStatus: 201 }, 2_000);
      await journal.settle(refund.key, { state: 'failed', errorCode: 'late', httpStatus: 500 }, 3_000);
      await journal.settle(charge.key, { state: 'failed', errorCode: 'card_declined', httpStatus: 402 }, 2_000);
      expect(await journal.operation(refund.operationId)).toMatchObject({ state: 'done', resultId: 're_t1' });
      if (hearing !== undefined) {
        await hearing.settle(4);
        const ofRefund = {
          kind: 'operation',
          deskId: DESK_A.deskId,
          operationId: refund.operationId,
          reservationKey: 'CUN6B3D8F',
          paymentId: 'pay_t1',
        };
        const ofCharge = {
          kind: 'operation',
          deskId: DESK_A.deskId,
          operationId: charge.operationId,
          reservationKey: 'SJD1',
        };
        expect(hearing.heard).toEqual([ofRefund, ofCharge, ofRefund, ofCharge]);
      }
    } finally {
      await hearing?.close();
    }
  });

  it('reads the payments of many ids at once, with their refunds; an id it does not hold is left out', async () => {
    const journal = await open();
    await journal.savePayment(
      payment('pay_m1', 'R-M', { refunds: [{ id: 'ref_m1', status: 'succeeded', amount: 5, currency: 'usd' }] }),
    );
    await journal.savePayment(payment('pay_m2', 'R-M'));
    const read = await journal.payments(['pay_m2', 'pay_m1', 'pay_missing']);
    expect(read.map((p) => [p.id, p.refunds.map((r) => r.id)]).sort()).toEqual([
      ['pay_m1', ['ref_m1']],
      ['pay_m2', []],
    ]);
    expect(await journal.payments([])).toEqual([]);
  });

  describe('two desks on one place', () => {
    it('each desk recovers only its own unanswered operations; both see every payment and operation', async () => {
      const a = await open(DESK_A);
      const b = await other(DESK_B);
      const atA = await a.begin(op());
      const atB = await b.begin(op());
      await a.savePayment(payment('pay_a', 'R-SHARED', { status: 'processing' }), { operatorId: 'ana' });
      expect((await a.pendingOperations()).map((o) => o.operationId)).toEqual([atA.operationId]);
      expect((await b.pendingOperations()).map((o) => o.operationId)).toEqual([atB.operationId]);
      expect(await b.operation(atA.operationId)).toMatchObject({ deskId: DESK_A.deskId });
      expect((await b.paymentsOf('r-shared')).map((p) => [p.id, p.deskId])).toEqual([['pay_a', DESK_A.deskId]]);
      // The desk that follows a payment is the one that took it.
      expect(await a.unsettledPaymentIds()).toEqual(['pay_a']);
      expect(await b.unsettledPaymentIds()).toEqual([]);
      // Written again by B (it read the payment), it stays A's.
      await b.savePayment(payment('pay_a', 'R-SHARED'));
      expect(await b.payment('pay_a')).toMatchObject({ status: 'succeeded', deskId: DESK_A.deskId });
      expect(await a.unsettledPaymentIds()).toEqual([]);
    });

    it('one unanswered payment per reservation, typed any way: two desks beginning at once, one begins', async () => {
      const a = await open(DESK_A);
      const b = await other(DESK_B);
      const results = await Promise.allSettled([
        a.begin(op({ reservationId: 'CUN-6B3D8F' })),
        b.begin(op({ reservationId: 'cun6b3d8f' })),
      ]);
      const begun = results.filter((r): r is PromiseFulfilledResult<Operation> => r.status === 'fulfilled');
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(begun).toHaveLength(1);
      expect(refused.map((r) => r.reason as unknown)).toEqual([expect.any(UniqueViolationError)]);
      expect(await a.paymentOperationsOf('CUN-6B3D8F', ['pending'])).toHaveLength(1);
      // Once answered, the reservation is free for the next one.
      const first = begun[0]?.value as Operation;
      await a.settle(first.key, { state: 'failed', errorCode: 'card_declined', httpStatus: 402 }, 1);
      await expect(b.begin(op({ reservationId: 'CUN-6B3D8F' }))).resolves.toMatchObject({
        state: 'pending',
        deskId: DESK_B.deskId,
      });
    });

    it('no two refunds in flight for one payment: two desks at once, one begins', async () => {
      const a = await open(DESK_A);
      const b = await other(DESK_B);
      const refund = (): Begin =>
        op({ kind: 'refund', payload: { reason: 'duplicate' }, reservationId: 'R-REF', paymentId: 'pay_r' });
      const results = await Promise.allSettled([a.begin(refund()), b.begin(refund())]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused.map((r) => r.reason as unknown)).toEqual([expect.any(UniqueViolationError)]);
      expect(await b.pendingRefundsOf('pay_r')).toHaveLength(1);
      // A refund of another payment, or of this one once answered, goes.
      await expect(
        b.begin(op({ kind: 'refund', payload: { reason: 'duplicate' }, paymentId: 'pay_other' })),
      ).resolves.toMatchObject({ state: 'pending' });
    });

    it('one change of a payment at a time: two desks taking its lease at once, one holds it; the other is told who, until it is released or expires', async () => {
      const a = await open(DESK_A);
      const b = await other(DESK_B);
      const [atA, atB] = await Promise.all([a.takeLease('pay_l', 'ana', 60_000), b.takeLease('pay_l', 'sam', 60_000)]);
      const taken = [atA, atB].filter((lease) => 'token' in lease);
      expect(taken).toHaveLength(1);
      const holder =
        'token' in atA
          ? { desk: a, deskId: DESK_A.deskId, operatorId: 'ana', lease: atA }
          : { desk: b, deskId: DESK_B.deskId, operatorId: 'sam', lease: atB };
      const waiting = holder.desk === a ? b : a;
      expect(await waiting.takeLease('pay_l', 'sue', 60_000)).toEqual({
        heldBy: { deskId: holder.deskId, operatorId: holder.operatorId },
      });
      // Another payment is free.
      expect(await waiting.takeLease('pay_other', 'sue', 60_000)).toHaveProperty('token');
      if (!('token' in holder.lease)) throw new Error('not taken');
      await holder.desk.releaseLease('pay_l', holder.lease.token);
      const next = await waiting.takeLease('pay_l', 'sue', 0);
      expect(next).toHaveProperty('token');
      // The holder released it already: its token releases nothing of the next holder's.
      await holder.desk.releaseLease('pay_l', holder.lease.token);
      // A holder that stopped (its lease expired: here at once) does not hold the payment for ever.
      expect(await holder.desk.takeLease('pay_l', 'ana', 60_000)).toHaveProperty('token');
      expect(await waiting.takeLease('pay_l', 'sue', 60_000)).toEqual({
        heldBy: { deskId: holder.desk === a ? DESK_A.deskId : DESK_B.deskId, operatorId: 'ana' },
      });
    });

    it('counts refund operations of every desk for the daily cap', async () => {
      const a = await open(DESK_A);
      const b = await other(DESK_B);
      await a.begin(op({ kind: 'refund', paymentId: 'pay_1', operatorId: 'sam', createdAt: 10 }));
      await b.begin(op({ kind: 'refund', paymentId: 'pay_2', operatorId: 'sam', createdAt: 20 }));
      expect((await b.refundOperationsBegunBetween(0, 100)).map((o) => [o.paymentId, o.deskId])).toEqual([
        ['pay_1', DESK_A.deskId],
        ['pay_2', DESK_B.deskId],
      ]);
      // One operator's day only, named in any case: what one approval reads does not grow with the center.
      await a.begin(op({ kind: 'refund', paymentId: 'pay_3', operatorId: 'sue', createdAt: 30 }));
      expect((await b.refundOperationsBegunBetween(0, 100, 'SAM')).map((o) => o.paymentId)).toEqual(['pay_1', 'pay_2']);
      expect((await b.refundOperationsBegunBetween(0, 100, 'sue')).map((o) => o.paymentId)).toEqual(['pay_3']);
    });
  });
});

describe('a journal.db of the SqliteFile era', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'journal-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A journal.db as today's app wrote it (SqliteFile with its migrations), with rows. */
  function writtenByTodaysApp(): void {
    const old = new SqliteFile(join(dir, 'journal.db'), {
      label: 'journal',
      migrations: LEGACY_SQLITE_MIGRATIONS,
      pragmas: ['foreign_keys = ON'],
    });
    const insert = old.db.prepare(
      `INSERT INTO operations (key, operation_id, kind, fingerprint, payload, resendable, state, reservation_id, operator_id, payment_id, created_at)
       VALUES (?, ?, 'create_payment', 'f', '{"amount":10}', 1, ?, ?, 'ana', NULL, ?)`,
    );
    insert.run('k-1', 'o-1', 'pending', 'cun-6b3d8f', 1);
    // The old guard let the reservation typed without its dash through: a second unanswered payment of it.
    insert.run('k-2', 'o-2', 'pending', 'CUN6B3D8F', 2);
    insert.run('k-3', 'o-3', 'done', 'HTL-1', 3);
    old.db
      .prepare(
        `INSERT INTO payments (id, reservation_id, operator_id, method_id, status, amount_cents, currency, metadata, created_at, abandoned_by)
         VALUES ('pay_1', 'htl-1', 'ana', 'mth_1', 'succeeded', 1050, 'usd', '{}', '2026-01-01T00:00:00Z', NULL)`,
      )
      .run();
    old.db
      .prepare(
        `INSERT INTO refunds (id, payment_id, amount_cents, currency, status, operator_id, created_at) VALUES ('re_1', 'pay_1', NULL, 'usd', 'pending', NULL, NULL)`,
      )
      .run();
    old.db
      .prepare(
        `INSERT INTO methods (id, reservation_id, brand, last4, exp_month, exp_year, created_at, kept_by, kept_at) VALUES ('mth_1', 'htl-1', 'visa', '4242', 1, 2030, 'x', 'ana', 'y')`,
      )
      .run();
    expect(old.schemaVersion).toBe(4);
    old.close();
  }

  it('is adopted with its rows: this desk named on each, reservations keyed, the old migrations not run again', async () => {
    writtenByTodaysApp();
    const journal = await Journal.open(embeddedStorage(dir), DESK_A);
    try {
      expect(journal.schemaVersion).toBe(SCHEMA_VERSION);
      expect((await journal.pendingOperations()).map((o) => [o.operationId, o.deskId])).toEqual([
        ['o-1', DESK_A.deskId],
        ['o-2', DESK_A.deskId],
      ]);
      expect(await journal.payment('pay_1')).toMatchObject({
        amountCents: 1050,
        deskId: DESK_A.deskId,
        refunds: [{ id: 're_1', amountCents: undefined }],
      });
      expect((await journal.paymentsOf('HTL1')).map((p) => p.id)).toEqual(['pay_1']);
      expect(await journal.methodsOf('HTL-1')).toMatchObject([{ id: 'mth_1', keptBy: 'ana' }]);
      // The reservation is held by the older unanswered payment; the second (the old defect) is still this desk's to recover.
      expect((await journal.paymentOperationsOf('CUN-6B3D8F', ['pending'])).map((o) => o.operationId)).toEqual(['o-1']);
      await expect(journal.begin(op({ reservationId: 'CUN-6B3D8F' }))).rejects.toBeInstanceOf(UniqueViolationError);
    } finally {
      await journal.close();
    }
    const raw = new Database(join(dir, 'journal.db'), { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  it('is this desk’s whatever id wrote it: a data folder whose desk.json was made again still recovers its operations', async () => {
    writtenByTodaysApp();
    const before = await Journal.open(embeddedStorage(dir), DESK_A);
    await before.savePayment(payment('pay_2', 'HTL-2', { status: 'processing' }));
    await before.close();
    const after = await Journal.open(embeddedStorage(dir), DESK_B);
    try {
      expect((await after.pendingOperations()).map((o) => [o.operationId, o.deskId])).toEqual([
        ['o-1', DESK_B.deskId],
        ['o-2', DESK_B.deskId],
      ]);
      // pay_1 has a refund still pending (written by the old app), pay_2 is processing: both are followed by this desk.
      expect((await after.unsettledPaymentIds()).sort()).toEqual(['pay_1', 'pay_2']);
    } finally {
      await after.close();
    }
  });

  it('refuses a journal written by a newer version of the app, with a clear message', async () => {
    const raw = new Database(join(dir, 'journal.db'));
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    await expect(Journal.open(embeddedStorage(dir), DESK_A)).rejects.toThrow(/newer version of the app/);
  });
});
