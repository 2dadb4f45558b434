// The refund requests' store on both backends (the embedded refund-requests.db and the center's PostgreSQL), the file of
// the SqliteFile era adopted with its rows, and "one approval, one refund" across two desks: the queue
// is the center's, each request naming its desk, and of two supervisors approving one request at once at two desks,
// one wins and the other is told who approved it and when. On the center every request and decision goes through an
// operator's session open at the desk (center-operators.ts), and is timed by the center's clock.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS_STORE } from '../../../main/operators';
import { Journal, PaymentEngine, simulatorConfig, type PaymentView } from '../../../main/payments';
import { JOURNAL_STORE } from '../../../main/payments/journal';
import {
  REFUND_REQUESTS_STORE,
  RefundDesk,
  RefundError,
  RefundRequests,
  requestView,
  systemRequestId,
  type RefundRequestsDB,
  type StoredRequest,
} from '../../../main/refunds';
import { embeddedStorage, type Storage } from '../../../main/storage';
import { useSimulator } from '../../support/simulator';
import type { OperatorView } from '../../../shared/operators';
import { hearAt, useStoreBackends, type StoreBackend } from '../../support/backends';
import { seatedAt, type StaffId } from './center-operators';

const DESK_A = { deskId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' };
const DESK_B = { deskId: '6f5e4d3c-2b1a-4f0e-9d8c-7b6a5f4e3d2c' };
const CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' };
const SAM: OperatorView = { id: 'sam', displayName: 'Sam', role: 'supervisor', disabled: false };
const SUE: OperatorView = { id: 'sue', displayName: 'Sue', role: 'supervisor', disabled: false };
const ANA: OperatorView = { id: 'ana', displayName: 'Ana', role: 'agent', disabled: false };

const newRequest = (paymentId: string, at: string, requestedBy: StaffId = 'ana') => ({
  id: randomUUID(),
  paymentId,
  amountCents: 1500,
  currency: 'usd' as const,
  reason: 'duplicate' as const,
  note: 'charged twice',
  requestedBy,
  requestedAt: at,
});

/**
 * The requests at `desk` on `storage`: on the center with `seated` signed in there (their sessions are what the center
 * takes their requests and decisions through); the embedded file has no sessions.
 */
async function requestsAt(
  backend: StoreBackend,
  storage: Storage,
  desk: { deskId: string },
  seated: readonly StaffId[] = [],
): Promise<RefundRequests> {
  if (backend.name === 'sqlite') return RefundRequests.open(storage, desk);
  return RefundRequests.open(storage, desk, await seatedAt(storage, desk, seated));
}

/** On the center a request is asked, and decided, at the center's time (the time the desk gives is the embedded file's). */
const timeOf = (backend: StoreBackend, given: string, stored: string): void => {
  if (backend.name === 'sqlite') expect(stored).toBe(given);
  else expect(Math.abs(Date.parse(stored) - Date.now())).toBeLessThan(60_000);
};

describe('the refund requests file of before the storage layer', () => {
  it('is adopted with its requests (user_version 1), which then name no desk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'requests-adopt-'));
    try {
      const raw = new Database(join(dir, 'refund-requests.db'));
      raw.exec(`CREATE TABLE requests (
     id TEXT PRIMARY KEY,
     payment_id TEXT NOT NULL,
     amount_cents INTEGER,
     currency TEXT NOT NULL,
     reason TEXT NOT NULL,
     note TEXT,
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'failed')),
     requested_by TEXT NOT NULL,
     requested_at TEXT NOT NULL,
     decided_by TEXT,
     decided_at TEXT,
     decision_note TEXT,
     override INTEGER NOT NULL DEFAULT 0,
     refund_id TEXT,
     failure TEXT
   );
   CREATE INDEX requests_status ON requests (status, requested_at);
   CREATE INDEX requests_payment ON requests (payment_id);`);
      raw
        .prepare(
          `INSERT INTO requests (id, payment_id, amount_cents, currency, reason, status, requested_by, requested_at, decided_by, decided_at)
        VALUES ('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', 'pay_old', 700, 'mxn', 'duplicate', 'approved', 'ana', '2026-11-01T10:00:00.000Z', 'sam', '2026-11-01T10:05:00.000Z')`,
        )
        .run();
      raw.pragma('user_version = 1');
      raw.close();

      const requests = await RefundRequests.open(embeddedStorage(dir), DESK_A);
      expect(requests.schemaVersion).toBe(3);
      expect(await requests.get('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e')).toMatchObject({
        paymentId: 'pay_old',
        amountCents: 700,
        status: 'approved',
        decidedBy: 'sam',
        deskId: undefined,
        decidedDeskId: undefined,
      });
      // An approval of before desks had ids is this desk's to recover.
      expect((await requests.unsettledApprovals()).map((r) => r.paymentId)).toEqual(['pay_old']);
      await requests.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(useStoreBackends([OPERATORS_STORE, REFUND_REQUESTS_STORE]))('refund requests on $name', (backend) => {
  it('tells this desk, and on the center every listening desk, of each request written: asked, decided (not a decision that lost), settled', async () => {
    const requests = await requestsAt(backend, await backend.storage(), DESK_A, ['ana', 'sam', 'sue']);
    const here: { requestId: string; paymentId: string }[] = [];
    requests.onChange((change) => here.push(change));
    const hearing = await hearAt(await backend.anotherDesk());
    // The embedded files have nobody else to tell.
    expect(hearing === undefined).toBe(backend.name === 'sqlite');
    try {
      const added = await requests.add(newRequest('pay_n1', '2026-11-24T10:00:00.000Z'));
      const decided = { status: 'approved' as const, by: 'sam', at: '2026-11-24T10:01:00.000Z', override: false };
      expect(await requests.decide(added.id, decided)).toBe(true);
      expect(await requests.decide(added.id, { ...decided, by: 'sue' })).toBe(false);
      await requests.settle(added.id, { refundId: 're_n1' });
      const expected = Array.from({ length: 3 }, () => ({ requestId: added.id, paymentId: 'pay_n1' }));
      expect(here).toEqual(expected);
      if (hearing !== undefined) {
        await hearing.settle(3);
        expect(hearing.heard).toEqual(
          // The notice names the desk where it was asked (no late success: no desk to alert).
          expected.map((change) => ({
            kind: 'refundRequest',
            deskId: DESK_A.deskId,
            askedAt: DESK_A.deskId,
            ...change,
          })),
        );
      }
    } finally {
      await hearing?.close();
    }
  });

  it('tells again, unchanged, of an approved request whose refund ended (the desk that asked hears it was made); of no other', async () => {
    const a = await requestsAt(backend, await backend.storage(), DESK_A, ['ana']);
    const b = await requestsAt(backend, await backend.anotherDesk(), DESK_B, ['sam']);
    const atA: { requestId: string; paymentId: string }[] = [];
    a.onChange((change) => atA.push(change));
    const hearing = await hearAt(await backend.anotherDesk());
    try {
      const asked = await a.add(newRequest('pay_end', '2026-11-24T10:00:00.000Z'));
      await b.decide(asked.id, { status: 'approved', by: 'sam', at: '2026-11-24T10:01:00.000Z', override: false });
      const settled = await b.settle(asked.id, { refundId: 're_end' });
      // Desk B's engine saw the refund succeed: the request is written as it was, and announced.
      expect(await b.refundEnded('pay_end', 're_end')).toEqual(settled);
      expect(await b.get(asked.id)).toEqual(settled);
      // Not a refund no approved request became, nor another payment's.
      expect(await b.refundEnded('pay_end', 're_other')).toBeUndefined();
      expect(await b.refundEnded('pay_none', 're_end')).toBeUndefined();
      expect(atA).toEqual([{ requestId: asked.id, paymentId: 'pay_end' }]);
      if (hearing !== undefined) {
        await hearing.settle(4);
        expect(hearing.heard.map((h) => ('requestId' in h ? [h.deskId, h.requestId] : [h.deskId]))).toEqual([
          [DESK_A.deskId, asked.id],
          [DESK_B.deskId, asked.id],
          [DESK_B.deskId, asked.id],
          [DESK_B.deskId, asked.id],
        ]);
      }
    } finally {
      await hearing?.close();
    }
  });

  it('keeps a request with its desk, decides it once, and settles it', async () => {
    const requests = await requestsAt(backend, await backend.storage(), DESK_A, ['ana', 'sam', 'sue']);
    const at = '2026-11-24T10:00:00.000Z';
    const added = await requests.add(newRequest('pay_1', at));
    expect(added).toMatchObject({
      status: 'pending',
      amountCents: 1500,
      deskId: DESK_A.deskId,
      decidedBy: undefined,
      override: false,
    });
    timeOf(backend, at, added.requestedAt);
    expect(typeof added.amountCents).toBe('number');
    const decided = { status: 'approved' as const, by: 'sam', at: '2026-11-24T10:01:00.000Z', override: false };
    expect(await requests.decide(added.id, decided)).toBe(true);
    expect(await requests.decide(added.id, { ...decided, by: 'sue' })).toBe(false);
    const stored = await requests.get(added.id);
    expect(stored).toMatchObject({
      status: 'approved',
      decidedBy: 'sam',
      decidedDeskId: DESK_A.deskId,
      override: false,
    });
    timeOf(backend, decided.at, stored?.decidedAt ?? '');
    expect((await requests.unsettledApprovals()).map((r) => r.id)).toEqual([added.id]);
    expect(await requests.settle(added.id, { refundId: 're_1' })).toMatchObject({
      refundId: 're_1',
      status: 'approved',
    });
    expect(await requests.unsettledApprovals()).toEqual([]);
    const other = await requests.add(newRequest('pay_1', '2026-11-24T09:00:00.000Z'));
    // Only an approval fails (its refund refused for good).
    expect(await requests.decide(other.id, decided)).toBe(true);
    expect(await requests.settle(other.id, { failure: 'refused' })).toMatchObject({
      status: 'failed',
      failure: 'refused',
    });
    // Oldest first: on the embedded file as the desk timed them, on the center as the center did (in the order asked).
    const oldestFirst = backend.name === 'sqlite' ? [other.id, added.id] : [added.id, other.id];
    expect((await requests.forPayment('pay_1')).map((r) => r.id)).toEqual(oldestFirst);
    expect(await requests.list('pending')).toEqual([]);
    expect((await requests.list('all')).map((r) => r.id)).toEqual([...oldestFirst].reverse());
  });

  it('writes a request the app puts in the queue once, whichever desk writes it first, with why and its linked payment', async () => {
    const a = await requestsAt(backend, await backend.storage(), DESK_A);
    const b = await requestsAt(backend, await backend.anotherDesk(), DESK_B);
    const id = systemRequestId('late_success', 'pay_late');
    expect(id).toBe(systemRequestId('late_success', 'pay_late'));
    expect(id).not.toBe(systemRequestId('confirmed_amount_differs', 'pay_late'));
    const request = {
      ...newRequest('pay_late', '2026-11-24T10:00:00.000Z'),
      id,
      note: undefined,
      origin: 'late_success' as const,
      linkedPaymentId: 'pay_next',
      alertDeskId: DESK_A.deskId,
    };
    const written = await Promise.all([a.addOnce(request), b.addOnce(request)]);
    expect(written.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await a.addOnce(request)).toBeUndefined();
    const queued = (await b.list('pending')).filter((r) => r.paymentId === 'pay_late');
    expect(queued).toEqual([
      expect.objectContaining({
        id,
        origin: 'late_success',
        linkedPaymentId: 'pay_next',
        alertDeskId: DESK_A.deskId,
        reason: 'duplicate',
      }),
    ]);
    expect(requestView(queued[0] as StoredRequest)).toMatchObject({
      origin: 'late_success',
      linkedPaymentId: 'pay_next',
    });
  });

  it("gives one queue for the center: every desk's pending requests, oldest first, each naming its desk", async () => {
    const a = await requestsAt(backend, await backend.storage(), DESK_A, ['ana']);
    const b = await requestsAt(backend, await backend.anotherDesk(), DESK_B, ['bea', 'sam']);
    const first = await a.add(newRequest('pay_a', '2026-11-24T10:00:00.000Z'));
    const second = await b.add(newRequest('pay_b', '2026-11-24T10:02:00.000Z', 'bea'));
    for (const desk of [a, b]) {
      expect((await desk.list('pending')).map((r: StoredRequest) => [r.id, r.deskId])).toEqual([
        [first.id, DESK_A.deskId],
        [second.id, DESK_B.deskId],
      ]);
    }
    // Each desk recovers only the approvals it made.
    await b.decide(first.id, { status: 'approved', by: 'sam', at: '2026-11-24T10:03:00.000Z', override: false });
    expect(await a.unsettledApprovals()).toEqual([]);
    expect((await b.unsettledApprovals()).map((r) => r.id)).toEqual([first.id]);
  });

  // The center's grants (least privilege): a request is read, never written row by row (the functions write it) nor
  // deleted. Only the center has roles to hold this: the test is not made for the embedded file (no skipped test).
  if (backend.name === 'postgres') {
    it('may not be written row by row, nor deleted, by the app role on the center', async () => {
      const storage = await backend.storage();
      const requests = await requestsAt(backend, storage, DESK_A, ['ana']);
      const kept = await requests.add(newRequest('pay_keep', new Date().toISOString()));
      const store = await storage.open<RefundRequestsDB>(REFUND_REQUESTS_STORE);
      const denied = { code: 'center_permission_denied' };
      await expect(store.db.deleteFrom('requests').execute()).rejects.toMatchObject(denied);
      await expect(
        store.db.updateTable('requests').set({ status: 'approved', decided_by: 'sam' }).execute(),
      ).rejects.toMatchObject(denied);
      await expect(
        store.db
          .insertInto('requests')
          .values({
            id: randomUUID(),
            payment_id: 'pay_keep',
            currency: 'usd',
            reason: 'duplicate',
            status: 'approved',
            requested_by: 'ana',
            requested_at: new Date().toISOString(),
            decided_by: 'sam',
            override: 0,
            desk_id: DESK_A.deskId,
            decided_desk_id: DESK_A.deskId,
          } as never)
          .execute(),
      ).rejects.toMatchObject(denied);
      expect(await requests.forPayment('pay_keep')).toEqual([kept]);
    });
  }

  it('lets exactly one of two desks deciding the same request at the same moment win', async () => {
    const a = await requestsAt(backend, await backend.storage(), DESK_A, ['ana', 'sam']);
    const b = await requestsAt(backend, await backend.anotherDesk(), DESK_B, ['sue']);
    for (let round = 0; round < 5; round++) {
      const request = await a.add(newRequest(`pay_${round}`, new Date().toISOString()));
      const results = await Promise.all([
        a.decide(request.id, { status: 'approved', by: 'sam', at: new Date().toISOString(), override: false }),
        b.decide(request.id, { status: 'approved', by: 'sue', at: new Date().toISOString(), override: false }),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const stored = await b.get(request.id);
      expect(stored?.decidedBy).toBe(results[0] ? 'sam' : 'sue');
      expect(stored?.decidedDeskId).toBe(results[0] ? DESK_A.deskId : DESK_B.deskId);
    }
  });
});

describe.each(useStoreBackends([OPERATORS_STORE, REFUND_REQUESTS_STORE, JOURNAL_STORE]))(
  'two supervisors at two desks on $name',
  (backend) => {
    const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 }, { resetAfterEach: false });
    let dir: string;
    const engines: { engine: PaymentEngine; journal: Journal }[] = [];
    const refundPosts: string[] = [];
    const serviceCalls: string[] = [];

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'refund-two-desks-'));
    });
    afterAll(async () => {
      for (const { engine, journal } of engines.splice(0)) {
        await engine.close();
        await journal.close();
      }
      rmSync(dir, { recursive: true, force: true });
    });

    /** A desk: its own engine, the journal and the requests of the place `storage` is (the center, or one shared folder). */
    async function desk(
      storage: Storage,
      identity: { deskId: string },
      seated: readonly StaffId[],
    ): Promise<{ desk: RefundDesk; engine: PaymentEngine; requests: RefundRequests }> {
      const journal = await Journal.open(storage, identity);
      const recording: typeof fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if ((init?.method ?? 'GET').toUpperCase() === 'POST' && url.pathname.endsWith('/refunds'))
          refundPosts.push(url.pathname);
        serviceCalls.push(`${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`);
        return fetch(input, init);
      };
      const engine = new PaymentEngine({
        config: simulatorConfig(sim),
        secrets: { read: () => Promise.resolve(sim.clientSecret) },
        journal,
        fetch: recording,
      });
      engines.push({ engine, journal });
      const requests = await requestsAt(backend, storage, identity, seated);
      return {
        desk: new RefundDesk({
          engine,
          requests,
          history: journal,
          verifyApprover: () => Promise.reject(new Error('not used here')),
        }),
        engine,
        requests,
      };
    }

    async function succeededPayment(engine: PaymentEngine): Promise<PaymentView> {
      const reservationId = `HTL-TWO-${randomUUID().slice(0, 8)}`;
      const method = await engine.tokenize({ card: CARD, reservationId, operatorId: ANA.id });
      let payment = await engine.pay({
        methodId: method.id,
        amountCents: 9000,
        currency: 'usd',
        reservationId,
        operatorId: ANA.id,
      });
      for (let i = 0; i < 100 && payment.status !== 'succeeded'; i++) {
        await sleep(20);
        payment = await engine.getPayment(payment.id);
      }
      expect(payment.status).toBe('succeeded');
      return payment;
    }

    it('one approval, one refund: the other supervisor is refused with request_closed naming who approved it and when', async () => {
      const atA = await desk(await backend.storage(), DESK_A, ['ana', 'sam']);
      const atB = await desk(await backend.anotherDesk(), DESK_B, ['sue']);
      const payment = await succeededPayment(atA.engine);
      const asked = await atA.desk.request(
        { requestId: randomUUID(), paymentId: payment.id, amountCents: 2500, reason: 'duplicate' },
        ANA,
      );
      // The request made at desk A is in desk B's queue, naming desk A.
      expect((await atB.desk.queue('pending')).find((r) => r.id === asked.id)).toMatchObject({
        deskId: DESK_A.deskId,
        status: 'pending',
      });
      refundPosts.splice(0);

      const results = await Promise.allSettled([atA.desk.approve(asked.id, SAM), atB.desk.approve(asked.id, SUE)]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      const stored = await atB.requests.get(asked.id);
      const winner = stored?.decidedBy;
      expect(winner === SAM.id || winner === SUE.id).toBe(true);
      const refusal = lost[0]?.reason as RefundError;
      expect(refusal).toBeInstanceOf(RefundError);
      expect(refusal.code).toBe('request_closed');
      expect(refusal.params).toEqual({ approvedBy: winner, approvedAt: stored?.decidedAt });
      // One refund at the service, of the amount asked.
      expect(refundPosts).toHaveLength(1);
      const after = await atA.engine.getPayment(payment.id);
      expect(after.refunds.map((r) => r.amountCents)).toEqual([2500]);
      // Approving again, at either desk, by the one who lost: still refused, nothing sent.
      const again = await (winner === SAM.id ? atB.desk.approve(asked.id, SUE) : atA.desk.approve(asked.id, SAM)).catch(
        (error: unknown) => error,
      );
      expect(again).toMatchObject({ code: 'request_closed' });
      expect(refundPosts).toHaveLength(1);
    });

    it('an approval reads the payment from the service once, then sends one refund', async () => {
      const atA = await desk(await backend.storage(), DESK_A, ['ana', 'sam']);
      const atB = await desk(await backend.anotherDesk(), DESK_B, ['sue']);
      const payment = await succeededPayment(atA.engine);
      const asked = await atA.desk.request(
        { requestId: randomUUID(), paymentId: payment.id, amountCents: 1500, reason: 'duplicate' },
        ANA,
      );
      serviceCalls.splice(0);
      await atB.desk.approve(asked.id, SUE);
      expect(
        serviceCalls.filter((call) => call.startsWith('GET ') && call.endsWith(`/payments/${payment.id}`)),
      ).toHaveLength(1);
      expect(
        serviceCalls.filter((call) => call.startsWith('POST ') && call.endsWith(`/payments/${payment.id}/refunds`)),
      ).toHaveLength(1);
    });

    it('a rejection at desk A closes the request for desk B, which is told who rejected it', async () => {
      const atA = await desk(await backend.storage(), DESK_A, ['ana', 'sam']);
      const atB = await desk(await backend.anotherDesk(), DESK_B, ['sue']);
      const payment = await succeededPayment(atA.engine);
      const asked = await atA.desk.request(
        { requestId: randomUUID(), paymentId: payment.id, reason: 'duplicate' },
        ANA,
      );
      const rejected = await atA.desk.reject(asked.id, 'not a duplicate', SAM);
      const refusal = await atB.desk.approve(asked.id, SUE).catch((error: unknown) => error);
      expect(refusal).toMatchObject({
        code: 'request_closed',
        params: { rejectedBy: 'sam', rejectedAt: rejected.decidedAt },
      });
    });
  },
);
