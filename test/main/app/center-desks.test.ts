// A call center's desks on one center, through the real door: three desks, each a full main stack with its own data folder, all on one real
// PostgreSQL center (set up by docs/center/setup.sql, migrated by its owner as IT would, the desks connected as the app
// role) and one simulator running in this process. Nothing is mocked: what each desk sends to the service is observed
// by wrapping the one fetch main is given (the request still goes out unchanged).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CENTER_STORES, deskIdentity } from '../../../main/center';
import { useSimulator } from '../../support/simulator';
import { centerStorage } from '../../../main/storage';
import type { Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { startPostgres, type PostgresServer } from '../../support/postgres';
import { runToCrashPoint, sigkill } from '../support/crash-parent';
import { AGENT, SUPERVISOR, YEAR, attachedTo, openDesk, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';
const SECOND_SUPERVISOR = { id: 'sue', password: 'supervisor pass 5678' };

interface Sent {
  desk: string;
  method: string;
  path: string;
  key: string | undefined;
}

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let center: TestCenter;
const desks: Desk[] = [];
const sent: Sent[] = [];

/** Main's one fetch for a desk, recording what it sends to the payment service (method, path, Idempotency-Key). */
const observed =
  (desk: string): typeof fetch =>
  (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.pathname.includes('/payments'))
      sent.push({
        desk,
        method: request.method,
        path: url.pathname,
        key: request.headers.get('idempotency-key') ?? undefined,
      });
    return fetch(input, init);
  };

async function openCenterDesk(name: string, seed: boolean): Promise<Desk> {
  const desk = await openDesk({ connect: attachedTo(sim), fetch: observed(name) }, { center, seed });
  desks.push(desk);
  return desk;
}

beforeEach(async () => {
  sent.length = 0;
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
}, 120_000);
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
  await center.drop();
});

const refundInput = (paymentId: string, amountCents?: number) => ({
  operationId: randomUUID(),
  paymentId,
  ...(amountCents === undefined ? {} : { amountCents }),
  reason: 'requested_by_customer',
});

async function payAt(desk: Desk, amountCents = 20_000): Promise<Output<'payments:pay'>> {
  const methodId = await desk.card(RESERVATION);
  const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents,
    currency: 'usd',
    reservationId: RESERVATION,
  });
  await desk.until(payment.id, (status) => status === 'succeeded');
  return payment;
}

describe('three desks on one center', () => {
  it('each desk signs in with its own login, bound to its id at its first start', async () => {
    const opened = [await openCenterDesk('A', true), await openCenterDesk('B', false)];
    const ids = await Promise.all(opened.map(async (desk) => (await deskIdentity(desk.dir)).deskId));
    const bound = await center.query<{ desk_id: string; login_role: string }>(
      'SELECT desk_id, login_role FROM center.desk_logins ORDER BY desk_id',
    );
    expect(bound.map((row) => row.desk_id).sort()).toEqual([...ids].sort());
    expect(new Set(bound.map((row) => row.login_role)).size).toBe(2);
    const sessions = await center.query<{ usename: string }>(
      "SELECT DISTINCT usename FROM pg_stat_activity WHERE application_name LIKE 'card-payments-desk%'",
    );
    expect(sessions.map((row) => row.usename)).not.toContain(center.roles.app.name);
  });

  it('a payment taken at desk A is on the reservation at desk B, refunded there by a supervisor, and A sees the refund', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    const payment = await payAt(a);

    await b.signIn(SUPERVISOR);
    const seen = await b.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId: RESERVATION });
    expect(seen.payments.map((p) => [p.id, p.status, p.amountCents])).toEqual([[payment.id, 'succeeded', 20_000]]);
    await b.ok('refunds:create', refundInput(payment.id, 5_000));

    // The reservation at desk A (its journal, no call to the service) shows the refund made at B.
    const overviewAtA = await a.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overviewAtA.payments[0]?.refunds.map((r) => [r.amountCents, r.status])).toEqual([[5_000, 'succeeded']]);
    const atA = await a.ok<Output<'payments:get'>>('payments:get', { paymentId: payment.id });
    expect(atA.refunds.map((r) => r.amountCents)).toEqual([5_000]);
    expect(atA.refundableCents).toBe(15_000);
    // One refund request went to the service, from B.
    expect(sent.filter((s) => s.method === 'POST' && s.path.endsWith('/refunds')).map((s) => s.desk)).toEqual(['B']);
  });

  it('a request made at A, approved at B and at C at the same moment: one refund, and the second is told who approved it', async () => {
    const a = await openCenterDesk('A', true);
    await a.signIn({ id: 'ada', password: 'a long password 42' });
    await a.ok('operators:create', {
      id: SECOND_SUPERVISOR.id,
      displayName: 'Sue',
      role: 'supervisor',
      password: SECOND_SUPERVISOR.password,
    });
    const b = await openCenterDesk('B', false);
    const c = await openCenterDesk('C', false);
    await a.signIn(AGENT);
    const payment = await payAt(a);
    const request = await a.ok<{ id: string }>('refunds:request', {
      requestId: randomUUID(),
      paymentId: payment.id,
      amountCents: 4_000,
      reason: 'cancellation',
      note: 'Cancelled by phone.',
    });

    await b.signIn(SUPERVISOR);
    await c.signIn(SECOND_SUPERVISOR);
    // The center's queue, at both desks.
    for (const desk of [b, c]) {
      const queue = await desk.ok<{ requests: { id: string }[] }>('refunds:queue', {});
      expect(queue.requests.map((r) => r.id)).toContain(request.id);
    }
    const [atB, atC] = await Promise.all([
      b.call('refunds:approve', { requestId: request.id }),
      c.call('refunds:approve', { requestId: request.id }),
    ]);
    const outcomes = [atB, atC];
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    const refused = outcomes.find((o) => !o.ok);
    expect(refused?.ok).toBe(false);
    if (refused !== undefined && !refused.ok) {
      expect(refused.error.code).toBe('request_closed');
      const winner = atB.ok ? SUPERVISOR.id : SECOND_SUPERVISOR.id;
      expect(refused.error.params).toMatchObject({ approvedBy: winner });
    }
    const after = await a.ok<Output<'payments:get'>>('payments:get', { paymentId: payment.id });
    expect(after.refunds.map((r) => r.amountCents)).toEqual([4_000]);
    expect(sent.filter((s) => s.method === 'POST' && s.path.endsWith('/refunds'))).toHaveLength(1);
  });

  it("the end-of-day report is the center's: payments and refunds of every desk, by agent and by desk", async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    const first = await payAt(a, 10_000);
    await b.signIn(SUPERVISOR);
    const methodId = await b.card(RESERVATION);
    const second = await b.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 7_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await b.until(second.id, (status) => status === 'succeeded');
    await b.ok('refunds:create', refundInput(first.id, 2_500));

    const today = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(),
    );
    const report = await b.ok<Output<'reports:endOfDay'>>('reports:endOfDay', { date: today });
    expect(report.totals).toEqual([
      expect.objectContaining({
        currency: 'usd',
        payments: 2,
        paymentsTotalCents: 17_000,
        refunds: 1,
        refundsTotalCents: 2_500,
        netCents: 14_500,
      }),
    ]);
    expect(report.agents.map((r) => [r.operatorId, r.payments, r.paymentsTotalCents]).sort()).toEqual([
      ['ana', 1, 10_000],
      ['sam', 1, 7_000],
    ]);
    const [infoA, infoB] = [
      await a.ok<{ deskId: string }>('app:info', {}),
      await b.ok<{ deskId: string }>('app:info', {}),
    ];
    expect(
      report.desks.map((d) => [d.deskId, d.payments, d.paymentsTotalCents, d.refunds, d.refundsTotalCents]).sort(),
    ).toEqual(
      [
        [infoA.deskId, 1, 10_000, 0, 0],
        [infoB.deskId, 1, 7_000, 1, 2_500],
      ].sort(),
    );
  });

  it('an operator locked out at desk A is refused at desk B with the right password', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    let locked = false;
    for (let i = 0; i < 10 && !locked; i += 1) {
      const error = await a.refused('session:signIn', { id: AGENT.id, password: 'not the password 1' });
      locked = error.code === 'locked';
    }
    expect(locked).toBe(true);
    expect(await b.refused('session:signIn', AGENT)).toMatchObject({ code: 'locked' });
  });

  it('one session per operator: signed in at A, refused at B, told where', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    const error = await b.refused('session:signIn', AGENT);
    expect(error.code).toBe('session_elsewhere');
    const deskA = await a.ok<{ deskId: string }>('app:info', {});
    expect(error.params).toMatchObject({ deskId: deskA.deskId });
    // The agent chooses to end it and sign in here; desk A is told at its next call.
    expect(await b.ok<{ id: string }>('session:signIn', { ...AGENT, endSessionElsewhere: true })).toMatchObject({
      id: AGENT.id,
    });
    expect(await a.refused('reservations:overview', { reservationId: RESERVATION })).toMatchObject({
      code: 'session_ended_elsewhere',
    });
  });

  it('each desk has its own desk id, and both say the records are in the center', async () => {
    const a = await openCenterDesk('A', true);
    const b = await openCenterDesk('B', false);
    await a.signIn(AGENT);
    await b.signIn(SUPERVISOR);
    const [infoA, infoB] = await Promise.all([
      a.ok<{ deskId: string; storage: string }>('app:info', {}),
      b.ok<{ deskId: string; storage: string }>('app:info', {}),
    ]);
    expect(infoA.deskId).not.toBe(infoB.deskId);
    expect([infoA.storage, infoB.storage]).toEqual(['center', 'center']);
  });
});

describe('faults on a center of its own (a PostgreSQL server this file stops and restarts)', () => {
  let own: PostgresServer;
  let ownCenter: TestCenter;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    own = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await own?.stop();
  });
  beforeEach(async () => {
    ownCenter = await createCenter(own, { stores: CENTER_STORES });
  }, 120_000);
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await ownCenter.drop().catch(() => undefined);
  });

  const onOwn = async (name: string, seed: boolean, dataDir?: string): Promise<Desk> => {
    const desk = await openDesk(
      { connect: attachedTo(sim), fetch: observed(name) },
      { storage: () => centerStorage(ownCenter.app), seed, ...(dataDir === undefined ? {} : { dataDir }) },
    );
    desks.push(desk);
    return desk;
  };
  const paymentKeys = () => [
    ...new Set(sent.filter((s) => s.method === 'POST' && s.path.endsWith('/payments')).map((s) => s.key)),
  ];

  it('desk A SIGKILLed between its journal commit and the answer: restarted, it sends the same key again, and there is exactly one payment', async () => {
    const seeded = await onOwn('seed', true);
    await seeded.close();
    desks.splice(desks.indexOf(seeded), 1);
    const dataDir = mkdtempSync(join(tmpdir(), 'center-crash-'));
    const job = {
      point: 'after-send',
      dataDir,
      center: {
        host: ownCenter.app.host,
        port: ownCenter.app.port,
        database: ownCenter.app.database,
        user: ownCenter.app.user,
        password: ownCenter.roles.app.password,
      },
      sim: {
        authUrl: sim.authUrl,
        cdeUrl: sim.cdeUrl,
        baseUrl: sim.baseUrl,
        controlUrl: sim.controlUrl,
        clientId: sim.clientId,
        clientSecret: sim.clientSecret,
      },
      operator: AGENT,
      reservationId: RESERVATION,
      operationId: randomUUID(),
      amountCents: 12_300,
      expYear: YEAR,
    };
    const { child } = await runToCrashPoint(
      fileURLToPath(new URL('./center-crash-child.ts', import.meta.url)),
      job,
      children,
    );
    await sigkill(child);
    // The killed desk's operation row is in the center, committed before its request went out, still unanswered.
    const written = await ownCenter.query<{ key: string; state: string }>(
      "SELECT key, state FROM journal.operations WHERE kind = 'create_payment' AND operation_id = $1",
      [job.operationId],
    );
    expect(written).toEqual([{ key: expect.stringMatching(/^[0-9a-f-]{36}$/) as string, state: 'pending' }]);

    // The same desk (its data folder, its desk id) starts again on the center and recovers its own unanswered payment.
    const again = await onOwn('A again', false, dataDir);
    await again.stack.recover();
    await again.signIn(AGENT);
    const overview = await again.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.payments.map((p) => p.amountCents)).toEqual([12_300]);
    await again.until(overview.payments[0]?.id ?? '', (status) => status === 'succeeded');
    // The recovery's request carried the key the killed desk had written before sending (one key, one payment).
    expect(paymentKeys()).toEqual([written[0]?.key]);
    const other = await onOwn('B', false);
    await other.signIn(SUPERVISOR);
    expect(
      (await other.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId: RESERVATION }))
        .payments,
    ).toHaveLength(1);
  });

  it('PostgreSQL restarted in the middle of a payment: exactly one payment, and nothing lost', async () => {
    const a = await onOwn('A', true);
    await a.signIn(AGENT);
    const methodId = await a.card(RESERVATION);
    // The service holds its answer while the center restarts under the desk.
    await sim.fault('POST /payments', 'delay', 1, 1500);
    const operationId = randomUUID();
    const input = { operationId, methodId, amountCents: 15_000, currency: 'usd', reservationId: RESERVATION };
    const paying = a.call('payments:pay', input);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await own.restart();
    const first = await paying;
    // Whatever the first answer (the payment, or "the center could not be reached"), the agent tries the same attempt again.
    const retried = first.ok ? first : await a.call('payments:pay', input);
    expect(retried.ok).toBe(true);
    const overview = await a.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: RESERVATION,
    });
    expect(overview.payments).toHaveLength(1);
    expect(paymentKeys()).toHaveLength(1);
  });

  it('the answer arrives while the center is down: the desk keeps it and writes it when the center is back, with no retry by the agent', async () => {
    const a = await onOwn('A', true);
    await a.signIn(AGENT);
    const methodId = await a.card(RESERVATION);
    await sim.fault('POST /payments', 'delay', 1, 1500);
    const paying = a.call('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 12_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await own.stopServer();
    try {
      // The service answered; the center could not take it: the agent is told so, in words.
      expect(await paying).toMatchObject({ ok: false, error: { code: 'center_unavailable' } });
      expect(a.stack.paymentInProgress()).toBe(true);
    } finally {
      await own.startServer();
    }
    let payments: Output<'reservations:overview'>['payments'] = [];
    for (let i = 0; i < 100 && payments.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const overview = await a.call('reservations:overview', { reservationId: RESERVATION });
      if (overview.ok) payments = (overview.value as Output<'reservations:overview'>).payments;
    }
    expect(payments).toHaveLength(1);
    expect(paymentKeys()).toHaveLength(1);
  });

  it('the center down: a clear refusal and nothing sent to the service; work resumes when it is back', async () => {
    const a = await onOwn('A', true);
    await a.signIn(AGENT);
    const methodId = await a.card(RESERVATION);
    await own.stopServer();
    try {
      const refused = await a.refused('payments:pay', {
        operationId: randomUUID(),
        methodId,
        amountCents: 10_000,
        currency: 'usd',
        reservationId: RESERVATION,
      });
      expect(refused.code).toBe('center_unavailable');
      expect(await a.refused('reservations:overview', { reservationId: RESERVATION })).toMatchObject({
        code: 'center_unavailable',
      });
      expect(sent.filter((s) => s.method === 'POST' && s.path.endsWith('/payments'))).toEqual([]);
    } finally {
      await own.startServer();
    }
    const payment = await a.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 10_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });
    await a.until(payment.id, (status) => status === 'succeeded');
    expect(paymentKeys()).toHaveLength(1);
  });
});
