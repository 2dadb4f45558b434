// The audit trail while the center is down, through the real door: a desk on a PostgreSQL server of this file's own, the
// simulator in this process. What the desk records while the server is stopped (refusals, a payment whose answer the
// desk kept) is kept on the desk, in order, and written when the center is back — also when the desk is restarted
// meanwhile — each desk's chain unbroken, as a person granted the auditor role verifies it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_SPOOL_FILE, verifyCenterAudit } from '../../../main/audit';
import { CENTER_STORES } from '../../../main/center';
import { useSimulator } from '../../support/simulator';
import { centerStorage } from '../../../main/storage';
import type { Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { startPostgres, type PostgresServer } from '../../support/postgres';
import { pansInFolder } from '../support/card-scan';
import { AGENT, attachedTo, openDesk, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';

interface CenterRow {
  id: string;
  seq: string;
  actor: string;
  action: string;
  outcome: string;
  resource: string | null;
  details: string;
}

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let own: PostgresServer;
let center: TestCenter;
const desks: Desk[] = [];

beforeAll(async () => {
  own = await startPostgres();
}, 120_000);
afterAll(async () => {
  await own?.stop();
});
beforeEach(async () => {
  center = await createCenter(own, { stores: CENTER_STORES });
}, 120_000);
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
  await center.drop().catch(() => undefined);
});

async function onCenter(seed: boolean, dataDir?: string): Promise<Desk> {
  const desk = await openDesk(
    { connect: attachedTo(sim) },
    { storage: () => centerStorage(center.app), seed, ...(dataDir === undefined ? {} : { dataDir }) },
  );
  desks.push(desk);
  return desk;
}

/** A desk's rows in the center's table, in its chain's order (read as the superuser). */
const rowsOf = (deskId: string, afterSeq = 0): Promise<CenterRow[]> =>
  center.query<CenterRow>(
    'SELECT id, seq, actor, action, outcome, resource, details FROM audit.audit WHERE desk_id = $1 AND seq > $2 ORDER BY seq',
    [deskId, afterSeq],
  );

const lastSeq = async (deskId: string): Promise<number> =>
  Number(
    (await center.query<{ n: string | null }>('SELECT max(seq) AS n FROM audit.audit WHERE desk_id = $1', [deskId]))[0]
      ?.n ?? 0,
  );

/** What each row says, in short: who, what, how, the refusal's code, and the channel of a call refused at the door. */
const said = (rows: readonly CenterRow[]): string[][] =>
  rows.map((row) => {
    const { code } = JSON.parse(row.details) as { code?: string };
    return [
      row.actor,
      row.action,
      row.outcome,
      code ?? '',
      ...(row.action === 'call.refused' ? [row.resource ?? ''] : []),
    ];
  });

/** The center's own check, signed in as a person granted the auditor role (npm run audit:verify -- --center). */
async function auditorVerifies(): Promise<Awaited<ReturnType<typeof verifyCenterAudit>>> {
  const person = { name: `${center.database.name}_alice`, password: 'alice audits 42' };
  await center.query(
    `CREATE ROLE ${pg.escapeIdentifier(person.name)} LOGIN PASSWORD ${pg.escapeLiteral(person.password)}`,
  );
  await center.query(`GRANT ${pg.escapeIdentifier(center.roles.auditor.name)} TO ${pg.escapeIdentifier(person.name)}`);
  try {
    return await verifyCenterAudit({
      ...center.app,
      user: person.name,
      password: () => Promise.resolve(person.password),
    });
  } finally {
    await center.query(`DROP ROLE ${pg.escapeIdentifier(person.name)}`);
  }
}

/**
 * Calls through the door while the center is down, each audited as refused at the door: who is signed in cannot be known
 * then (the center keeps the sessions). Each a channel of its own: the same refusal within a minute is written once.
 */
async function refusalsAt(desk: Desk): Promise<void> {
  const pay = await desk.refused('payments:pay', {
    operationId: randomUUID(),
    methodId: 'pm_x',
    amountCents: -5,
    currency: 'usd',
    reservationId: RESERVATION,
    acknowledgedPaymentIds: [],
  });
  const accounts = await desk.refused('operators:list', {});
  const signIn = await desk.refused('session:signIn', { id: 'Sam', password: 'not the password' });
  for (const error of [pay, accounts, signIn]) expect(error.code).toBe('center_unavailable');
}

/** The rows refusalsAt writes, as `said` puts them. */
const REFUSED = ['payments:pay', 'operators:list', 'session:signIn'].map((channel) => [
  'anonymous',
  'call.refused',
  'refused',
  'center_unavailable',
  channel,
]);

describe('the audit trail while the center is down', () => {
  it("keeps every row on the desk while PostgreSQL is stopped and writes them in order when it is back: the payment has its operator's row, the chain verifies", async () => {
    const a = await onCenter(true);
    const deskId = a.stack.audit.deskId;
    await a.signIn(AGENT);
    const methodId = await a.card(RESERVATION);
    await a.stack.audit.flush();
    const before = await lastSeq(deskId);
    expect(before).toBeGreaterThan(0);

    // The service holds its answer while the center stops under the desk: the desk keeps the answer (main/payments engine).
    await sim.fault('POST /payments', 'delay', 1, 1500);
    const operationId = randomUUID();
    const paying = a.call('payments:pay', {
      operationId,
      methodId,
      amountCents: 12_000,
      currency: 'usd',
      reservationId: RESERVATION,
      acknowledgedPaymentIds: [],
    });
    // Stopped once the payment is begun in the center's journal (its request then goes out, held by the service).
    for (let i = 0; i < 100; i++) {
      if ((await center.query('SELECT 1 FROM journal.operations WHERE operation_id = $1', [operationId])).length > 0)
        break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    await own.stopServer();
    try {
      // The agent's refusal is what it was: the center is down, said in words.
      expect(await paying).toMatchObject({ ok: false, error: { code: 'center_unavailable' } });
      await refusalsAt(a);
      await a.stack.audit.flush();
    } finally {
      await own.startServer();
    }

    // The kept answer is written: the payment, followed to its end.
    let payments: Output<'reservations:overview'>['payments'] = [];
    for (let i = 0; i < 150 && payments.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const overview = await a.call('reservations:overview', { reservationId: RESERVATION });
      if (overview.ok) payments = (overview.value as Output<'reservations:overview'>).payments;
    }
    expect(payments).toHaveLength(1);
    const paymentId = payments[0]?.id ?? '';
    await a.until(paymentId, (status) => status === 'succeeded');
    // A read of the trail at the desk shows what it kept (and writes it first when it has not yet).
    expect(
      (await a.stack.audit.query({ action: 'payment.result', resource: paymentId })).map((row) => row.actor),
    ).toEqual(['system']);

    const rows = await rowsOf(deskId, before);
    expect(said(rows)).toEqual([
      ['ana', 'payment.create', 'refused', 'center_unavailable'],
      ...REFUSED,
      ['system', 'payment.result', 'ok', ''],
    ]);
    // In the chain's order, with nothing missing, and in the order they were written to the whole trail.
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, i) => before + i + 1));
    expect(rows.map((row) => Number(row.id))).toEqual(rows.map((row) => Number(row.id)).sort((x, y) => x - y));
    // Who took the payment: the operator's own row names its operation, which the journal answers with the payment.
    const [taken] = await center.query<{ result_id: string }>(
      "SELECT result_id FROM journal.operations WHERE kind = 'create_payment' AND operation_id = $1",
      [operationId],
    );
    expect(taken?.result_id).toBe(paymentId);
    expect(
      rows
        .filter(
          (row) =>
            row.action === 'payment.create' &&
            (JSON.parse(row.details) as { operationId?: string }).operationId === operationId,
        )
        .map((row) => row.actor),
    ).toEqual(['ana']);
    expect(rows.find((row) => row.action === 'payment.result')?.resource).toBe(paymentId);

    expect(await auditorVerifies()).toMatchObject({ ok: true });
    expect(await a.stack.audit.verify()).toMatchObject({ ok: true });
    // What the desk kept held no card data.
    expect(pansInFolder(a.dir, ['4242424242424242'])).toEqual([]);
  }, 90_000);

  it('rows kept on a desk that is restarted before the center is back are written at its next start, before its new rows, the chain intact', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'desk-spool-'));
    const first = await onCenter(true, dataDir);
    const deskId = first.stack.audit.deskId;
    await first.signIn(AGENT);
    await first.stack.audit.flush();
    const before = await lastSeq(deskId);

    await own.stopServer();
    try {
      await refusalsAt(first);
      // The desk is closed while the center is down; what it kept stays on the desk.
      await first.stack.close();
      desks.splice(desks.indexOf(first), 1);
    } finally {
      await own.startServer();
    }
    // Nothing reached the center: the rows are on the desk, in the order they were recorded.
    expect(await lastSeq(deskId)).toBe(before);
    const spool = new Database(join(dataDir, AUDIT_SPOOL_FILE), { readonly: true });
    try {
      expect(
        (spool.prepare('SELECT resource FROM spool ORDER BY id').all() as { resource: string }[]).map(
          (row) => row.resource,
        ),
      ).toEqual(REFUSED.map((row) => row[4]));
    } finally {
      spool.close();
    }

    const again = await onCenter(false, dataDir);
    expect(again.stack.audit.deskId).toBe(deskId);
    await again.signIn(AGENT);
    await again.stack.audit.flush();
    const rows = await rowsOf(deskId, before);
    // The kit signs out before it signs in: nobody was signed in at the new start.
    expect(said(rows)).toEqual([
      ...REFUSED,
      ['anonymous', 'session.signOut', 'refused', 'signed_out'],
      ['ana', 'session.signIn', 'ok', ''],
    ]);
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, i) => before + i + 1));
    expect(await auditorVerifies()).toMatchObject({ ok: true });
  }, 90_000);
});
