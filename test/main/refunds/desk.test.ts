// The refund desk through the real door (createMainStack in training mode: its own simulator over
// HTTP, real operators, journal, refund requests and audit trail), plus one case on a bare engine and desk
// whose fetch is observed, to count the refund requests that reach the service.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack, type MainStackOptions } from '../../../main/app';
import { loadSettings } from '../../../main/settings';
import type { SenderInfo } from '../../../main/ipc';
import { Journal, PaymentEngine, simulatorConfig } from '../../../main/payments';
import { RefundDesk, RefundError, RefundRequests } from '../../../main/refunds';
import { embeddedStorage } from '../../../main/storage';
import { OPERATORS_STORE, type OperatorsDB } from '../../../main/operators';
import { databaseNowMs } from '../../../main/operators/store';
import { launchSimulator, simulatorControl, useSimulator, type SimulatorFault } from '../../support/simulator';
import type { RefundRequestView } from '../../../shared/desk';
import type { PaymentView } from '../../../shared/ipc';
import type { OperatorView } from '../../../shared/operators';
import { openJournal } from '../../support/journal';
import { asTheScreen } from '../../support/screen';
import { MIN_COST } from '../../../main/operators';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' };
/** The simulator settles a refund this long after it is made (by its own clock, which the tests advance). */
const REFUND_DELAY_S = 3;

const PASSWORDS = {
  ada: 'admin password 4242',
  ana: 'agent password 1234',
  sam: 'supervisor pass 1234',
  sue: 'supervisor two 5678',
} as const;
type Who = keyof typeof PASSWORDS;

type Refusal = { code: string; message?: string; field?: string; params?: Record<string, unknown> };

/** One main stack over a temporary data folder, with the four operators. */
class Desk {
  private constructor(
    readonly stack: MainStack,
    readonly dir: string,
  ) {}

  static async open(extra: Partial<MainStackOptions> = {}): Promise<Desk> {
    const dir = mkdtempSync(join(tmpdir(), 'refund-desk-'));
    const stack = await createMainStack({
      passwordCost: MIN_COST,
      dataDir: dir,
      version: 'test',
      fetch,
      isTrustedSender: () => true,
      service: { environment: 'training', simulator: { processingDelayMs: 0, refundDelayMs: REFUND_DELAY_S * 1000 } },
      ...extra,
    });
    await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: PASSWORDS.ada });
    await stack.directory.createOperator('ada', {
      id: 'ana',
      displayName: 'Ana',
      role: 'agent',
      password: PASSWORDS.ana,
    });
    await stack.directory.createOperator('ada', {
      id: 'sam',
      displayName: 'Sam',
      role: 'supervisor',
      password: PASSWORDS.sam,
    });
    await stack.directory.createOperator('ada', {
      id: 'sue',
      displayName: 'Sue',
      role: 'supervisor',
      password: PASSWORDS.sue,
    });
    return new Desk(stack, dir);
  }

  async close(): Promise<void> {
    await this.stack.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  call(channel: string, input: unknown) {
    return asTheScreen((c, i) => this.stack.dispatch(c, sender, i), channel, input);
  }

  async ok<T>(channel: string, input: unknown): Promise<T> {
    const result = await this.call(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  }

  /** The refusal the door answered; fails the test when the call went through. */
  async refused(channel: string, input: unknown): Promise<Refusal> {
    const result = await this.call(channel, input);
    if (result.ok)
      throw new Error(`${channel} was expected to be refused, and answered ${JSON.stringify(result.value)}`);
    return result.error;
  }

  async signInAs(who: Who): Promise<void> {
    if ((await this.ok<{ operator?: OperatorView }>('session:status', {})).operator)
      await this.ok('session:signOut', {});
    const operator = await this.ok<OperatorView>('session:signIn', { id: who, password: PASSWORDS[who] });
    expect(operator.id).toBe(who);
  }

  /** Imports a reservation owing `amountCents` (an admin imports it): a charge goes only on a reservation the source knows. */
  async reservation(reservationId: string, amountCents: number, currency: 'usd' | 'mxn'): Promise<void> {
    await this.signInAs('ada');
    const csv = `confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due,currency\n${reservationId},Ana Test,2030-03-14,2030-03-18,Hotel Costa Turquesa,${(amountCents / 100).toFixed(2)},${currency}\n`;
    expect(await this.ok('reservations:importCsv', { csv })).toMatchObject({ ok: true });
  }

  /** A 4242 card payment taken by `who`, read until the service says it succeeded. */
  async succeededPayment(
    who: 'ana' | 'sam',
    amountCents: number,
    currency: 'usd' | 'mxn' = 'usd',
  ): Promise<PaymentView> {
    const reservationId = `HTL-REFUND-${randomUUID().slice(0, 8)}`;
    await this.reservation(reservationId, amountCents, currency);
    await this.signInAs(who);
    const method = await this.ok<{ id: string }>('payments:tokenize', {
      operationId: randomUUID(),
      card: CARD,
      reservationId,
    });
    let payment = await this.ok<PaymentView>('payments:pay', {
      operationId: randomUUID(),
      methodId: method.id,
      amountCents,
      currency,
      reservationId,
    });
    for (let i = 0; i < 100 && payment.status !== 'succeeded'; i++) {
      await sleep(20);
      payment = await this.ok<PaymentView>('payments:get', { paymentId: payment.id });
    }
    expect(payment).toMatchObject({ status: 'succeeded', amountCents, refundableCents: amountCents, refunds: [] });
    return payment;
  }

  /** The service's word on the payment (payments:get reads it again). */
  get(paymentId: string): Promise<PaymentView> {
    return this.ok<PaymentView>('payments:get', { paymentId });
  }

  /** Moves the simulator's clock: pending refunds are due at once. */
  async advance(seconds: number): Promise<void> {
    const controlUrl = this.stack.training?.controlUrl;
    if (!controlUrl) throw new Error('not in training mode');
    await simulatorControl(controlUrl).advanceClock(seconds);
  }

  /** The next `payments:changed` event for the payment that `matches` (bounded: a liveness guard, not a speed test). */
  changed(paymentId: string, matches: (payment: PaymentView) => boolean): Promise<PaymentView> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`no payments:changed event for ${paymentId} matched in 15 s`));
      }, 15_000);
      const off = this.stack.onEvent((event, payload) => {
        if (event !== 'payments:changed') return;
        const payment = payload as PaymentView;
        if (payment.id !== paymentId || !matches(payment)) return;
        clearTimeout(timer);
        off();
        resolve(payment);
      });
    });
  }

  /** The journal file as the next start would read it (a second connection: SQLite in WAL mode allows it). */
  async journalRefunds(
    paymentId: string,
  ): Promise<{ id: string; amountCents: number | undefined; operatorId: string | undefined }[]> {
    const journal = await openJournal(this.dir);
    try {
      return ((await journal.payment(paymentId))?.refunds ?? []).map(({ id, amountCents, operatorId }) => ({
        id,
        amountCents,
        operatorId,
      }));
    } finally {
      await journal.close();
    }
  }
}

const refundInput = (paymentId: string, amountCents?: number) => ({
  operationId: randomUUID(),
  paymentId,
  ...(amountCents === undefined ? {} : { amountCents }),
  reason: 'requested_by_customer',
});
const requestInput = (paymentId: string, amountCents?: number) => ({
  requestId: randomUUID(),
  paymentId,
  ...(amountCents === undefined ? {} : { amountCents }),
  reason: 'cancellation',
  note: 'The guest cancelled by phone.',
});

describe('the refund desk through the door (default limits)', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await Desk.open();
  });
  afterAll(async () => {
    await desk.close();
  });

  it('a supervisor refunds part, then all that is left; both statuses are followed to succeeded; a further refund is refused before any request', async () => {
    const payment = await desk.succeededPayment('ana', 10000);
    await desk.signInAs('sam');

    const partial = await desk.ok<PaymentView>('refunds:create', refundInput(payment.id, 3000));
    expect(partial.refundableCents).toBe(7000);
    expect(partial.refunds).toMatchObject([
      { amountCents: 3000, currency: 'usd', reason: 'requested_by_customer', status: 'pending' },
    ]);
    const firstRefund = partial.refunds[0]?.id ?? '';

    // The engine follows the payment until the refund is final: its next read after the service settles it.
    const firstDone = desk.changed(payment.id, (p) => p.refunds.every((r) => r.status === 'succeeded'));
    await desk.advance(REFUND_DELAY_S + 1);
    expect((await firstDone).refunds).toMatchObject([{ id: firstRefund, amountCents: 3000, status: 'succeeded' }]);

    // Without an amount: all that is left.
    const full = await desk.ok<PaymentView>('refunds:create', refundInput(payment.id));
    expect(full.refundableCents).toBe(0);
    expect(full.refunds.map((r) => [r.amountCents, r.status])).toEqual([
      [3000, 'succeeded'],
      [7000, 'pending'],
    ]);
    const secondDone = desk.changed(
      payment.id,
      (p) => p.refunds.length === 2 && p.refunds.every((r) => r.status === 'succeeded'),
    );
    await desk.advance(REFUND_DELAY_S + 1);
    await secondDone;

    const settled = await desk.get(payment.id);
    expect(settled).toMatchObject({ status: 'succeeded', amountCents: 10000, refundableCents: 0 });
    expect(settled.refunds.map((r) => [r.amountCents, r.status])).toEqual([
      [3000, 'succeeded'],
      [7000, 'succeeded'],
    ]);
    expect((await desk.journalRefunds(payment.id)).map((r) => [r.amountCents, r.operatorId])).toEqual([
      [3000, 'sam'],
      [7000, 'sam'],
    ]);

    // Nothing left: refused (with or without an amount), and the service still holds two refunds.
    expect(await desk.refused('refunds:create', refundInput(payment.id, 100))).toMatchObject({
      code: 'refund_exceeds_remaining',
      field: 'amountCents',
    });
    // Without an amount, confirming what a screen read before the last refund (7,000): nothing is left now.
    expect(
      await desk.refused('refunds:create', { ...refundInput(payment.id), expectedAmountCents: 7000 }),
    ).toMatchObject({ code: 'refund_exceeds_remaining', field: 'amountCents' });
    expect((await desk.get(payment.id)).refunds).toHaveLength(2);

    // The audit trail: who made each refund, and each result once.
    const creates = await desk.stack.audit.query({ action: 'refund.create', resource: payment.id }, 10);
    expect(creates.map((r) => [r.actor, r.outcome])).toEqual(
      expect.arrayContaining([
        ['sam', 'ok'],
        ['sam', 'ok'],
        ['sam', 'refused'],
        ['sam', 'refused'],
      ]),
    );
    expect(creates).toHaveLength(4);
    const results = (
      await Promise.all(
        settled.refunds.map((r) => desk.stack.audit.query({ action: 'refund.result', resource: r.id }, 10)),
      )
    ).flat();
    expect(results.map((r) => [r.actor, r.outcome, r.details['amountCents']])).toEqual([
      ['system', 'ok', 3000],
      ['system', 'ok', 7000],
    ]);
  });

  it("an agent's refunds:create is refused by main (role), and no refund is made", async () => {
    const payment = await desk.succeededPayment('ana', 4000);
    // Signed in as the agent, the renderer calls the channel directly.
    expect(await desk.refused('refunds:create', refundInput(payment.id, 1000))).toMatchObject({ code: 'forbidden' });
    expect(await desk.refused('refunds:create', refundInput(payment.id))).toMatchObject({ code: 'forbidden' });
    expect(await desk.refused('refunds:approve', { requestId: randomUUID(), expectedAmountCents: 1000 })).toMatchObject(
      { code: 'forbidden' },
    );
    expect(await desk.get(payment.id)).toMatchObject({ refundableCents: 4000, refunds: [] });
    expect(await desk.journalRefunds(payment.id)).toEqual([]);
    const rows = await desk.stack.audit.query({ action: 'refund.create', resource: payment.id }, 10);
    expect(rows.map((r) => [r.actor, r.outcome])).toEqual([
      ['ana', 'refused'],
      ['ana', 'refused'],
    ]);
  });

  it("manager override: wrong password and the agent's own credentials are refused; the supervisor's approve, both ids recorded", async () => {
    const payment = await desk.succeededPayment('ana', 9000);
    const asked = requestInput(payment.id, 2500);
    const request = await desk.ok<RefundRequestView>('refunds:request', asked);
    expect(request).toMatchObject({
      id: asked.requestId,
      paymentId: payment.id,
      amountCents: 2500,
      currency: 'usd',
      status: 'pending',
      requestedBy: 'ana',
      override: false,
    });
    // The same request sent again is the same request; the same id with another amount is refused.
    expect(await desk.ok<RefundRequestView>('refunds:request', asked)).toEqual(request);
    expect(await desk.refused('refunds:request', { ...asked, amountCents: 2600 })).toMatchObject({
      code: 'request_changed',
    });
    expect(request.decidedBy).toBeUndefined();
    const pendingOnly = async () =>
      (await desk.ok<{ requests: RefundRequestView[] }>('refunds:requestsFor', { paymentId: payment.id })).requests;

    const wrong = await desk.refused('refunds:override', {
      requestId: request.id,
      approverId: 'sam',
      approverPassword: 'not the password 0000',
    });
    expect(wrong.code).toBe('invalid_credentials');
    expect(await pendingOnly()).toMatchObject([{ id: request.id, status: 'pending' }]);

    const self = await desk.refused('refunds:override', {
      requestId: request.id,
      approverId: 'ana',
      approverPassword: PASSWORDS.ana,
    });
    expect(self.code).toBe('approver_not_allowed');
    expect(await pendingOnly()).toMatchObject([{ id: request.id, status: 'pending' }]);
    expect(await desk.get(payment.id)).toMatchObject({ refundableCents: 9000, refunds: [] });

    // The supervisor signs on the agent's screen (id is case-insensitive); the session stays the agent's.
    const approved = await desk.ok<{ request: RefundRequestView; payment: PaymentView }>('refunds:override', {
      requestId: request.id,
      approverId: 'SAM',
      approverPassword: PASSWORDS.sam,
    });
    expect((await desk.ok<{ operator?: OperatorView }>('session:status', {})).operator?.id).toBe('ana');
    expect(approved.request).toMatchObject({
      id: request.id,
      status: 'approved',
      requestedBy: 'ana',
      decidedBy: 'sam',
      override: true,
    });
    expect(approved.payment.refunds).toHaveLength(1);
    const refundId = approved.payment.refunds[0]?.id;
    expect(approved.request.refundId).toBe(refundId);
    expect(approved.payment).toMatchObject({
      refundableCents: 6500,
      refunds: [{ amountCents: 2500, reason: 'cancellation' }],
    });

    // The refund is the supervisor's in the journal (the end-of-day report counts it for them)…
    expect(await desk.journalRefunds(payment.id)).toEqual([{ id: refundId, amountCents: 2500, operatorId: 'sam' }]);
    // …and the audit trail has the approval with both ids, made from the agent's session.
    const rows = (await desk.stack.audit.query({ action: 'refund.approve' }, 100)).filter(
      (r) => r.details['requestId'] === request.id,
    );
    // Refused approvals have no answer to name the payment: main takes it from the request.
    expect(rows.every((r) => r.resource === payment.id)).toBe(true);
    expect(rows.map((r) => [r.actor, r.outcome, r.details['approverId']]).reverse()).toEqual([
      ['ana', 'refused', 'sam'],
      ['ana', 'refused', 'ana'],
      ['ana', 'ok', 'sam'],
    ]);
    expect(rows[0]).toMatchObject({
      resource: payment.id,
      details: {
        requestId: request.id,
        override: true,
        requestedBy: 'ana',
        approverId: 'sam',
        approvedBy: 'sam',
        refundId,
      },
    });
    expect(JSON.stringify(rows)).not.toContain(PASSWORDS.sam);
    expect(
      (await desk.stack.audit.query({ action: 'refund.request', resource: payment.id }, 10)).reverse(),
    ).toMatchObject([
      { actor: 'ana', outcome: 'ok', details: { requestId: request.id, amountCents: 2500, reason: 'cancellation' } },
      { actor: 'ana', outcome: 'ok', details: { requestId: request.id, amountCents: 2500 } },
      {
        actor: 'ana',
        outcome: 'refused',
        details: { requestId: request.id, amountCents: 2600, code: 'request_changed' },
      },
    ]);

    // Overriding again is the same refund, not a second one.
    const again = await desk.ok<{ request: RefundRequestView; payment: PaymentView }>('refunds:override', {
      requestId: request.id,
      approverId: 'sam',
      approverPassword: PASSWORDS.sam,
    });
    expect(again.request.refundId).toBe(refundId);
    expect((await desk.get(payment.id)).refunds.map((r) => r.id)).toEqual([refundId]);
  });

  it('an agent cannot ask for more than is left, nor for a payment with nothing left or not succeeded (refused when asked, not when approved)', async () => {
    const payment = await desk.succeededPayment('ana', 2000);
    expect(await desk.refused('refunds:request', requestInput(payment.id, 2001))).toMatchObject({
      code: 'refund_exceeds_remaining',
      field: 'amountCents',
    });
    await desk.signInAs('sam');
    await desk.ok('refunds:create', refundInput(payment.id));
    await desk.signInAs('ana');
    expect(await desk.refused('refunds:request', requestInput(payment.id))).toMatchObject({
      code: 'refund_exceeds_remaining',
      field: 'amountCents',
    });
    expect(await desk.refused('refunds:request', requestInput(payment.id, 100))).toMatchObject({
      code: 'refund_exceeds_remaining',
      field: 'amountCents',
    });
    expect(
      (await desk.ok<{ requests: RefundRequestView[] }>('refunds:requestsFor', { paymentId: payment.id })).requests,
    ).toEqual([]);

    // A payment that has not succeeded (waiting for the cardholder's 3DS) cannot be asked for either.
    const reservationId = 'HTL-REFUND-3DS';
    await desk.reservation(reservationId, 2000, 'usd');
    await desk.signInAs('ana');
    const method = await desk.ok<{ id: string }>('payments:tokenize', {
      operationId: randomUUID(),
      card: { ...CARD, number: '4000000000003220' },
      reservationId,
    });
    const waiting = await desk.ok<PaymentView>('payments:pay', {
      operationId: randomUUID(),
      methodId: method.id,
      amountCents: 2000,
      currency: 'usd',
      reservationId,
    });
    expect(waiting.status).toBe('requires_action');
    expect(await desk.refused('refunds:request', requestInput(waiting.id))).toMatchObject({
      code: 'payment_not_refundable',
    });
    expect(
      (await desk.ok<{ requests: RefundRequestView[] }>('refunds:requestsFor', { paymentId: waiting.id })).requests,
    ).toEqual([]);
  });

  it('the queue: listed, approved once by another supervisor, a rejection needs a note, and nobody approves their own request', async () => {
    const payment = await desk.succeededPayment('ana', 12000);
    const first = await desk.ok<RefundRequestView>('refunds:request', requestInput(payment.id, 4000));
    const second = await desk.ok<RefundRequestView>('refunds:request', requestInput(payment.id, 1000));
    // An agent does not see the queue.
    expect(await desk.refused('refunds:queue', {})).toMatchObject({ code: 'forbidden' });

    await desk.signInAs('sue');
    const queued = (await desk.ok<{ requests: RefundRequestView[] }>('refunds:queue', {})).requests.filter(
      (r) => r.paymentId === payment.id,
    );
    expect(queued.map((r) => [r.id, r.status, r.requestedBy, r.amountCents])).toEqual([
      [first.id, 'pending', 'ana', 4000],
      [second.id, 'pending', 'ana', 1000],
    ]);

    const approved = await desk.ok<{ request: RefundRequestView; payment: PaymentView }>('refunds:approve', {
      requestId: first.id,
    });
    expect(approved.request).toMatchObject({
      status: 'approved',
      requestedBy: 'ana',
      decidedBy: 'sue',
      override: false,
    });
    const refundId = approved.request.refundId;
    expect(refundId).toBeDefined();
    expect(approved.payment.refunds.map((r) => [r.id, r.amountCents])).toEqual([[refundId, 4000]]);

    // Approving again, the same supervisor at the same desk, answers the same refund; another supervisor is told who
    // approved it and when (one approval, one refund, whichever desk they sit at): the service holds one.
    const again = await desk.ok<{ request: RefundRequestView; payment: PaymentView }>('refunds:approve', {
      requestId: first.id,
    });
    expect(again.request).toMatchObject({ status: 'approved', decidedBy: 'sue', refundId });
    await desk.signInAs('sam');
    expect(await desk.refused('refunds:approve', { requestId: first.id })).toMatchObject({
      code: 'request_closed',
      params: { approvedBy: 'sue', approvedAt: again.request.decidedAt },
    });
    expect((await desk.get(payment.id)).refunds.map((r) => r.id)).toEqual([refundId]);
    expect(await desk.journalRefunds(payment.id)).toEqual([{ id: refundId, amountCents: 4000, operatorId: 'sue' }]);

    // A rejection says why.
    expect(await desk.refused('refunds:reject', { requestId: second.id, note: '' })).toMatchObject({
      code: 'invalid_input',
      field: 'note',
    });
    expect(await desk.refused('refunds:reject', { requestId: second.id, note: '   ' })).toMatchObject({
      code: 'invalid_input',
      field: 'note',
    });
    const rejected = await desk.ok<RefundRequestView>('refunds:reject', {
      requestId: second.id,
      note: 'Charged correctly: the stay was used.',
    });
    expect(rejected).toMatchObject({
      id: second.id,
      status: 'rejected',
      decidedBy: 'sam',
      decisionNote: 'Charged correctly: the stay was used.',
    });
    expect(rejected.refundId).toBeUndefined();
    // Closed: neither approved nor rejected again; it left the queue.
    expect(await desk.refused('refunds:approve', { requestId: second.id })).toMatchObject({ code: 'request_closed' });
    expect(await desk.refused('refunds:reject', { requestId: second.id, note: 'again' })).toMatchObject({
      code: 'request_closed',
    });
    expect(await desk.refused('refunds:reject', { requestId: first.id, note: 'too late' })).toMatchObject({
      code: 'request_closed',
    });
    const pending = (await desk.ok<{ requests: RefundRequestView[] }>('refunds:queue', {})).requests;
    expect(pending.filter((r) => r.paymentId === payment.id)).toEqual([]);
    const all = (await desk.ok<{ requests: RefundRequestView[] }>('refunds:queue', { status: 'all' })).requests.filter(
      (r) => r.paymentId === payment.id,
    );
    expect(all.map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [first.id, 'approved'],
        [second.id, 'rejected'],
      ].sort(),
    );
    expect(await desk.get(payment.id)).toMatchObject({ refundableCents: 8000 });

    // A supervisor may ask too, but someone else must approve it.
    const own = await desk.ok<RefundRequestView>('refunds:request', requestInput(payment.id, 500));
    expect(own.requestedBy).toBe('sam');
    expect(await desk.refused('refunds:approve', { requestId: own.id })).toMatchObject({ code: 'same_person' });
    expect(await desk.refused('refunds:reject', { requestId: own.id, note: 'mine' })).toMatchObject({
      code: 'same_person',
    });
    expect(
      (
        await desk.ok<{ requests: RefundRequestView[] }>('refunds:requestsFor', { paymentId: payment.id })
      ).requests.find((r) => r.id === own.id),
    ).toMatchObject({
      status: 'pending',
    });
    expect((await desk.get(payment.id)).refunds).toHaveLength(1);
    await desk.signInAs('sue');
    expect(await desk.ok<{ request: RefundRequestView }>('refunds:approve', { requestId: own.id })).toMatchObject({
      request: { status: 'approved', requestedBy: 'sam', decidedBy: 'sue' },
    });
    expect((await desk.get(payment.id)).refunds.map((r) => r.amountCents)).toEqual([4000, 500]);
  });
});

describe('refund limits per role (supervisors up to 50 USD)', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await Desk.open({ refundLimits: { supervisor: { usd: 50 } } });
  });
  afterAll(async () => {
    await desk.close();
  });

  it('the limits are listed for every role', async () => {
    await desk.signInAs('ana');
    const { limits } = await desk.ok<{ limits: { role: string; currency: string; max?: number }[] }>(
      'refunds:limits',
      {},
    );
    expect(limits).toEqual(
      expect.arrayContaining([
        { role: 'agent', currency: 'usd', maxCents: 0, maxPerDayCents: 0 },
        // One number caps a single refund and the day's total alike.
        { role: 'supervisor', currency: 'usd', maxCents: 5000, maxPerDayCents: 5000 },
        { role: 'supervisor', currency: 'mxn' },
        { role: 'admin', currency: 'usd' },
      ]),
    );
  });

  it("a supervisor's refund above the limit is refused before any refund; an admin's is made", async () => {
    const payment = await desk.succeededPayment('ana', 10000);
    await desk.signInAs('sam');
    const refusal = await desk.refused('refunds:create', refundInput(payment.id, 6000));
    expect(refusal).toMatchObject({ code: 'refund_limit', field: 'amountCents' });
    expect(refusal.params).toMatchObject({ limitCents: 5000, currency: 'usd', role: 'supervisor' });
    // All that is left (100) is above the limit too.
    expect(await desk.refused('refunds:create', refundInput(payment.id))).toMatchObject({ code: 'refund_limit' });
    expect(await desk.get(payment.id)).toMatchObject({ refundableCents: 10000, refunds: [] });
    // At the limit: allowed.
    expect(await desk.ok<PaymentView>('refunds:create', refundInput(payment.id, 5000))).toMatchObject({
      refundableCents: 5000,
    });

    const other = await desk.succeededPayment('ana', 10000);
    await desk.signInAs('ada');
    const byAdmin = await desk.ok<PaymentView>('refunds:create', refundInput(other.id, 6000));
    expect(byAdmin).toMatchObject({ refundableCents: 4000, refunds: [{ amountCents: 6000 }] });
    expect(await desk.journalRefunds(other.id)).toMatchObject([{ amountCents: 6000, operatorId: 'ada' }]);
  });

  it('a request above the approving supervisor’s limit is refused and stays pending; an admin approves it', async () => {
    const payment = await desk.succeededPayment('ana', 10000);
    const request = await desk.ok<RefundRequestView>('refunds:request', requestInput(payment.id, 7500));
    expect(
      await desk.refused('refunds:override', {
        requestId: request.id,
        approverId: 'sam',
        approverPassword: PASSWORDS.sam,
      }),
    ).toMatchObject({ code: 'refund_limit' });

    await desk.signInAs('sam');
    expect(await desk.refused('refunds:approve', { requestId: request.id })).toMatchObject({
      code: 'refund_limit',
      field: 'amountCents',
    });
    const [still] = (await desk.ok<{ requests: RefundRequestView[] }>('refunds:requestsFor', { paymentId: payment.id }))
      .requests;
    expect(still).toMatchObject({ id: request.id, status: 'pending' });
    expect(still?.decidedBy).toBeUndefined();
    expect(await desk.get(payment.id)).toMatchObject({ refunds: [] });

    await desk.signInAs('ada');
    const approved = await desk.ok<{ request: RefundRequestView; payment: PaymentView }>('refunds:approve', {
      requestId: request.id,
    });
    expect(approved.request).toMatchObject({ status: 'approved', requestedBy: 'ana', decidedBy: 'ada' });
    expect(approved.payment).toMatchObject({ refundableCents: 2500, refunds: [{ amountCents: 7500 }] });
  });
});

describe('the daily cap per supervisor and currency (default limits: 500 USD a refund and a day)', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await Desk.open();
  });
  afterAll(async () => {
    await desk.close();
  });

  it('890 USD cannot be refunded as 450 + 440: the second part is refused, saying how much is left today', async () => {
    await desk.signInAs('ana');
    const { limits } = await desk.ok<{
      limits: { role: string; currency: string; maxCents?: number; maxPerDayCents?: number }[];
    }>('refunds:limits', {});
    expect(limits).toEqual(
      expect.arrayContaining([
        { role: 'supervisor', currency: 'usd', maxCents: 50_000, maxPerDayCents: 50_000 },
        { role: 'admin', currency: 'usd' },
      ]),
    );

    const payment = await desk.succeededPayment('ana', 89000);
    await desk.signInAs('sam');
    // Still pending at the service when the next one is asked: it counts.
    expect(await desk.ok<PaymentView>('refunds:create', refundInput(payment.id, 45000))).toMatchObject({
      refundableCents: 44000,
      refunds: [{ amountCents: 45000, status: 'pending' }],
    });
    const refusal = await desk.refused('refunds:create', refundInput(payment.id, 44000));
    expect(refusal).toMatchObject({
      code: 'refund_daily_limit',
      field: 'amountCents',
      params: {
        amountCents: 44_000,
        limitCents: 50_000,
        refundedCents: 45_000,
        leftCents: 5_000,
        currency: 'usd',
        role: 'supervisor',
      },
    });
    expect((await desk.get(payment.id)).refunds).toHaveLength(1);

    // Succeeded refunds count too; what is left today can still be refunded, then nothing more.
    await desk.advance(REFUND_DELAY_S + 1);
    expect(await desk.ok<PaymentView>('refunds:create', refundInput(payment.id, 5000))).toMatchObject({
      refundableCents: 39000,
    });
    expect(await desk.refused('refunds:create', refundInput(payment.id, 100))).toMatchObject({
      code: 'refund_daily_limit',
      params: { leftCents: 0 },
    });
    // The whole amount left (no amount given) is checked the same way.
    expect(await desk.refused('refunds:create', refundInput(payment.id))).toMatchObject({
      code: 'refund_daily_limit',
      params: { amountCents: 39_000, leftCents: 0 },
    });

    // Another currency has its own cap; another supervisor has their own day; admins have none.
    const inPesos = await desk.succeededPayment('ana', 90000, 'mxn');
    await desk.signInAs('sam');
    expect(await desk.ok<PaymentView>('refunds:create', refundInput(inPesos.id, 90000))).toMatchObject({
      refundableCents: 0,
    });
    await desk.signInAs('sue');
    expect(await desk.ok<PaymentView>('refunds:create', refundInput(payment.id, 39000))).toMatchObject({
      refundableCents: 0,
    });
  });

  it('approvals count for the approver, from the queue and by manager override; a refused one stays pending', async () => {
    const payment = await desk.succeededPayment('ana', 30000);
    const request = await desk.ok<RefundRequestView>('refunds:request', requestInput(payment.id, 30000));
    // Sam has refunded 500 USD today (the test above): nothing is left for him, on the agent's screen or in the queue.
    const override = await desk.refused('refunds:override', {
      requestId: request.id,
      approverId: 'sam',
      approverPassword: PASSWORDS.sam,
    });
    expect(override).toMatchObject({ code: 'refund_daily_limit', params: { leftCents: 0 } });
    await desk.signInAs('sam');
    expect(await desk.refused('refunds:approve', { requestId: request.id })).toMatchObject({
      code: 'refund_daily_limit',
      field: 'amountCents',
    });
    const [still] = (await desk.ok<{ requests: RefundRequestView[] }>('refunds:requestsFor', { paymentId: payment.id }))
      .requests;
    expect(still).toMatchObject({ status: 'pending' });

    // Sue refunded 390 USD today: 110 left, not enough for 300.
    await desk.signInAs('sue');
    expect(await desk.refused('refunds:approve', { requestId: request.id })).toMatchObject({
      code: 'refund_daily_limit',
      params: { leftCents: 11_000 },
    });
    await desk.signInAs('ada');
    expect(
      (await desk.ok<{ request: RefundRequestView }>('refunds:approve', { requestId: request.id })).request,
    ).toMatchObject({ status: 'approved', decidedBy: 'ada' });
  });
});

describe('manager override: failed attempts are limited per approver, and never lock the supervisor out', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await Desk.open();
  });
  afterAll(async () => {
    await desk.close();
  });

  it('ten wrong passwords on the agent’s screen: 5 are checked, then override pauses for 5 minutes; the supervisor still signs in', async () => {
    const payment = await desk.succeededPayment('ana', 8000);
    const request = await desk.ok<RefundRequestView>('refunds:request', requestInput(payment.id, 2000));
    const wrong = { requestId: request.id, approverId: 'sam', approverPassword: 'not the password 0000' };
    const codes: string[] = [];
    for (let i = 0; i < 10; i++) codes.push((await desk.refused('refunds:override', wrong)).code);
    expect(codes).toEqual([
      ...Array<string>(5).fill('invalid_credentials'),
      ...Array<string>(5).fill('override_paused'),
    ]);
    const paused = await desk.refused('refunds:override', { ...wrong, approverPassword: PASSWORDS.sam });
    expect(paused).toMatchObject({ code: 'override_paused', params: { minutes: 5, failures: 5 } });
    // Each try is in the audit trail, refused, from the agent's session (this desk has made no other approval yet; the rows
    // are not picked by request id, which the log scrubber takes for a card number in about one random UUID in 200).
    const rows = await desk.stack.audit.query({ action: 'refund.approve' }, 100);
    expect(rows.map((r) => [r.actor, r.outcome, r.details['code']]).reverse()).toEqual([
      ...Array.from({ length: 5 }, () => ['ana', 'refused', 'invalid_credentials']),
      ...Array.from({ length: 6 }, () => ['ana', 'refused', 'override_paused']),
    ]);

    // The supervisor's own account is not locked: they sign in at once, and can approve from the queue.
    await desk.signInAs('sam');
    expect(
      (await desk.ok<{ request: RefundRequestView }>('refunds:approve', { requestId: request.id })).request,
    ).toMatchObject({ status: 'approved', decidedBy: 'sam' });
  });

  it('after 5 minutes override is open again, and a success starts the count over', async () => {
    const payment = await desk.succeededPayment('ana', 8000);
    const request = await desk.ok<RefundRequestView>('refunds:request', requestInput(payment.id, 2000));
    const right = { requestId: request.id, approverId: 'sam', approverPassword: PASSWORDS.sam };
    expect(await desk.refused('refunds:override', right)).toMatchObject({ code: 'override_paused' });
    // The pause is the directory's, by the database's clock (which no test can move): its end is moved to now.
    const storage = embeddedStorage(desk.dir);
    const operators = await storage.open<OperatorsDB>(OPERATORS_STORE);
    await operators.db
      .updateTable('operators')
      .set({ override_paused_until: sql<number>`${databaseNowMs('sqlite')}` })
      .where('id', '=', 'sam')
      .execute();
    await storage.close();
    await desk.signInAs('ana');
    expect(await desk.refused('refunds:override', { ...right, approverPassword: 'still not it 1234' })).toMatchObject({
      code: 'invalid_credentials',
    });
    expect((await desk.ok<{ request: RefundRequestView }>('refunds:override', right)).request).toMatchObject({
      status: 'approved',
      decidedBy: 'sam',
      override: true,
    });
    // Four more failures after the success do not pause it: the count started over.
    const other = await desk.ok<RefundRequestView>('refunds:request', requestInput(payment.id, 1000));
    for (let i = 0; i < 4; i++) {
      expect(
        await desk.refused('refunds:override', {
          requestId: other.id,
          approverId: 'sam',
          approverPassword: 'wrong again 12345',
        }),
      ).toMatchObject({ code: 'invalid_credentials' });
    }
    expect(
      (await desk.ok<{ request: RefundRequestView }>('refunds:override', { ...right, requestId: other.id })).request,
    ).toMatchObject({ status: 'approved' });
  });
});

describe('the cap comes from IT: a user settings.json of {"refundLimits": {}} does not lift it', () => {
  it('the settings the app loads keep the default cap, and main refuses 600 USD from a supervisor', async () => {
    const root = mkdtempSync(join(tmpdir(), 'refund-policy-'));
    mkdirSync(join(root, 'user'));
    writeFileSync(join(root, 'user', 'settings.json'), JSON.stringify({ refundLimits: {} }));
    const loaded = await loadSettings({
      userDir: join(root, 'user'),
      managedPath: join(root, 'managed-settings.json'),
    });
    // Wired as main/index.ts wires it.
    const desk = await Desk.open(
      loaded.settings.refundLimits === undefined ? {} : { refundLimits: loaded.settings.refundLimits },
    );
    try {
      const payment = await desk.succeededPayment('ana', 60000);
      await desk.signInAs('sam');
      expect(await desk.refused('refunds:create', refundInput(payment.id, 60000))).toMatchObject({
        code: 'refund_limit',
        params: { limitCents: 50_000 },
      });
    } finally {
      await desk.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('over-refund is blocked before any request reaches the service', () => {
  const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 }, { resetAfterEach: false });
  let dir: string;
  let journal: Journal;
  let requests: RefundRequests;
  let engine: PaymentEngine;
  let desk: RefundDesk;
  /** Every request the engine sent, as `METHOD path`. */
  const sent: string[] = [];
  const refundPosts = () => sent.filter((s) => /^POST \/api\/payments\/pay_[0-9a-f]{32}\/refunds$/.test(s));
  const SAM: OperatorView = { id: 'sam', displayName: 'Sam', role: 'supervisor', disabled: false };
  const ANA: OperatorView = { id: 'ana', displayName: 'Ana', role: 'agent', disabled: false };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'refund-over-'));
    journal = await openJournal(dir);
    requests = await RefundRequests.open(embeddedStorage(dir), { deskId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' });
    const recording: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      sent.push(`${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`);
      return fetch(input, init);
    };
    engine = new PaymentEngine({
      config: simulatorConfig(sim),
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      journal,
      fetch: recording,
    });
    desk = new RefundDesk({
      engine,
      requests,
      history: journal,
      verifyApprover: () => Promise.reject(new Error('not used here')),
    });
  });
  afterAll(async () => {
    await engine.close();
    await requests.close();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function succeeded(amountCents: number): Promise<string> {
    const reservationId = 'HTL-OVER-1';
    const method = await engine.tokenize({ card: CARD, reservationId, operatorId: 'ana' });
    let payment = await engine.pay({
      methodId: method.id,
      amountCents,
      currency: 'usd',
      reservationId,
      operatorId: 'ana',
    });
    for (let i = 0; i < 100 && payment.status !== 'succeeded'; i++) {
      await sleep(20);
      payment = await engine.getPayment(payment.id);
    }
    expect(payment.status).toBe('succeeded');
    return payment.id;
  }
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => ({ refused: false }),
      (error: unknown) => ({ refused: true, error }),
    );

  it('a refund above what is left: refused (refund_exceeds_remaining, amount), and no POST …/refunds is sent', async () => {
    const paymentId = await succeeded(3000);
    await desk.refund({ operationId: randomUUID(), paymentId, amountCents: 2000, reason: 'duplicate' }, SAM);
    expect(refundPosts()).toHaveLength(1);
    sent.splice(0);

    const over = await refusal(
      desk.refund({ operationId: randomUUID(), paymentId, amountCents: 1001, reason: 'duplicate' }, SAM),
    );
    expect(over).toMatchObject({ refused: true, error: { code: 'refund_exceeds_remaining', field: 'amountCents' } });
    expect((over as { error: unknown }).error).toBeInstanceOf(RefundError);
    // The engine itself refuses too, for a caller that goes around the desk.
    const direct = await refusal(
      engine.refund({
        operationId: randomUUID(),
        paymentId,
        amountCents: 1001,
        reason: 'duplicate',
        operatorId: 'sam',
      }),
    );
    expect(direct).toMatchObject({
      refused: true,
      error: { code: 'refund_exceeds_remaining', details: { param: 'amountCents' } },
    });
    // An agent's request for too much is refused when asked, not when approved.
    const asked = await refusal(
      desk.request({ requestId: randomUUID(), paymentId, amountCents: 1001, reason: 'duplicate' }, ANA),
    );
    expect(asked).toMatchObject({ refused: true, error: { code: 'refund_exceeds_remaining', field: 'amountCents' } });
    expect(await desk.requestsFor(paymentId)).toEqual([]);
    expect(refundPosts()).toEqual([]);
    // Reads were made (the desk checks against the service's latest word); no refund was sent.
    expect(sent.filter((s) => s.startsWith('GET '))).not.toHaveLength(0);

    // Exactly what is left is allowed; then nothing is, with or without an amount.
    await desk.refund({ operationId: randomUUID(), paymentId, amountCents: 1000, reason: 'duplicate' }, SAM);
    expect(refundPosts()).toHaveLength(1);
    sent.splice(0);
    for (const amountCents of [1, undefined]) {
      const nothingLeft = await refusal(
        desk.refund(
          {
            operationId: randomUUID(),
            paymentId,
            ...(amountCents === undefined ? {} : { amountCents }),
            reason: 'duplicate',
          },
          SAM,
        ),
      );
      expect(nothingLeft).toMatchObject({
        refused: true,
        error: { code: 'refund_exceeds_remaining', field: 'amountCents' },
      });
      const engineAlone = await refusal(
        engine.refund({
          operationId: randomUUID(),
          paymentId,
          ...(amountCents === undefined ? {} : { amountCents }),
          reason: 'duplicate',
          operatorId: 'sam',
        }),
      );
      expect(engineAlone).toMatchObject({ refused: true, error: { code: 'refund_exceeds_remaining' } });
    }
    expect(refundPosts()).toEqual([]);
    expect((await engine.getPayment(paymentId)).refunds.map((r) => r.amountCents)).toEqual([2000, 1000]);
  });
});

describe('a new refund while an earlier one of the same payment is unanswered', () => {
  it('sends the earlier one again with its own key, refuses the new one, and the service holds one refund', async () => {
    const sim = await launchSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'refund-earlier-'));
    const journal = await openJournal(dir);
    const keys: string[] = [];
    let loseAnswers = false;
    // The refund reaches the service, but its answer is lost on the way back (every attempt): the outcome is unknown.
    const lossy: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const isRefund = (init?.method ?? 'GET').toUpperCase() === 'POST' && url.pathname.endsWith('/refunds');
      if (isRefund) keys.push(new Headers(init?.headers).get('idempotency-key') ?? '');
      const response = await fetch(input, init);
      if (isRefund && loseAnswers) throw new TypeError('fetch failed');
      return response;
    };
    const engine = new PaymentEngine({
      config: simulatorConfig(sim),
      secrets: { read: () => Promise.resolve(sim.clientSecret) },
      journal,
      fetch: lossy,
      backoffBaseMs: 1,
    });
    try {
      const reservationId = 'HTL-EARLIER-1';
      const method = await engine.tokenize({ card: CARD, reservationId, operatorId: 'ana' });
      let payment = await engine.pay({
        methodId: method.id,
        amountCents: 4000,
        currency: 'usd',
        reservationId,
        operatorId: 'ana',
      });
      for (let i = 0; i < 100 && payment.status !== 'succeeded'; i++) {
        await sleep(20);
        payment = await engine.getPayment(payment.id);
      }
      loseAnswers = true;
      const first = randomUUID();
      await expect(
        engine.refund({
          operationId: first,
          paymentId: payment.id,
          amountCents: 1500,
          reason: 'duplicate',
          operatorId: 'sam',
        }),
      ).rejects.toMatchObject({ code: 'network_error' });
      expect(await engine.operationState(first)).toBe('pending');
      loseAnswers = false;

      // The screen was closed and the supervisor starts over: a new operation id.
      await expect(
        engine.refund({
          operationId: randomUUID(),
          paymentId: payment.id,
          amountCents: 1500,
          reason: 'duplicate',
          operatorId: 'sam',
        }),
      ).rejects.toMatchObject({
        code: 'earlier_refund_completed',
      });
      expect(await engine.operationState(first)).toBe('done');
      expect(new Set(keys).size).toBe(1);
      const after = await engine.getPayment(payment.id);
      expect(after.refunds.map((r) => r.amountCents)).toEqual([1500]);
      expect(after.refundableCents).toBe(2500);
    } finally {
      await engine.close();
      await journal.close();
      rmSync(dir, { recursive: true, force: true });
      await sim.close();
    }
  });
});

describe('the daily cap counts what the desk itself sent today, by its own clock', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await Desk.open();
  });
  afterAll(async () => {
    await desk.close();
  });

  const fault = (operation: string, kind: SimulatorFault, count: number) =>
    simulatorControl(desk.stack.training?.controlUrl ?? '').fault(operation, kind, count);

  it('a refund of all that is left whose answer was lost still counts once the payment is opened again (it lists that refund without knowing whose it is)', async () => {
    const first = await desk.succeededPayment('ana', 40000);
    const second = await desk.succeededPayment('ana', 30000);
    await desk.signInAs('sam');
    // The refund is made, and its answer lost on every try: the operation stays pending.
    await fault('POST /payments/{id}/refunds', 'drop_after_commit', 3);
    expect(await desk.refused('refunds:create', refundInput(first.id))).toMatchObject({ code: 'network_error' });
    // The supervisor opens the payment again: the service lists the 400.00 refund, and the journal keeps it.
    expect((await desk.get(first.id)).refunds).toMatchObject([{ amountCents: 40000 }]);
    // 400.00 of Sam's 500.00 is spent today: 300.00 more is refused (before: counted as 0, and made).
    expect(await desk.refused('refunds:create', refundInput(second.id, 30000))).toMatchObject({
      code: 'refund_daily_limit',
      params: { refundedCents: 40_000, leftCents: 10_000 },
    });
    expect((await desk.get(second.id)).refunds).toEqual([]);
  });

  it("a refund stays today's when the service's clock says otherwise (the simulator's clock moved a day ahead)", async () => {
    const first = await desk.succeededPayment('ana', 45000);
    const second = await desk.succeededPayment('ana', 30000);
    await desk.signInAs('sue');
    // The service stamps the refund a day ahead of the desk; it is still the desk's today that it was made in.
    await desk.advance(24 * 3600);
    expect(await desk.ok<PaymentView>('refunds:create', refundInput(first.id, 45000))).toMatchObject({
      refundableCents: 0,
    });
    expect(await desk.refused('refunds:create', refundInput(second.id, 30000))).toMatchObject({
      code: 'refund_daily_limit',
      params: { refundedCents: 45_000 },
    });
  });
});
