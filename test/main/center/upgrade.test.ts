// A center upgraded from the last release before per-desk logins (7a40737: one shared app role, no definer functions)
// keeps every row and a verifiable audit trail. test/fixtures/center-7a40737.sql is that release's center as its own
// desks left it (made by scripts/center-fixture.mjs with that commit's code, never by hand). As IT does it: a database
// set up by today's docs/center/setup.sql, the old center restored into it as the owner role (who owns the objects),
// every desk stopped, then today's --migrate-center as the owner — whatever migrations this code has. Then desk A of the
// old center starts again on the new version, on a login of its own, and works.
import { createHash, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCenterAudit, type Verification } from '../../../main/audit';
import { CENTER_STORES, checkCenter } from '../../../main/center';
import { migrateCenter, type CenterMigrationReport } from '../../../main/storage';
import type { Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { useSimulator } from '../../support/simulator';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from '../app/desk-kit';

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL('../../fixtures/center-7a40737.sql', import.meta.url));
/** The old center's operators (scripts/center-fixture.mjs): ana and sam are desk-kit's AGENT and SUPERVISOR. */
const SUE = { id: 'sue', password: 'supervisor pass 5678' };
const OLE = { id: 'ole', password: 'agent password 9012' };

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let center: TestCenter;
let desk: Desk | undefined;

/** Every row of a table in the given columns, each as PostgreSQL prints the row (`ROW(…)::text`), sorted. */
interface TableRows {
  columns: string[];
  rows: string[];
}

/** The schemas the fixture makes: the old center's stores. */
const SCHEMAS = [...readFileSync(FIXTURE, 'utf8').matchAll(/^CREATE SCHEMA (\w+);$/gm)].map((m) => m[1] ?? '');

const ident = (name: string): string => pg.escapeIdentifier(name);

async function snapshot(columnsOf?: Map<string, string[]>): Promise<Map<string, TableRows>> {
  const tables = await center.query<{ schema: string; table: string }>(
    `SELECT table_schema AS schema, table_name AS table FROM information_schema.tables
      WHERE table_schema = ANY ($1) AND table_type = 'BASE TABLE' ORDER BY 1, 2`,
    [SCHEMAS],
  );
  const result = new Map<string, TableRows>();
  for (const { schema, table } of tables) {
    const name = `${schema}.${table}`;
    const columns =
      columnsOf?.get(name) ??
      (
        await center.query<{ column: string }>(
          `SELECT column_name AS column FROM information_schema.columns
            WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
          [schema, table],
        )
      ).map((row) => row.column);
    const rows = await center.query<{ row: string }>(
      `SELECT ROW(${columns.map(ident).join(', ')})::text AS row FROM ${ident(schema)}.${ident(table)}`,
    );
    result.set(name, { columns, rows: rows.map((row) => row.row).sort() });
  }
  return result;
}

/** audit.verify_chain as a person granted the auditor role runs it (npm run audit:verify -- --center). */
async function auditorVerifies(): Promise<Verification> {
  const person = { name: `${center.database.name}_alice`, password: 'alice audits 42' };
  await center.query(`CREATE ROLE ${ident(person.name)} LOGIN PASSWORD ${pg.escapeLiteral(person.password)}`);
  await center.query(`GRANT ${ident(center.roles.auditor.name)} TO ${ident(person.name)}`);
  try {
    return await verifyCenterAudit({
      ...center.app,
      user: person.name,
      password: () => Promise.resolve(person.password),
    });
  } finally {
    await center.query(`DROP ROLE ${ident(person.name)}`);
  }
}

interface AuditRow {
  id: string;
  desk_id: string;
  seq: string;
  hash: string;
  prev_hash: string;
  keyed: boolean;
  desk_at: Date | null;
  actor_session: string | null;
  actor: string;
  action: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

let before: Map<string, TableRows>;
let oldColumns: Map<string, string[]>;
let reports: CenterMigrationReport[];
let oldSessions: { operator_id: string; session_id: string; desk_id: string; locked: number }[];
let oldAudit: AuditRow[];
let oldHashes: Map<string, string>;
let oldPrivileges: Record<string, boolean>;

/**
 * What the shared app role (every desk's credential at 7a40737) may do row by row on the tables a desk now reaches only
 * through the center's functions.
 */
async function sharedRoleMay(): Promise<Record<string, boolean>> {
  const [row] = await center.query<Record<string, boolean>>(
    `SELECT has_table_privilege($1, 'audit.audit', 'INSERT') AS "insert audit",
            has_table_privilege($1, 'operators.operators', 'UPDATE') AS "update operators",
            has_table_privilege($1, 'operators.operators', 'INSERT') AS "insert operators",
            has_column_privilege($1, 'operators.operators', 'password_hash', 'SELECT') AS "read password hashes",
            has_table_privilege($1, 'operators.sessions', 'DELETE') AS "delete sessions",
            has_table_privilege($1, 'refund_requests.requests', 'UPDATE') AS "update refund requests",
            has_table_privilege($1, 'desks.desks', 'SELECT') AS "read desks",
            has_table_privilege($1, 'journal.payments', 'SELECT') AS "read payments"`,
    [center.roles.app.name],
  );
  if (row === undefined) throw new Error('no answer');
  return row;
}

beforeAll(async () => {
  center = await createCenter(await testPostgres());
  // Restored as the owner role, as IT would restore it, so that the owner owns every object as --migrate-center needs.
  const { server, database, roles } = center;
  const psql = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction'];
  const as = ['-h', server.host, '-p', String(server.port), '-U', roles.owner.name, '-d', database.name];
  await run(path.join(server.bin, 'psql'), [...psql, ...as, '-f', FIXTURE], {
    env: { ...process.env, PGPASSWORD: roles.owner.password },
  });
  before = await snapshot();
  oldColumns = new Map([...before].map(([name, table]) => [name, table.columns]));
  oldSessions = await center.query('SELECT operator_id, session_id, desk_id, locked FROM operators.sessions');
  oldAudit = await center.query<AuditRow>('SELECT * FROM audit.audit ORDER BY desk_id, seq');
  oldHashes = new Map(oldAudit.map((row) => [row.id, row.hash]));
  oldPrivileges = await sharedRoleMay();
  reports = await migrateCenter(center.owner, CENTER_STORES);
}, 120_000);

afterAll(async () => {
  await desk?.close();
  await center.drop();
});

describe('a center of 7a40737 migrated by this version', () => {
  it('the fixture is the old center: its stores, its rows, the audit rows the desks chained themselves', () => {
    expect(SCHEMAS).toEqual(
      expect.arrayContaining(['audit', 'desks', 'journal', 'operators', 'refund_requests', 'messaging']),
    );
    const count = (table: string): number => before.get(table)?.rows.length ?? -1;
    expect(count('operators.operators')).toBe(7);
    expect(count('operators.sessions')).toBe(2);
    expect(count('journal.payments')).toBe(4);
    expect(count('journal.refunds')).toBe(2);
    expect(count('refund_requests.requests')).toBe(2);
    expect(count('desks.desks')).toBe(2);
    expect(count('audit.audit')).toBeGreaterThan(30);
    // The old trail had no center columns: the desks wrote each row and its plain hash themselves.
    expect(oldColumns.get('audit.audit')).not.toContain('keyed');
  });

  it('ran every migration this code has that the old center had not, store by store', async () => {
    for (const report of reports) {
      const store = CENTER_STORES.find((s) => s.name === report.store);
      const known = Object.keys(store?.postgres.migrations ?? {}).sort();
      const had = (before.get(`${report.store}.kysely_migration`)?.rows.length ?? 0) > 0;
      expect(report.to, report.store).toBe(known.length);
      if (had) expect(report.applied, report.store).toEqual(known.slice(report.from));
    }
    // The stores that already had migrations at 7a40737 gained at least the ones this work added.
    const gained = Object.fromEntries(reports.map((r) => [r.store, r.applied]));
    expect(gained['operators']).toEqual(expect.arrayContaining(['0005_center_door']));
    expect(gained['audit']).toEqual(expect.arrayContaining(['0003_center_writes']));
    const state = await center.query<{ name: string }>('SELECT name FROM operators.kysely_migration ORDER BY name');
    const operators = CENTER_STORES.find((store) => store.name === 'operators');
    expect(state.map((row) => row.name)).toEqual(Object.keys(operators?.postgres.migrations ?? {}).sort());
  });

  it('keeps every row of every table, byte for byte in its old columns, but what the upgrade changes on purpose', async () => {
    const after = await snapshot(oldColumns);
    // Every old table is still there (the new ones, the operators' door and the audit heads, are the migrations').
    expect([...after.keys()]).toEqual(expect.arrayContaining([...before.keys()]));
    for (const [name, old] of before) {
      const now = after.get(name);
      expect(now?.rows.length, name).toBe(old.rows.length + (name.endsWith('.kysely_migration') ? added(name) : 0));
      if (name.endsWith('.kysely_migration')) {
        // The migration records: the old ones kept, the new ones added.
        expect(now?.rows, name).toEqual(expect.arrayContaining(old.rows));
      } else if (name === 'operators.sessions') {
        // 0004_session_keys: a session is kept as the SHA-256 of its id from now on; the open ones stay open (the same
        // operator, desk and lock), their desks' next calls matching the hash.
        const sessions = await center.query<(typeof oldSessions)[number]>(
          'SELECT operator_id, session_id, desk_id, locked FROM operators.sessions',
        );
        expect(sortBy(sessions)).toEqual(sortBy(oldSessions.map((s) => ({ ...s, session_id: sha256(s.session_id) }))));
      } else {
        expect(now?.rows, name).toEqual(old.rows);
      }
    }
  });

  it('keeps every audit row as the desks wrote it, adds no key to them, and heads each desk’s chain at its last row', async () => {
    const rows = await center.query<AuditRow>('SELECT * FROM audit.audit ORDER BY desk_id, seq');
    expect(rows.map((row) => [row.id, row.hash])).toEqual([...oldHashes]);
    expect(rows.every((row) => !row.keyed && row.desk_at === null && row.actor_session === null)).toBe(true);
    const heads = await center.query<{ desk_id: string; seq: string; hash: string }>(
      'SELECT desk_id, seq::text AS seq, hash FROM audit.heads ORDER BY desk_id',
    );
    const last = new Map(oldAudit.map((row) => [row.desk_id, row]));
    expect(heads).toEqual(
      [...last.values()]
        .map((row) => ({ desk_id: row.desk_id, seq: String(row.seq), hash: row.hash }))
        .sort((a, b) => a.desk_id.localeCompare(b.desk_id)),
    );
  });

  it("takes back the shared role's old row-by-row writes (the fixture restores the old center's grants)", async () => {
    // As the old center had them: every desk wrote accounts, sessions, requests and the trail itself.
    expect(oldPrivileges).toEqual({
      'insert audit': true,
      'update operators': true,
      'insert operators': true,
      'read password hashes': true,
      'delete sessions': true,
      'update refund requests': true,
      'read desks': true,
      'read payments': true,
    });
    // Now through the center's functions only; reading the journal stays.
    expect(await sharedRoleMay()).toEqual({
      'insert audit': false,
      'update operators': false,
      'insert operators': false,
      'read password hashes': false,
      'delete sessions': false,
      'update refund requests': false,
      'read desks': false,
      'read payments': true,
    });
  });

  it("the auditor's audit.verify_chain answers ok for every old row", async () => {
    expect(await auditorVerifies()).toEqual({ ok: true, rows: oldAudit.length, desks: 2 });
  });
});

describe('desk A of the old center, started again on this version with a login of its own', () => {
  let deskId: string;
  let zoe: { id: string };
  let sarah: { id: string };
  let plainRows: number;

  beforeAll(async () => {
    // Desk A is the desk whose agent ana took Zoë Anderson's payment. Its data folder as the center knows it: desk.json
    // and desk-nonce.json, the id and the nonce the registry holds (the rest of its files hold nothing the center needs).
    const [payment] = await center.query<{ id: string; desk_id: string }>(
      "SELECT id, desk_id FROM journal.payments WHERE reservation_id = 'CUN-6B3D8F'",
    );
    const [other] = await center.query<{ id: string }>(
      "SELECT id FROM journal.payments WHERE reservation_id = 'CUN-5Z2A8B'",
    );
    if (payment === undefined || other === undefined) throw new Error('the fixture lacks its payments');
    zoe = payment;
    sarah = other;
    deskId = payment.desk_id;
    const [registered] = await center.query<{ nonce: string; first_started_at: Date }>(
      'SELECT nonce, first_started_at FROM desks.desks WHERE desk_id = $1',
      [deskId],
    );
    if (registered === undefined) throw new Error('desk A is not in the registry');
    plainRows = oldAudit.filter((row) => row.desk_id === deskId).length;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-upgraded-'));
    writeFileSync(
      path.join(dataDir, 'desk.json'),
      `${JSON.stringify({ version: 1, deskId, createdAt: registered.first_started_at.toISOString() }, null, 2)}\n`,
    );
    writeFileSync(
      path.join(dataDir, 'desk-nonce.json'),
      `${JSON.stringify({ version: 1, deskId, nonce: registered.nonce }, null, 2)}\n`,
      { mode: 0o600 },
    );
    desk = await openDesk({ connect: attachedTo(sim) }, { center, seed: false, dataDir });
  }, 60_000);

  it('is bound to its login at its start; --check-center is ready, warning only that the shared role still signs in', async () => {
    const login = desk?.login;
    if (login === undefined) throw new Error('no login');
    const bound = await center.query('SELECT login_role, desk_id FROM center.desk_logins');
    expect(bound).toEqual([{ login_role: login.user, desk_id: deskId }]);
    const report = await checkCenter({ ...login, tls: { mode: 'require' } }, CENTER_STORES);
    expect(report.lines.filter((line) => line.status !== 'ok')).toEqual([
      { status: 'warning', check: 'shared credential', detail: expect.stringMatching(/can still sign in/) as unknown },
    ]);
    expect(report.ok).toBe(true);
    expect(report.lines.find((line) => line.check === 'desk')?.detail).toBe(
      `"${login.user}" is the login of desk ${deskId}`,
    );
  });

  it("closed at its start the session it left open; the other desk's locked session stays open", async () => {
    // A desk's start ends the sessions it left behind (nobody is signed in on its screen): ana's, left by the crash.
    const sessions = await center.query<{ operator_id: string; desk_id: string; locked: number }>(
      'SELECT operator_id, desk_id, locked FROM operators.sessions ORDER BY operator_id',
    );
    const sue = oldSessions.find((s) => s.operator_id === SUE.id);
    expect(sessions).toEqual([{ operator_id: SUE.id, desk_id: sue?.desk_id, locked: 1 }]);
    expect(await desk?.refused('session:signIn', SUE)).toMatchObject({
      code: 'session_elsewhere',
      params: { deskId: sue?.desk_id },
    });
    // An account disabled on the old center stays disabled.
    const refusal = await desk?.refused('session:signIn', OLE);
    expect(refusal?.code).toBe('disabled');
  });

  it("signs in the old center's agent with her old password, without re-making its hash, and sees the old payments", async () => {
    const hashOf = async (id: string): Promise<string | undefined> =>
      (await center.query<{ h: string }>('SELECT password_hash AS h FROM operators.operators WHERE id = $1', [id]))[0]
        ?.h;
    const oldHash = await hashOf(AGENT.id);
    await desk?.signIn(AGENT);
    expect(await hashOf(AGENT.id)).toBe(oldHash);

    const atZoe = await desk?.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: 'CUN-6B3D8F',
    });
    expect(atZoe?.payments.map((p) => [p.id, p.status, p.amountCents, p.refunds.map((r) => r.amountCents)])).toEqual([
      [zoe.id, 'succeeded', 20_000, [5_000]],
    ]);
    // Desk B's payment and the refund its supervisor approved there.
    const atSarah = await desk?.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: 'CUN-5Z2A8B',
    });
    expect(atSarah?.payments.map((p) => [p.id, p.status, p.amountCents, p.refunds.map((r) => r.amountCents)])).toEqual([
      [sarah.id, 'succeeded', 7_000, [2_000]],
    ]);
  });

  it("shows a supervisor the old center's pending refund request", async () => {
    await desk?.signIn(SUPERVISOR);
    const queue = await desk?.ok<{ requests: { paymentId: string; amountCents: number; requestedBy: string }[] }>(
      'refunds:queue',
      {},
    );
    expect(queue?.requests.map((r) => [r.paymentId, r.amountCents, r.requestedBy])).toEqual([
      [zoe.id, 4_000, AGENT.id],
    ]);
  });

  it('takes a new payment; its audit rows, keyed by the center, follow the desk’s old plain ones and the trail verifies', async () => {
    const at = desk;
    if (at === undefined) throw new Error('no desk');
    await at.signIn(AGENT);
    const methodId = await at.card('CUN-6B3D8F');
    const payment = await at.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 10_000,
      currency: 'usd',
      reservationId: 'CUN-6B3D8F',
    });
    await at.until(payment.id, (status) => status === 'succeeded');
    const overview = await at.ok<Output<'reservations:overview'>>('reservations:overview', {
      reservationId: 'CUN-6B3D8F',
    });
    expect(overview.payments.map((p) => p.id).sort()).toEqual([zoe.id, payment.id].sort());

    const chain = await center.query<AuditRow>('SELECT * FROM audit.audit WHERE desk_id = $1 ORDER BY seq', [deskId]);
    expect(chain.map((row) => Number(row.seq))).toEqual(chain.map((_, i) => i + 1));
    const plain = chain.slice(0, plainRows);
    const keyed = chain.slice(plainRows);
    expect(plain.map((row) => [row.id, row.hash])).toEqual(
      oldAudit.filter((row) => row.desk_id === deskId).map((row) => [row.id, row.hash]),
    );
    expect(keyed.length).toBeGreaterThan(0);
    expect(keyed.every((row) => row.keyed)).toBe(true);
    expect(keyed[0]?.prev_hash).toBe(plain.at(-1)?.hash);
    expect(keyed.map((row) => row.action)).toEqual(expect.arrayContaining(['payment.create', 'payment.result']));
    expect(keyed.find((row) => row.action === 'payment.create')).toMatchObject({
      actor: AGENT.id,
      actor_session: 'open',
    });

    const total = (await center.query<{ n: number }>('SELECT count(*)::int AS n FROM audit.audit'))[0]?.n;
    expect(await auditorVerifies()).toEqual({ ok: true, rows: total, desks: 2 });
  });
});

/** How many migration records --migrate-center added to a store's table. */
function added(table: string): number {
  return reports.find((report) => `${report.store}.kysely_migration` === table)?.applied.length ?? 0;
}

function sortBy<T extends { operator_id: string }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => a.operator_id.localeCompare(b.operator_id));
}
