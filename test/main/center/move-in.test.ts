// Moving a desk in, through the real door: a desk works on its own files (a full main stack over a
// data folder, the simulator in this process), stops, and IT moves its records into a real PostgreSQL center (set up by
// docs/center/setup.sql, migrated by its owner, the move signed in as the app role). The same desk then starts on the
// center and recovers its unanswered payment with the key it wrote on its own files. Nothing is mocked: what the desk
// sends to the service is observed by wrapping the one fetch main is given (the request still goes out unchanged).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GENESIS, verifyCenterAudit } from '../../../main/audit';
import {
  CENTER_STORES,
  deskIdentity,
  formatMoveIn,
  moveDeskIn,
  MoveInError,
  runMoveIn,
  type MoveInReport,
} from '../../../main/center';
import { MessagingAudit } from '../../../main/messaging';
import { BuiltinReservationStore } from '../../../main/reservations';
import { useSimulator } from '../../support/simulator';
import { centerStorage, embeddedStorage } from '../../../main/storage';
import type { Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { writeLegacyAuditFile } from '../../support/legacy-audit';
import { testPostgres } from '../../support/pg';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from '../app/desk-kit';
import { csvOf, reservation } from '../reservations/helpers';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Demo guests of training (main/reservations/demo.ts): one paid and refunded, one whose payment stays unanswered.
const PAID = 'CUN-6B3D8F';
const UNANSWERED = 'MEX-2H8R5T';
const BETO = { id: 'beto', password: 'agent password 5678' };

interface Sent {
  key: string | undefined;
  reservationId: string | undefined;
}

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let center: TestCenter;
const sent: Sent[] = [];
const folders: string[] = [];
const desks: Desk[] = [];

/** Main's one fetch, recording each POST /payments it sends (its Idempotency-Key and reservation). */
const observed: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/payments')) {
    const body = (await request.clone().json()) as { reservationId?: string };
    sent.push({ key: request.headers.get('idempotency-key') ?? undefined, reservationId: body.reservationId });
  }
  return fetch(input, init);
};

beforeEach(async () => {
  sent.length = 0;
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
}, 120_000);
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.stack.close().catch(() => undefined);
  await center.drop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'move-in-'));
  folders.push(dir);
  return dir;
}

/** A desk on its own files (the SQLite files of its data folder), seeded with ada, ana and sam, plus beto. */
async function ownFilesDesk(dir: string): Promise<Desk> {
  const desk = await openDesk({ connect: attachedTo(sim), fetch: observed }, { dataDir: dir });
  desks.push(desk);
  await desk.stack.directory.createOperator('ada', {
    id: BETO.id,
    displayName: 'Beto',
    role: 'agent',
    password: BETO.password,
  });
  return desk;
}

/** Rows of a table in one of the desk's files. */
function fileRows<T>(dir: string, file: string, query: string): T[] {
  const db = new Database(join(dir, file), { readonly: true });
  try {
    return db.prepare(query).all() as T[];
  } finally {
    db.close();
  }
}
const fileCount = (dir: string, file: string, table: string, where = ''): number =>
  fileRows<{ n: number }>(dir, file, `SELECT count(*) AS n FROM ${table} ${where}`)[0]?.n ?? -1;

async function centerCount(table: string, deskId?: string): Promise<number> {
  const rows = await center.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${table}${deskId === undefined ? '' : ' WHERE desk_id = $1'}`,
    deskId === undefined ? [] : [deskId],
  );
  return Number(rows[0]?.n ?? -1);
}

const tableOf = (report: MoveInReport, store: string, table: string) =>
  report.stores.find((s) => s.store === store)?.tables.find((t) => t.table === table);

/** `npm run audit:verify -- --center` as an auditor runs it (a person granted the auditor role). */
async function auditVerifyCli(managed: string): Promise<{ code: number; stdout: string }> {
  const { roles, database } = center;
  const person = { name: `${database.name}_alice`, password: 'alice audits 42' };
  await center.query(
    `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = ${pg.escapeLiteral(person.name)}) THEN CREATE ROLE ${pg.escapeIdentifier(person.name)} LOGIN PASSWORD ${pg.escapeLiteral(person.password)}; END IF; END $$`,
  );
  await center.query(`GRANT ${pg.escapeIdentifier(roles.auditor.name)} TO ${pg.escapeIdentifier(person.name)}`);
  try {
    expect(
      await verifyCenterAudit({ ...center.app, user: person.name, password: () => Promise.resolve(person.password) }),
    ).toMatchObject({ ok: true });
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'main/cli/audit-verify.ts', '--center', `--managed=${managed}`],
      {
        cwd: ROOT,
        env: { ...process.env, PGUSER: person.name, PGPASSWORD: person.password },
      },
    );
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  } finally {
    await center.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(person.name)}`);
  }
}

/** `npm run center:move-in -- <dir>` as IT runs it: the managed file's center setting, the app role's PGPASSWORD. */
async function moveInCli(dir: string, managed: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'main/cli/center.ts', '--move-in', dir, `--managed=${managed}`],
      {
        cwd: ROOT,
        env: { ...process.env, PGPASSWORD: center.roles.app.password },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function managedFile(dir: string): string {
  const file = join(dir, 'managed.json');
  writeFileSync(
    file,
    JSON.stringify({
      settings: {
        center: {
          host: center.server.host,
          port: center.server.port,
          database: center.database.name,
          user: center.roles.app.name,
          sslmode: 'disable',
        },
      },
    }),
  );
  return file;
}

/** The center setting IT's command is given: the app role, over plain TCP to the test server. */
const appSetting = () => ({
  host: center.server.host,
  port: center.server.port,
  database: center.database.name,
  user: center.roles.app.name,
  sslmode: 'disable' as const,
});

describe('moving a desk in', () => {
  it('moves every store once: all of it in the center, the audit chain verifies, a second run adds nothing, and the desk recovers its unanswered payment from the center with the same key', async () => {
    const dir = folder();
    writeLegacyAuditFile(dir, 2);
    const desk = await ownFilesDesk(dir);
    const { deskId } = await deskIdentity(dir);

    // A payment, refunded in part by a supervisor; a refund request waiting in the queue.
    await desk.signIn(AGENT);
    const methodId = await desk.card(PAID);
    const payment = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 20_000,
      currency: 'usd',
      reservationId: PAID,
    });
    await desk.until(payment.id, (status) => status === 'succeeded');
    const request = await desk.ok<{ id: string }>('refunds:request', {
      requestId: randomUUID(),
      paymentId: payment.id,
      amountCents: 4_000,
      reason: 'cancellation',
      note: 'Cancelled by phone.',
    });
    await desk.signIn(SUPERVISOR);
    await desk.ok('refunds:create', {
      operationId: randomUUID(),
      paymentId: payment.id,
      amountCents: 5_000,
      reason: 'requested_by_customer',
    });

    // A payment the service made but whose every answer was lost: unanswered when the desk stops.
    await desk.signIn(AGENT);
    const unansweredMethod = await desk.card(UNANSWERED);
    await sim.fault('POST /payments', 'drop_after_commit', 3);
    const lost = await desk.call('payments:pay', {
      operationId: randomUUID(),
      methodId: unansweredMethod,
      amountCents: 12_000,
      currency: 'mxn',
      reservationId: UNANSWERED,
    });
    expect(lost).toMatchObject({ ok: false, error: { code: 'network_error' } });
    await desk.stack.close();

    // A link sent by SMS (its delivery and two statuses), and two imported reservations, in the desk's own files.
    const storage = embeddedStorage(dir);
    const deliveries = await MessagingAudit.open(storage, { deskId });
    const messageId = randomUUID();
    await deliveries.started({
      messageId,
      paymentId: payment.id,
      operatorId: AGENT.id,
      channel: 'sms',
      provider: 'twilio',
      destinationMasked: '+52 ••• ••• 2233',
      language: 'es-MX',
      at: '2026-11-24T10:00:00.000Z',
    });
    await deliveries.reached(messageId, {
      status: 'sent',
      final: false,
      at: '2026-11-24T10:00:01.000Z',
      attempts: 1,
      providerMessageId: 'SM1',
    });
    await deliveries.reached(messageId, { status: 'delivered', final: true, at: '2026-11-24T10:00:05.000Z' });
    await storage.close();
    const imported = await BuiltinReservationStore.openFolder(dir, { deskId });
    expect(
      await imported.importCsv(
        csvOf([
          reservation({ confirmationNumber: 'IMP-000001' }),
          reservation({ confirmationNumber: 'IMP-000002', guestName: 'Luis Pérez' }),
        ]),
      ),
    ).toMatchObject({ ok: true, created: 2 });
    await imported.close();

    const pending = fileRows<{ key: string; operation_id: string }>(
      dir,
      'journal.db',
      "SELECT key, operation_id FROM operations WHERE state = 'pending'",
    );
    expect(pending).toHaveLength(1);
    const pendingKey = pending[0]?.key ?? '';
    expect(sent.filter((s) => s.reservationId === UNANSWERED).map((s) => s.key)).toEqual([
      pendingKey,
      pendingKey,
      pendingKey,
    ]);

    // The move, as IT runs it: the desk stopped, signed in as the app role.
    const centerStore = centerStorage(center.app);
    let report: MoveInReport;
    try {
      report = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' });
    } finally {
      await centerStore.close();
    }
    expect(report.ok, formatMoveIn(report)).toBe(true);
    expect(report.deskId).toBe(deskId);
    // Every store a desk keeps on its own files; the center's desk registry keeps nothing there and is not listed.
    const deskStores = CENTER_STORES.filter((s) => s.name !== 'desks').map((s) => s.name);
    expect(deskStores).toHaveLength(6);
    expect(report.stores.map((s) => [s.store, s.status])).toEqual(deskStores.map((name) => [name, 'moved']));
    // Each table: what the file holds was found, all of it moved, none there before; the center now has exactly it.
    const expected: [store: string, file: string, table: string, centerTable: string, where?: string][] = [
      ['journal', 'journal.db', 'operations', 'journal.operations'],
      ['journal', 'journal.db', 'attempts', 'journal.attempts'],
      ['journal', 'journal.db', 'methods', 'journal.methods'],
      ['journal', 'journal.db', 'payments', 'journal.payments'],
      ['journal', 'journal.db', 'refunds', 'journal.refunds'],
      ['operators', 'operators.db', 'operators', 'operators.operators'],
      ['refund_requests', 'refund-requests.db', 'requests', 'refund_requests.requests'],
      ['audit', 'audit.db', 'audit', 'audit.audit'],
      ['messaging', 'messaging.db', 'deliveries', 'messaging.deliveries'],
      ['messaging', 'messaging.db', 'delivery_events', 'messaging.delivery_events'],
      ['reservations', 'reservations.db', 'reservations', 'reservations.reservations', "WHERE origin = 'import'"],
    ];
    for (const [store, file, table, centerTable, where] of expected) {
      const inFile = fileCount(dir, file, table, where);
      expect(inFile, `${store}.${table}`).toBeGreaterThan(0);
      expect(tableOf(report, store, table), `${store}.${table}`).toEqual({
        table,
        found: inFile,
        moved: inFile,
        alreadyThere: 0,
      });
      expect(await centerCount(centerTable), `${store}.${table}`).toBe(inFile);
    }
    expect(tableOf(report, 'journal', 'operations')?.found).toBe(5); // 2 cards, 2 payments, 1 refund
    expect(tableOf(report, 'operators', 'operators')?.found).toBe(4);
    expect(tableOf(report, 'messaging', 'delivery_events')?.found).toBe(3);
    expect(tableOf(report, 'reservations', 'reservations')?.found).toBe(2);
    // Every row names this desk (the audit rows of before desk ids included); the unanswered payment is still pending.
    for (const table of [
      'journal.operations',
      'journal.attempts',
      'journal.payments',
      'journal.refunds',
      'audit.audit',
      'messaging.deliveries',
      'reservations.reservations',
    ]) {
      expect(await centerCount(table, deskId), table).toBe(await centerCount(table));
    }
    expect(await center.query("SELECT key, state FROM journal.operations WHERE state = 'pending'")).toEqual([
      { key: pendingKey, state: 'pending' },
    ]);
    expect(await center.query('SELECT id, status, desk_id FROM refund_requests.requests')).toEqual([
      { id: request.id, status: 'pending', desk_id: deskId },
    ]);
    // The chain keeps its numbers and hashes, in the order written; the auditor's check passes.
    const chainInFile = fileRows<{ seq: number; hash: string }>(
      dir,
      'audit.db',
      'SELECT seq, hash FROM audit ORDER BY id',
    );
    expect(chainInFile.length).toBeGreaterThan(2);
    expect(
      (await center.query<{ seq: string; hash: string }>('SELECT seq, hash FROM audit.audit ORDER BY id')).map((r) => ({
        seq: Number(r.seq),
        hash: r.hash,
      })),
    ).toEqual(chainInFile);
    const managed = managedFile(dir);
    expect(await auditVerifyCli(managed)).toEqual({
      code: 0,
      stdout: `audit-verify ok rows=${chainInFile.length} desks=1\n`,
    });

    // Again, from a shell: nothing moves twice, every row is reported as already there, exit 0.
    const again = await moveInCli(dir, managed);
    expect(again.stderr).toBe('');
    expect(again.code, again.stdout).toBe(0);
    for (const label of [
      'payment journal',
      'operator directory',
      'refund requests',
      'audit trail',
      'messaging deliveries',
      'reservations',
    ]) {
      expect(again.stdout).toMatch(new RegExp(`ok {7}${label} +(\\d+) found, 0 moved, \\1 already there\\n`));
    }
    expect(again.stdout).toMatch(/Done: 0 rows moved, \d+ already there/);
    for (const [store, , , centerTable] of expected) {
      expect(await centerCount(centerTable), `${store} after the second run`).toBe(
        tableOf(report, store, centerTable.split('.')[1] ?? '')?.found,
      );
    }

    // The desk switched to the center: it recovers its unanswered payment with the key it wrote on its own files.
    const onCenter = await openDesk(
      { connect: attachedTo(sim), fetch: observed },
      { storage: () => centerStorage(center.app), seed: false, dataDir: dir },
    );
    desks.push(onCenter);
    const recovery = await onCenter.stack.recover();
    expect(recovery).toBeDefined();
    await onCenter.signIn(AGENT);
    const overview = await onCenter.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: UNANSWERED,
    });
    expect(overview.payments.map((p) => p.amountCents)).toEqual([12_000]);
    await onCenter.until(overview.payments[0]?.id ?? '', (status) => status === 'succeeded');
    // One key for that payment from first try to recovery, so one payment at the service.
    const keys = sent.filter((s) => s.reservationId === UNANSWERED).map((s) => s.key);
    expect(keys.length).toBeGreaterThan(3);
    expect(new Set(keys)).toEqual(new Set([pendingKey]));
    expect(await center.query('SELECT state FROM journal.operations WHERE key = $1', [pendingKey])).toEqual([
      { state: 'done' },
    ]);
    // The desk's later audit rows continue its chain on the center, and it still verifies.
    await onCenter.stack.close();
    expect((await auditVerifyCli(managed)).code).toBe(0);
  }, 120_000);

  it('an operator whose name the center already has is not moved over it: reported as a conflict for IT, exit 1; the others are moved', async () => {
    // The center already has ada, ana and sam (made at a desk of the center, with passwords of their own).
    const centerDesk = await openDesk(
      { connect: attachedTo(sim) },
      { storage: () => centerStorage(center.app), dataDir: folder() },
    );
    desks.push(centerDesk);
    await centerDesk.stack.close();
    const before = await center.query<{ id: string; password_hash: string }>(
      'SELECT id, password_hash FROM operators.operators ORDER BY id',
    );
    expect(before.map((r) => r.id)).toEqual(['ada', 'ana', 'sam']);

    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.stack.close();

    const setting = appSetting();
    const first = await runMoveIn({
      center: setting,
      managedPath: 'managed.json',
      dataDir: dir,
      password: () => Promise.resolve(center.roles.app.password),
    });
    expect(first.exitCode).toBe(1);
    expect(first.output).toMatch(
      /PROBLEM {2}operator directory +4 found, 1 moved, 0 already there, 3 conflicts \(not moved\)/,
    );
    for (const id of ['ada', 'ana', 'sam'])
      expect(first.output).toContain(`conflict "${id}": the center already has an operator of that name`);
    // No desk's file adds an enabled account to a center that has its own: beto comes disabled, for an admin to enable.
    expect(first.output).toContain('note "beto": moved in disabled');
    expect(first.output).toMatch(/NOT everything was moved/);
    // The center's accounts stand as they were; beto, new to the center, was moved.
    const after = await center.query<{ id: string; password_hash: string }>(
      'SELECT id, password_hash FROM operators.operators ORDER BY id',
    );
    expect(after.filter((r) => r.id !== BETO.id)).toEqual(before);
    expect(after.map((r) => r.id)).toEqual(['ada', 'ana', 'beto', 'sam']);
    expect(await center.query("SELECT disabled FROM operators.operators WHERE id = 'beto'")).toEqual([{ disabled: 1 }]);
    // The other stores were moved all the same.
    expect(first.output).toMatch(/ok {7}audit trail +(\d+) found, \1 moved, 0 already there/);

    // Run again: beto is already there, the three conflicts are still reported.
    const second = await runMoveIn({
      center: setting,
      managedPath: 'managed.json',
      dataDir: dir,
      password: () => Promise.resolve(center.roles.app.password),
    });
    expect(second.exitCode).toBe(1);
    expect(second.output).toMatch(/operator directory +4 found, 0 moved, 1 already there, 3 conflicts/);
  }, 120_000);

  it("refuses to fork a desk's audit chain: a center holding different rows of it gets nothing of the trail, the other stores still move", async () => {
    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.signIn(AGENT);
    await desk.stack.close();
    const { deskId } = await deskIdentity(dir);
    expect(fileCount(dir, 'audit.db', 'audit')).toBeGreaterThan(0);
    // The same desk already worked on the center (its own rows from 1 there, different from its files').
    const early = await openDesk(
      { connect: attachedTo(sim) },
      { storage: () => centerStorage(center.app), dataDir: dir },
    );
    desks.push(early);
    await early.signIn(SUPERVISOR);
    await early.stack.close();
    const centerRows = await centerCount('audit.audit', deskId);
    expect(centerRows).toBeGreaterThan(0);

    const centerStore = centerStorage(center.app);
    try {
      const report = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' });
      expect(report.ok).toBe(false);
      const audit = report.stores.find((s) => s.store === 'audit');
      expect(audit).toMatchObject({ status: 'refused' });
      expect(audit?.problem).toMatch(
        /the center already has a different row 1 of desk .*'s audit chain.*would fork the chain/,
      );
      expect(formatMoveIn(report)).toMatch(/PROBLEM {2}audit trail +not moved, nothing of it was written/);
      expect(await centerCount('audit.audit', deskId)).toBe(centerRows);
      expect(report.stores.find((s) => s.store === 'journal')).toMatchObject({ status: 'moved' });
    } finally {
      await centerStore.close();
    }
  }, 120_000);

  it("waits for another desk's unanswered payment of the same reservation: the journal is not moved (nothing of it), then moves once that desk has recovered its own", async () => {
    const drop = async (): Promise<void> => {
      await sim.fault('POST /payments', 'drop_after_commit', 3);
    };
    const charge = (methodId: string) => ({
      operationId: randomUUID(),
      methodId,
      amountCents: 12_000,
      currency: 'mxn',
      reservationId: UNANSWERED,
    });
    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.signIn(AGENT);
    const mine = await desk.card(UNANSWERED);
    await drop();
    expect(await desk.call('payments:pay', charge(mine))).toMatchObject({
      ok: false,
      error: { code: 'network_error' },
    });
    await desk.stack.close();
    const { deskId } = await deskIdentity(dir);

    // A desk of the center has its own unanswered payment of that reservation.
    const otherDir = folder();
    const other = await openDesk(
      { connect: attachedTo(sim), fetch: observed },
      { storage: () => centerStorage(center.app), dataDir: otherDir },
    );
    desks.push(other);
    await other.signIn(SUPERVISOR);
    const theirs = await other.card(UNANSWERED);
    await drop();
    expect(await other.call('payments:pay', charge(theirs))).toMatchObject({
      ok: false,
      error: { code: 'network_error' },
    });
    await other.stack.close();
    const otherId = (await deskIdentity(otherDir)).deskId;

    const setting = appSetting();
    const move = () =>
      runMoveIn({
        center: setting,
        managedPath: 'managed.json',
        dataDir: dir,
        password: () => Promise.resolve(center.roles.app.password),
      });
    const refused = await move();
    expect(refused.exitCode).toBe(1);
    expect(refused.output).toContain(
      `PROBLEM  payment journal       not moved, nothing of it was written: this desk has a payment of reservation ${UNANSWERED} still unanswered, and desk ${otherId} has another one on the center`,
    );
    expect(await centerCount('journal.operations', deskId)).toBe(0);
    expect(await centerCount('journal.attempts', deskId)).toBe(0);
    expect(refused.output).toMatch(/ok {7}audit trail +(\d+) found, \1 moved/);

    // That desk starts and recovers its own; the move then goes through, the desk's payment still unanswered for it.
    const otherAgain = await openDesk(
      { connect: attachedTo(sim), fetch: observed },
      { storage: () => centerStorage(center.app), seed: false, dataDir: otherDir },
    );
    desks.push(otherAgain);
    await otherAgain.stack.recover();
    await otherAgain.stack.close();
    const moved = await move();
    // The operators of both desks clash (conflicts, exit 1); the journal is in.
    expect(moved.exitCode, moved.output).toBe(1);
    expect(moved.output).toMatch(/ok {7}payment journal +(\d+) found, \1 moved, 0 already there/);
    expect(
      await center.query(
        "SELECT desk_id, state FROM journal.operations WHERE kind = 'create_payment' ORDER BY desk_id = $1",
        [deskId],
      ),
    ).toEqual([
      { desk_id: otherId, state: 'done' },
      { desk_id: deskId, state: 'pending' },
    ]);
  }, 120_000);

  it('refuses a journal with two unanswered payments of one reservation (an earlier version let it happen): the desk answers them on its own files first', async () => {
    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.stack.close();
    const { deskId } = await deskIdentity(dir);
    // As a journal of that version holds them: the second one kept no reservation key.
    const db = new Database(join(dir, 'journal.db'));
    const insert = db.prepare(
      `INSERT INTO operations (key, operation_id, kind, fingerprint, payload, resendable, state, reservation_id, operator_id, created_at, desk_id, reservation_key)
       VALUES (?, ?, 'create_payment', 'f', '{}', 1, 'pending', ?, 'ana', ?, ?, ?)`,
    );
    insert.run(randomUUID(), randomUUID(), UNANSWERED, 1, deskId, 'MEX2H8R5T');
    insert.run(randomUUID(), randomUUID(), 'mex 2h8r5t', 2, deskId, null);
    db.close();
    const centerStore = centerStorage(center.app);
    try {
      const report = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' });
      expect(report.stores.find((s) => s.store === 'journal')).toMatchObject({
        status: 'refused',
        problem: `this desk has two payments of reservation mex 2h8r5t still unanswered (an earlier version let it happen): start the desk once more on its own files so that it recovers them, stop it, then move it again`,
      });
      expect(await centerCount('journal.operations')).toBe(0);
    } finally {
      await centerStore.close();
    }
  }, 60_000);

  it('a center row that would leave the chain broken after the move (a row of the desk the center holds beyond its files) rolls back every row of the trail written by the move', async () => {
    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.signIn(AGENT);
    await desk.stack.close();
    const { deskId } = await deskIdentity(dir);
    const inFile = fileCount(dir, 'audit.db', 'audit');
    expect(inFile).toBeGreaterThan(0);
    // A row numbered after the desk's last, linking to nothing of it. No desk's login writes audit rows itself (the
    // shared app role is refused the INSERT): a superuser does.
    const forged = [deskId, inFile + 1, GENESIS];
    const insert = `INSERT INTO audit.audit (desk_id, seq, at, actor, action, outcome, details, prev_hash, hash) VALUES ($1, $2, now(), 'eve', 'session.signIn', 'ok', '{}', $3, $3)`;
    const shared = new pg.Client({
      host: center.app.host,
      port: center.app.port,
      database: center.app.database,
      user: center.app.user,
      password: await center.app.password(),
    });
    await shared.connect();
    try {
      await expect(shared.query(insert, forged)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await shared.end();
    }
    await center.query(insert, forged);
    const centerStore = centerStorage(center.app);
    try {
      const report = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' });
      expect(report.stores.find((s) => s.store === 'audit')).toMatchObject({
        status: 'refused',
        problem: expect.stringMatching(
          new RegExp(
            `audit chain would not verify on the center \\(row ${inFile + 1}: row ${inFile + 1} does not link to row ${inFile}\\)`,
          ),
        ) as string,
      });
      expect(await centerCount('audit.audit', deskId)).toBe(1);
    } finally {
      await centerStore.close();
    }
  }, 60_000);

  // Move-in never carries a card number into the center: a row an older version wrote with a card number its redactor
  // missed (a number spelled with dots) is hashed into the desk's chain; copied as it is, it would reach the center, where
  // every desk's auditor and supervisor reads it. The move refuses it (or reports it for IT), never writes it there.
  it('R3: a card number left in a legacy audit row by an older redactor is not carried into the center', async () => {
    const dir = folder();
    writeLegacyAuditFile(dir, 2, (seq) =>
      seq === 2 ? JSON.stringify({ note: 'guest card 4242.4242.4242.4242' }) : '{}',
    );
    const desk = await ownFilesDesk(dir);
    await desk.stack.close();
    expect(fileCount(dir, 'audit.db', 'audit', "WHERE details LIKE '%4242.4242.4242.4242%'")).toBe(1);
    const centerStore = centerStorage(center.app);
    try {
      const report = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' });
      const carried = await center.query<{ n: string }>(
        "SELECT count(*) AS n FROM audit.audit WHERE details LIKE '%4242.4242.4242.4242%'",
      );
      expect(Number(carried[0]?.n)).toBe(0);
      const problem = report.stores.find((s) => s.store === 'audit')?.problem;
      expect(problem).toMatch(/card/i);
      // Named for IT by its row and column, with what to do; never by its digits, nowhere in the report.
      expect(problem).toMatch(/row 2 of desk .*audit chain, column details/);
      expect(problem).toMatch(/PCI incident procedure/);
      expect(problem).toMatch(/keep the desk's data folder as it is/i);
      const printed = formatMoveIn(report);
      expect(printed).toMatch(/^PROBLEM +Audit trail/im);
      expect(printed).not.toMatch(/4242/);
      expect(JSON.stringify(report)).not.toMatch(/4242/);
      // The whole move is refused before anything is written: no store of this desk is on the center.
      expect(report.ok).toBe(false);
      expect(report.stores.every((s) => s.status !== 'moved')).toBe(true);
      for (const table of ['audit.audit', 'journal.operations', 'journal.payments', 'operators.operators'])
        expect(await centerCount(table)).toBe(0);
    } finally {
      await centerStore.close();
    }
  }, 120_000);

  it("R3: card data in a store that is not chained (an operator's name typed with a card number) refuses the whole move too, said without the digits; once IT settles it the move goes", async () => {
    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.signIn(AGENT);
    await desk.stack.close();
    const file = new Database(join(dir, 'operators.db'));
    file.prepare("UPDATE operators SET display_name = 'Beto 4111 1111 1111 1111' WHERE id = ?").run(BETO.id);
    file.close();
    const setting = appSetting();
    const password = () => Promise.resolve(center.roles.app.password);
    const refused = await runMoveIn({ center: setting, managedPath: 'managed.json', dataDir: dir, password });
    expect(refused.exitCode).toBe(1);
    expect(refused.output).toMatch(/card data .* operators: operator in row \d+ of operators\.db, column display_name/);
    expect(refused.output).toMatch(/PCI incident procedure/);
    expect(refused.output).not.toMatch(/4111/);
    for (const table of ['audit.audit', 'journal.operations', 'operators.operators', 'refund_requests.requests'])
      expect(await centerCount(table)).toBe(0);
    // IT (following the procedure) has the name corrected at the desk: the move then goes, all of it.
    const fixed = new Database(join(dir, 'operators.db'));
    fixed.prepare("UPDATE operators SET display_name = 'Beto' WHERE id = ?").run(BETO.id);
    fixed.close();
    const moved = await runMoveIn({ center: setting, managedPath: 'managed.json', dataDir: dir, password });
    expect(moved).toMatchObject({ exitCode: 0, output: expect.stringMatching(/^Done: /m) as string });
  }, 120_000);

  it('a damaged desk.json: IT is told what to do with it, in words, and nothing moves', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'desk.json'), '{ not json');
    const setting = appSetting();
    const refused = await runMoveIn({
      center: setting,
      managedPath: 'managed.json',
      dataDir: dir,
      password: () => Promise.resolve(center.roles.app.password),
    });
    expect(refused.exitCode).toBe(1);
    expect(refused.output).toMatch(
      /^Nothing was moved: This desk's identity file .*desk\.json is damaged\. IT must restore it/,
    );
    expect(refused.output).not.toMatch(/desk_id_damaged/);
  }, 120_000);

  // IT's `npm run center:move-in` (moveDeskIn) never reads a desk's files while that desk still runs on them: the report
  // would say "Done" and tell IT to start the desk on the center, while what the desk writes meanwhile (a refund request,
  // a payment begun) stays in its files, and only a second run nobody is told to make would move it.
  it('R4: the move refuses a data folder whose desk is still running on it', async () => {
    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.signIn(AGENT);
    const centerStore = centerStorage(center.app);
    try {
      const outcome = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' }).then(
        (report) => (report.ok ? 'moved' : 'refused'),
        () => 'refused',
      );
      // The running desk goes on writing its files after the "Done": this sign-in is in no center.
      await desk.signIn(SUPERVISOR);
      expect(outcome).toBe('refused');
      expect(await centerCount('audit.audit')).toBe(0);
      // IT's command says why, and writes nothing; once the desk is closed, the move goes.
      const setting = appSetting();
      const password = () => Promise.resolve(center.roles.app.password);
      const running = await runMoveIn({ center: setting, managedPath: 'managed.json', dataDir: dir, password });
      expect(running).toMatchObject({
        exitCode: 1,
        output: expect.stringMatching(
          /^Nothing was moved: the desk is running on this folder: close it first/,
        ) as string,
      });
      expect(await centerCount('audit.audit')).toBe(0);
      await desk.stack.close();
      const closed = await runMoveIn({ center: setting, managedPath: 'managed.json', dataDir: dir, password });
      expect(closed).toMatchObject({ exitCode: 0, output: expect.stringMatching(/^Done: /m) as string });
    } finally {
      await centerStore.close();
    }
  }, 120_000);

  it('a desk moves in with its own login only once that login is bound to it: otherwise nothing is moved, and IT is told how', async () => {
    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.signIn(AGENT);
    await desk.stack.close();
    const { deskId } = await deskIdentity(dir);
    const unbound = await center.addDesk();
    const centerStore = centerStorage(unbound);
    try {
      const refusal = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(MoveInError);
      expect((refusal as Error).message).toContain(`bound to no desk yet`);
      expect((refusal as Error).message).toContain(`-v desk_id=${deskId}`);
      expect(await centerCount('operators.operators')).toBe(0);
      expect(await centerCount('audit.audit', deskId)).toBe(0);
      await center.query('INSERT INTO center.desk_logins (login_role, desk_id) VALUES ($1, $2)', [
        unbound.role.name,
        deskId,
      ]);
      const report = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' });
      expect(report.ok).toBe(true);
      expect(await centerCount('audit.audit', deskId)).toBe(fileCount(dir, 'audit.db', 'audit'));
    } finally {
      await centerStore.close();
    }
  }, 120_000);

  // The card-data scan (FREE_TEXT in main/center/move-in.ts) reads every column moveReservations copies, the confirmation
  // number too: an older desk's import could keep a card number there (its CSV cells unread for card data, a confirmation
  // number any text of up to 64 characters), and the move would carry it into the center, where every desk's search
  // shows it. (Naming the row by its confirmation number, as the scan does for reservations, would then print the
  // digits: it is named otherwise.)
  it("S2: a card number an older import kept as a reservation's confirmation number is not carried into the center, nor printed", async () => {
    const dir = folder();
    const desk = await ownFilesDesk(dir);
    await desk.stack.close();
    const { deskId } = await deskIdentity(dir);
    const imported = await BuiltinReservationStore.openFolder(dir, { deskId });
    expect(await imported.importCsv(csvOf([reservation({ confirmationNumber: 'IMP-000009' })]))).toMatchObject({
      ok: true,
      created: 1,
    });
    await imported.close();
    // What the older import wrote for a row whose confirmation number cell held the guest's card.
    const file = new Database(join(dir, 'reservations.db'));
    file
      .prepare(
        "UPDATE reservations SET confirmation_number = '4242 4242 4242 4242' WHERE confirmation_number = 'IMP-000009'",
      )
      .run();
    file.close();
    const centerStore = centerStorage(center.app);
    try {
      const report = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' });
      const carried = await center.query<{ n: string }>(
        "SELECT count(*) AS n FROM reservations.reservations WHERE confirmation_number = '4242 4242 4242 4242'",
      );
      expect(Number(carried[0]?.n)).toBe(0);
      expect(report.ok).toBe(false);
      expect(JSON.stringify(report)).not.toMatch(/4242/);
      expect(formatMoveIn(report)).not.toMatch(/4242/);
    } finally {
      await centerStore.close();
    }
  }, 120_000);

  // JSON columns (operations' payload, payments' metadata, the audit rows' details) are scanned as their values, not
  // their JSON text, where a line break inside a value is the two characters backslash and n: a card number written over
  // four lines of a note ("4242⏎4242⏎4242⏎4242"), which the detector finds in the note itself and an older redactor let
  // through (its digit runs joined spaces, tabs and dashes only), would be four groups split by "\n" in the text: not a
  // run of digits, not found, and the move would carry the row into the center.
  it('S3: a card number over several lines of a legacy audit row (a JSON value with line breaks) is not carried into the center', async () => {
    const dir = folder();
    const note = 'guest card\n4242\n4242\n4242\n4242';
    writeLegacyAuditFile(dir, 2, (seq) => (seq === 2 ? JSON.stringify({ note }) : '{}'));
    const desk = await ownFilesDesk(dir);
    await desk.stack.close();
    expect(fileCount(dir, 'audit.db', 'audit', "WHERE details LIKE '%4242\\n4242%'")).toBe(1);
    const centerStore = centerStorage(center.app);
    try {
      const report = await moveDeskIn({ dataDir: dir, center: centerStore, target: 'the test center' });
      const carried = await center.query<{ n: string }>(
        "SELECT count(*) AS n FROM audit.audit WHERE details LIKE '%4242\\n4242%' ESCAPE ''",
      );
      expect(Number(carried[0]?.n)).toBe(0);
      expect(report.ok).toBe(false);
      expect(report.stores.find((s) => s.store === 'audit')?.problem).toMatch(
        /row 2 of desk .*audit chain, column details/,
      );
    } finally {
      await centerStore.close();
    }
  }, 120_000);

  it("refuses a folder that is not a desk's data folder (no desk.json), and says how to use the command", async () => {
    const setting = appSetting();
    const password = () => Promise.resolve(center.roles.app.password);
    const empty = await runMoveIn({ center: setting, managedPath: 'managed.json', dataDir: folder(), password });
    expect(empty).toMatchObject({
      exitCode: 2,
      output: expect.stringMatching(/has no desk\.json: it is not the data folder of a desk/) as string,
    });
    expect(
      await runMoveIn({ center: setting, managedPath: 'managed.json', dataDir: undefined, password }),
    ).toMatchObject({ exitCode: 2, output: expect.stringMatching(/^Usage: /) as string });
    expect(
      await runMoveIn({ center: undefined, managedPath: 'managed.json', dataDir: folder(), password }),
    ).toMatchObject({ exitCode: 2 });
  }, 60_000);
});
