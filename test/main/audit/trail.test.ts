// The audit trail on both backends (the embedded SQLite file and the center's real PostgreSQL, as the app role): each
// desk's rows chained by hash; an edit, a deletion or a re-link is reported with its desk and row. On the center the
// database itself writes the rows and keeps them append-only (audit.append, grants and a trigger), and the auditor's
// check recomputes the hashes keyed by the center; on the embedded file triggers and the head kept beside it do.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AUDIT_SPOOL_FILE,
  AUDIT_STORE,
  AuditTrail,
  GENESIS,
  verifyCenterAudit,
  walkChain,
  type AuditTrailOptions,
  type ChainRow,
  type Verification,
} from '../../../main/audit';
import { embeddedStorage, StorageError, type Storage } from '../../../main/storage';
import { useStoreBackends, type StoreBackend } from '../../support/backends';
import { CARD_SPELLINGS, CVV_PHRASES } from '../../shared/text/spellings';
import { pansInFolder } from '../support/card-scan';
import { writeLegacyAuditFile } from '../../support/legacy-audit';

const DESK_A = '11111111-1111-4111-8111-111111111111';
const DESK_B = '22222222-2222-4222-8222-222222222222';
const AT = Date.parse('2026-11-23T10:00:00.000Z');

const entry = (i: number) => ({
  actor: 'ana',
  action: 'payment.create',
  outcome: 'ok' as const,
  resource: `pay_${String(i).padStart(32, '0')}`,
  requestId: `req_${i}`,
  details: { amount: i * 10 },
});

/** The folder of an embedded storage (its description names it). */
const folderOf = (storage: Storage): string => storage.description.replace(/^the embedded files in /, '');

/**
 * The center's own check as a person granted the auditor role runs it (npm run audit:verify -- --center): their role
 * made for the call, dropped after.
 */
async function auditorVerifies(center: ReturnType<StoreBackend['center']>): Promise<Verification> {
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

/** What someone with the database and no regard for its rules could do: the file's triggers dropped, or the center's turned off by a superuser. */
async function tamper(
  backend: StoreBackend,
  storage: Storage,
  statement: { sqlite: string; postgres: string },
): Promise<void> {
  if (backend.name === 'sqlite') {
    const db = new Database(join(folderOf(storage), 'audit.db'));
    db.exec('DROP TRIGGER IF EXISTS audit_no_update; DROP TRIGGER IF EXISTS audit_no_delete;');
    db.exec(statement.sqlite);
    db.close();
    return;
  }
  await backend
    .center()
    .query(`SET session_replication_role = replica; ${statement.postgres}; SET session_replication_role = origin`);
}

describe.each(useStoreBackends([AUDIT_STORE]))('the audit trail on $name', (backend) => {
  async function open(
    deskId = DESK_A,
    options: AuditTrailOptions = {},
    storage?: Storage,
  ): Promise<{ trail: AuditTrail; storage: Storage }> {
    const place = storage ?? (await backend.storage());
    return { trail: await AuditTrail.open(place, { deskId }, { now: () => AT, ...options }), storage: place };
  }

  it('chains each row to the one before, from a fixed genesis, names its desk, and verifies', async () => {
    const { trail } = await open();
    for (let i = 1; i <= 5; i++) await trail.append(entry(i));
    const rows = await trail.rows();
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.every((r) => r.deskId === DESK_A)).toBe(true);
    expect(rows[0]?.prevHash).toBe(GENESIS);
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.prevHash).toBe(rows[i - 1]?.hash);
    expect(rows[2]).toMatchObject({
      actor: 'ana',
      action: 'payment.create',
      outcome: 'ok',
      requestId: 'req_3',
      details: { amount: 30 },
    });
    // The row's time: the desk's on its own file; the center's on the center, the desk's kept beside it.
    if (backend.name === 'sqlite') expect(rows[2]).toMatchObject({ at: '2026-11-23T10:00:00.000Z' });
    else {
      expect(rows[2]).toMatchObject({ writtenBy: 'center', deskAt: '2026-11-23T10:00:00.000Z' });
      expect(Math.abs(Date.parse(rows[2]?.at ?? '') - Date.now())).toBeLessThan(60_000);
    }
    expect(await trail.verify()).toEqual({ ok: true, rows: 5, desks: 1 });
  });

  it('record() is fire-and-forget yet keeps the order it was called in; a read sees every row recorded before it', async () => {
    const { trail } = await open();
    for (let i = 1; i <= 30; i++) trail.record(entry(i));
    const rows = await trail.rows();
    expect(rows.map((r) => [r.seq, r.details['amount']])).toEqual(
      Array.from({ length: 30 }, (_, i) => [i + 1, (i + 1) * 10]),
    );
    expect(await trail.verify()).toMatchObject({ ok: true, rows: 30 });
  });

  it('a row that cannot be written is reported to onError, never thrown at the caller; close waits for what was recorded', async () => {
    const errors: unknown[] = [];
    const { trail, storage } = await open(DESK_A, { onError: (error) => errors.push(error) });
    trail.record(entry(1));
    await trail.flush();
    await storage.close();
    expect(() => trail.record(entry(2))).not.toThrow();
    await trail.flush();
    expect(errors).toHaveLength(1);

    const again = await open();
    for (let i = 1; i <= 10; i++) again.trail.record(entry(i));
    await again.trail.close();
    const reader = await open(DESK_A, {}, await backend.anotherDesk());
    expect(await reader.trail.rows()).toHaveLength(10);
    await expect(again.trail.append(entry(11))).rejects.toThrow(/closed/);
  });

  it('writes a result once, whichever desk wrote it first (once)', async () => {
    const { trail } = await open();
    const other = (await open(DESK_B, {}, await backend.anotherDesk())).trail;
    expect(
      await trail.append(
        { actor: 'system', action: 'payment.result', outcome: 'ok', resource: 'pay_1' },
        { once: true },
      ),
    ).toMatchObject({ seq: 1 });
    expect(
      await other.append(
        { actor: 'system', action: 'payment.result', outcome: 'ok', resource: 'pay_1' },
        { once: true },
      ),
    ).toBeUndefined();
    expect(
      await other.append(
        { actor: 'system', action: 'payment.result', outcome: 'ok', resource: 'pay_2' },
        { once: true },
      ),
    ).toMatchObject({ deskId: DESK_B, seq: 1 });
  });

  it("queries every desk's rows newest first, filters (desk, actor and resource ignoring case, action prefix, time) and pages back", async () => {
    const { trail } = await open();
    const other = (await open(DESK_B, { now: () => AT + 60_000 }, await backend.anotherDesk())).trail;
    await trail.append({ actor: 'Ana', action: 'refund.request', outcome: 'ok', resource: 'PAY_1' });
    await other.append({ actor: 'sam', action: 'refund.approve', outcome: 'ok', resource: 'pay_1' });
    await trail.append({ actor: 'ana', action: 'refund_x', outcome: 'refused' });
    await other.append({ actor: 'sam', action: 'session.signIn', outcome: 'ok' });
    const all = await trail.query({});
    expect(all.map((r) => [r.deskId, r.seq, r.action])).toEqual([
      [DESK_B, 2, 'session.signIn'],
      [DESK_A, 2, 'refund_x'],
      [DESK_B, 1, 'refund.approve'],
      [DESK_A, 1, 'refund.request'],
    ]);
    expect((await trail.query({ action: 'REFUND.' })).map((r) => r.action)).toEqual([
      'refund.approve',
      'refund.request',
    ]);
    expect((await trail.query({ actor: 'ANA', resource: 'pay_1' })).map((r) => r.action)).toEqual(['refund.request']);
    expect((await trail.query({ deskId: DESK_B })).map((r) => r.seq)).toEqual([2, 1]);
    // [from, to) against each row's `at`: the desk's time on its own file (desk B's a minute later), the center's on the
    // center (in the order the rows were written).
    const cut = backend.name === 'sqlite' ? new Date(AT + 30_000).toISOString() : (all[1]?.at ?? '');
    const after = all.filter((r) => r.at >= cut).map((r) => r.id);
    // Two rows on the file; on the center, two unless one written before shares the millisecond.
    expect(after.length).toBeGreaterThanOrEqual(2);
    expect(after.length).toBeLessThan(all.length);
    expect((await trail.query({ from: cut })).map((r) => r.id)).toEqual(after);
    expect((await trail.query({ to: cut })).map((r) => r.id)).toEqual(all.filter((r) => r.at < cut).map((r) => r.id));
    if (backend.name === 'sqlite')
      expect((await trail.query({ from: cut })).map((r) => r.deskId)).toEqual([DESK_B, DESK_B]);
    const page = await trail.query({}, 2);
    expect((await trail.query({ beforeId: page.at(-1)?.id ?? 0 }, 2)).map((r) => r.action)).toEqual([
      'refund.approve',
      'refund.request',
    ]);
  });

  it('verification names the desk and the row: an altered row, a deleted row, a re-hashed row', async () => {
    const { trail, storage } = await open();
    const b = (await open(DESK_B, {}, await backend.anotherDesk())).trail;
    // A row's content: the desk checks it on its own file; on the center it is hashed with the center's key, which
    // only the auditor's check (audit.verify_chain) uses.
    const contentCheck = (): Promise<Verification> =>
      backend.name === 'sqlite' ? trail.verify() : auditorVerifies(backend.center());
    for (let i = 1; i <= 4; i++) {
      await trail.append(entry(i));
      await b.append(entry(i));
    }
    await tamper(backend, storage, {
      sqlite: `UPDATE audit SET details = '{"amount":1}' WHERE desk_id = '${DESK_B}' AND seq = 3`,
      postgres: `UPDATE audit.audit SET details = '{"amount":1}' WHERE desk_id = ${pg.escapeLiteral(DESK_B)} AND seq = 3`,
    });
    expect(await contentCheck()).toEqual({
      ok: false,
      rows: 7,
      desks: 2,
      deskId: DESK_B,
      seq: 3,
      reason: 'row 3 was changed after it was written',
    });

    await tamper(backend, storage, {
      sqlite: `DELETE FROM audit WHERE desk_id = '${DESK_A}' AND seq = 2`,
      postgres: `DELETE FROM audit.audit WHERE desk_id = ${pg.escapeLiteral(DESK_A)} AND seq = 2`,
    });
    expect(await b.verify()).toMatchObject({
      ok: false,
      deskId: DESK_A,
      seq: 2,
      reason: 'row 2 is missing (the next one is 3)',
    });

    await tamper(backend, storage, {
      sqlite: `DELETE FROM audit; `,
      postgres: 'TRUNCATE audit.audit, audit.heads',
    });
    await trail.append(entry(1));
    await trail.append(entry(2));
    await tamper(backend, storage, {
      sqlite: `UPDATE audit SET actor = 'sam', hash = 'f' || substr(hash, 2) WHERE seq = 1`,
      postgres: `UPDATE audit.audit SET actor = 'sam', hash = 'f' || substr(hash, 2) WHERE seq = 1`,
    });
    expect(await contentCheck()).toMatchObject({ ok: false, deskId: DESK_A, seq: 1 });
    // The desk on the center sees the link it no longer makes.
    if (backend.name === 'postgres')
      expect(await trail.verify()).toMatchObject({
        ok: false,
        deskId: DESK_A,
        seq: 2,
        reason: 'row 2 does not link to row 1',
      });
  });

  it('never writes a card number, CVV, secret or token given in the details', async () => {
    const { trail } = await open();
    const row = await trail.append({
      actor: 'ana',
      action: 'link.send',
      outcome: 'failed',
      details: { note: 'card 4242 4242 4242 4242', cvv: '123', accessToken: 'tok_abc', clientSecret: 'cs_live_x' },
    });
    const text = JSON.stringify(row.details) + JSON.stringify(await trail.rows());
    for (const forbidden of ['4242 4242 4242 4242', 'tok_abc', 'cs_live_x', '"123"'])
      expect(text).not.toContain(forbidden);
    expect(row.details).toEqual({
      note: 'card [card]',
      cvv: '[redacted]',
      accessToken: '[redacted]',
      clientSecret: '[redacted]',
    });
  });
});

describe('the audit trail on the center: append-only by the database', () => {
  const backends = useStoreBackends([AUDIT_STORE]);
  const postgres = backends.find((backend) => backend.name === 'postgres');
  if (postgres === undefined) throw new Error('useStoreBackends gave no postgres backend');
  const center: StoreBackend = postgres;

  async function filled(): Promise<AuditTrail> {
    const trail = await AuditTrail.open(await center.storage(), { deskId: DESK_A });
    for (let i = 1; i <= 3; i++) await trail.append(entry(i));
    return trail;
  }

  // Two desks at once need two processes on the embedded file (better-sqlite3 waits for the lock synchronously); on the
  // center they are two pools.
  it('two desks appending at the same moment each keep their own unbroken chain', async () => {
    const a = await AuditTrail.open(await center.storage(), { deskId: DESK_A });
    const b = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_B });
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).append(entry(i))));
    const rows = await a.rows();
    for (const desk of [DESK_A, DESK_B])
      expect(rows.filter((r) => r.deskId === desk).map((r) => r.seq)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    expect(await b.verify()).toEqual({ ok: true, rows: 40, desks: 2 });
  });

  it("two desks recording the same payment's result at the same moment write it once", async () => {
    const a = await AuditTrail.open(await center.storage(), { deskId: DESK_A });
    const b = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_B });
    const result = { actor: 'system', action: 'payment.result', outcome: 'ok' as const };
    const written = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a : b).append({ ...result, resource: `pay_${Math.floor(i / 2)}` }, { once: true }),
      ),
    );
    expect(written.filter((row) => row !== undefined)).toHaveLength(5);
    expect((await a.query({ action: 'payment.result' })).map((row) => row.resource).sort()).toEqual([
      'pay_0',
      'pay_1',
      'pay_2',
      'pay_3',
      'pay_4',
    ]);
  });

  it('two copies of one desk appending at once never fork its chain: the unique (desk, number) makes one wait for the other', async () => {
    const a = await AuditTrail.open(await center.storage(), { deskId: DESK_A });
    const twin = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_A });
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : twin).append(entry(i))));
    const rows = await a.rows();
    expect(rows.map((r) => r.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await a.verify()).toEqual({ ok: true, rows: 20, desks: 1 });
  });

  it('a copy of the desk that wrote after this one: the row this one then appends follows it (the remembered last row is read again)', async () => {
    const a = await AuditTrail.open(await center.storage(), { deskId: DESK_A });
    const twin = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_A });
    await a.append(entry(1));
    await twin.append(entry(2));
    await a.append(entry(3));
    await twin.append(entry(4));
    const rows = (await a.rows()).sort((x, y) => x.seq - y.seq);
    expect(rows.map((r) => [r.seq, r.details])).toEqual([1, 2, 3, 4].map((i, n) => [n + 1, entry(i).details]));
    expect(await a.verify()).toEqual({ ok: true, rows: 4, desks: 1 });
  });

  it('a once-only row this desk wrote or found is not asked for again (no statement), and the next row still follows the remembered last one in one statement', async () => {
    const a = await AuditTrail.open(await center.storage(), { deskId: DESK_A });
    const b = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_B });
    const result = (resource: string) => ({
      actor: 'system',
      action: 'payment.result',
      outcome: 'ok' as const,
      resource,
    });
    await a.append(entry(1));
    expect(await a.append(result('pay_1'), { once: true })).toMatchObject({ seq: 2 });
    expect(await b.append(result('pay_2'), { once: true })).toMatchObject({ deskId: DESK_B, seq: 1 });
    expect(await a.append(result('pay_2'), { once: true })).toBeUndefined();
    expect(await b.append(result('pay_3'), { once: true })).toMatchObject({ deskId: DESK_B, seq: 2 });
    // Counted at pg's Client.query, which every statement of the trail goes through.
    const query: (this: pg.Client, ...args: unknown[]) => unknown = Reflect.get(pg.Client.prototype, 'query');
    let statements = 0;
    Reflect.set(pg.Client.prototype, 'query', function (this: pg.Client, ...args: unknown[]) {
      statements += 1;
      return query.apply(this, args);
    });
    try {
      expect(await a.append(result('pay_1'), { once: true })).toBeUndefined();
      expect(await a.append(result('pay_2'), { once: true })).toBeUndefined();
      expect(statements).toBe(0);
      // Written by another desk and not yet known here: one read finds it (no turn taken, nothing written).
      expect(await a.append(result('pay_3'), { once: true })).toBeUndefined();
      expect(statements).toBe(1);
      expect(await a.append(entry(3))).toMatchObject({ seq: 3 });
      expect(statements).toBe(2);
    } finally {
      Reflect.set(pg.Client.prototype, 'query', query);
    }
    expect((await a.query({ action: 'payment.result' })).map((row) => row.resource).sort()).toEqual([
      'pay_1',
      'pay_2',
      'pay_3',
    ]);
    expect(await a.verify()).toEqual({ ok: true, rows: 5, desks: 2 });
  });

  describe('rows the center cannot take, kept on the desk (audit-spool.db)', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'audit-spool-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const kept = (): { action: string; details: string; once: number }[] => {
      const db = new Database(join(dir, AUDIT_SPOOL_FILE), { readonly: true });
      try {
        return db.prepare('SELECT action, details, once FROM spool ORDER BY id').all() as {
          action: string;
          details: string;
          once: number;
        }[];
      } finally {
        db.close();
      }
    };
    const result = { actor: 'system', action: 'payment.result', outcome: 'ok' as const, resource: 'pay_9' };

    it('keeps every row recorded while the center is down, in order, says the outage once; the next start writes them before its own, the chain intact', async () => {
      const errors: unknown[] = [];
      const storage = await center.storage();
      const a = await AuditTrail.open(
        storage,
        { deskId: DESK_A },
        { spoolDir: dir, onError: (error) => errors.push(error) },
      );
      a.record(entry(1));
      await a.flush();
      // The center is gone for this desk (its connections closed).
      await storage.close();
      for (let i = 2; i <= 4; i++) a.record(entry(i));
      a.record(result, { once: true });
      a.record(entry(5));
      await a.flush();
      expect(errors).toHaveLength(1);
      await a.close();
      expect(
        kept().map((row) => [row.action, row.once, (JSON.parse(row.details) as { amount?: number }).amount]),
      ).toEqual([
        ['payment.create', 0, 20],
        ['payment.create', 0, 30],
        ['payment.create', 0, 40],
        ['payment.result', 1, undefined],
        ['payment.create', 0, 50],
      ]);

      const again = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_A }, { spoolDir: dir });
      await again.append(entry(6));
      const rows = await again.rows();
      expect(rows.map((row) => [row.seq, row.action, row.details['amount']])).toEqual([
        [1, 'payment.create', 10],
        [2, 'payment.create', 20],
        [3, 'payment.create', 30],
        [4, 'payment.create', 40],
        [5, 'payment.result', undefined],
        [6, 'payment.create', 50],
        [7, 'payment.create', 60],
      ]);
      expect(await again.verify()).toEqual({ ok: true, rows: 7, desks: 1 });
      expect(kept()).toEqual([]);
    });

    it('the same desk writes what it kept once the center takes rows again (a kept result too), in order, before any later row', async () => {
      const errors: unknown[] = [];
      const a = await AuditTrail.open(
        await center.storage(),
        { deskId: DESK_A },
        { spoolDir: dir, onError: (error) => errors.push(error) },
      );
      a.record(entry(1));
      await a.flush();
      // The center refuses this desk: its role may not sign in, its connections are ended.
      const app = pg.escapeIdentifier(center.center().roles.app.name);
      await center.center().query(`ALTER ROLE ${app} NOLOGIN`);
      try {
        await center
          .center()
          .query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [
            center.center().roles.app.name,
          ]);
        a.record(entry(2));
        a.record(result, { once: true });
        a.record(entry(3));
        await a.flush();
      } finally {
        await center.center().query(`ALTER ROLE ${app} LOGIN`);
      }
      expect(errors).toHaveLength(1);
      expect(kept().map((row) => row.action)).toEqual(['payment.create', 'payment.result', 'payment.create']);
      a.record(entry(4));
      const rows = await a.rows();
      expect(rows.map((row) => [row.seq, row.action, row.details['amount']])).toEqual([
        [1, 'payment.create', 10],
        [2, 'payment.create', 20],
        [3, 'payment.result', undefined],
        [4, 'payment.create', 30],
        [5, 'payment.create', 40],
      ]);
      expect(kept()).toEqual([]);
      expect(await a.verify()).toEqual({ ok: true, rows: 5, desks: 1 });
    });

    it('a kept row already written (the desk stopped between writing it and removing it) is not written twice; a kept result another desk wrote, not at all', async () => {
      const a = await AuditTrail.open(await center.storage(), { deskId: DESK_A }, { spoolDir: dir });
      const written = await a.append(entry(1));
      await a.close();
      const b = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_B });
      await b.append(result, { once: true });
      // The spool as such a stop leaves it: the row written last (with its time at the desk), then rows not written yet.
      const keptAt = written.deskAt ?? written.at;
      const spool = new Database(join(dir, AUDIT_SPOOL_FILE));
      const insert = spool.prepare(
        'INSERT INTO spool (desk_id, at, actor, action, outcome, resource, request_id, details, once) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      insert.run(
        DESK_A,
        keptAt,
        written.actor,
        written.action,
        written.outcome,
        written.resource ?? null,
        written.requestId ?? null,
        JSON.stringify(written.details),
        0,
      );
      insert.run(DESK_A, keptAt, result.actor, result.action, result.outcome, result.resource, null, '{}', 1);
      insert.run(DESK_A, keptAt, 'ana', 'payment.create', 'ok', null, null, '{"amount":20}', 0);
      spool.close();

      const again = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_A }, { spoolDir: dir });
      const rows = (await again.rows()).filter((row) => row.deskId === DESK_A);
      expect(rows.map((row) => [row.seq, row.action, row.details['amount']])).toEqual([
        [1, 'payment.create', 10],
        [2, 'payment.create', 20],
      ]);
      expect(await again.verify()).toEqual({ ok: true, rows: 3, desks: 2 });
      expect(kept()).toEqual([]);
    });

    it('keeps no card number or CVV, in any of 20 spellings: each row is scrubbed before it is kept', async () => {
      const storage = await center.storage();
      const a = await AuditTrail.open(storage, { deskId: DESK_A }, { spoolDir: dir });
      await storage.close();
      for (const [i, { text }] of CARD_SPELLINGS.entries()) {
        const cvv = CVV_PHRASES[i % CVV_PHRASES.length]?.text ?? '';
        a.record({
          actor: text,
          action: `session.${text}`,
          outcome: 'refused',
          resource: `id ${text}`,
          requestId: `req ${text} ${cvv}`,
          details: { note: `${text} ${cvv}`, [text]: 1 },
        });
      }
      await a.flush();
      // Read while the spool is open too: its WAL holds what was kept.
      expect(
        pansInFolder(
          dir,
          CARD_SPELLINGS.map((spelling) => spelling.digits),
        ),
      ).toEqual([]);
      await a.close();
      expect(kept()).toHaveLength(CARD_SPELLINGS.length);
      expect(
        pansInFolder(
          dir,
          CARD_SPELLINGS.map((spelling) => spelling.digits),
        ),
      ).toEqual([]);
      expect(kept().every((row) => !CVV_PHRASES.some((phrase) => row.details.includes(phrase.text)))).toBe(true);
    });

    it('append() never overtakes kept rows: it writes them first, or is refused itself and nothing of it is kept', async () => {
      const storage = await center.storage();
      const a = await AuditTrail.open(storage, { deskId: DESK_A }, { spoolDir: dir });
      await storage.close();
      a.record(entry(1));
      await expect(a.append(entry(2))).rejects.toThrow();
      await a.close();
      expect(kept().map((row) => row.action)).toEqual(['payment.create']);
      const again = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_A }, { spoolDir: dir });
      expect(await again.append(entry(3))).toMatchObject({ seq: 2, details: { amount: 30 } });
      expect((await again.rows()).map((row) => [row.seq, row.details['amount']])).toEqual([
        [1, 10],
        [2, 30],
      ]);
    });
  });

  it('grants the app role SELECT on it and nothing else (the center writes the rows); the auditor SELECT only', async () => {
    await filled();
    const { roles } = center.center();
    const privileges = await center.center().query<{ role: string; privilege: string; has: boolean }>(
      `SELECT r.role, p.privilege, has_table_privilege(r.role, 'audit.audit', p.privilege) AS has
         FROM unnest($1::text[]) AS r(role), unnest(ARRAY['SELECT','INSERT','UPDATE','DELETE','TRUNCATE','REFERENCES','TRIGGER']) AS p(privilege)
        ORDER BY 1, 2`,
      [[roles.app.name, roles.auditor.name]],
    );
    const held = (role: string) => privileges.filter((p) => p.role === role && p.has).map((p) => p.privilege);
    expect(held(roles.app.name)).toEqual(['SELECT']);
    expect(held(roles.auditor.name)).toEqual(['SELECT']);
  });

  it('refuses the app role an UPDATE, a DELETE and a TRUNCATE (permission denied, said for IT)', async () => {
    await filled();
    const storage = await center.anotherDesk();
    const { db } = await storage.open<{ audit: { outcome: string; seq: number } }>(AUDIT_STORE);
    for (const change of [
      db.updateTable('audit').set({ outcome: 'failed' }).where('seq', '=', 1).execute(),
      db.deleteFrom('audit').where('seq', '=', 2).execute(),
    ]) {
      const error: unknown = await change.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: 'center_permission_denied' });
    }
    const client = new pg.Client({ ...center.center().app, password: center.center().roles.app.password, ssl: false });
    await client.connect();
    try {
      await expect(client.query('TRUNCATE audit.audit')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await client.end();
    }
  });

  it('the trigger still refuses a role granted UPDATE, DELETE and TRUNCATE by mistake, and the owner itself', async () => {
    const trail = await filled();
    const { roles } = center.center();
    await center
      .center()
      .query(`GRANT UPDATE, DELETE, TRUNCATE ON audit.audit TO ${pg.escapeIdentifier(roles.app.name)}`);
    try {
      for (const who of [roles.app, roles.owner]) {
        const client = new pg.Client({ ...center.center().app, user: who.name, password: who.password, ssl: false });
        await client.connect();
        try {
          await expect(client.query(`UPDATE audit.audit SET outcome = 'failed' WHERE seq = 1`)).rejects.toThrow(
            /append-only: UPDATE refused/,
          );
          await expect(client.query('DELETE FROM audit.audit WHERE seq = 3')).rejects.toThrow(
            /append-only: DELETE refused/,
          );
          await expect(client.query('TRUNCATE audit.audit')).rejects.toThrow(/append-only: TRUNCATE refused/);
        } finally {
          await client.end();
        }
      }
    } finally {
      await center
        .center()
        .query(`REVOKE UPDATE, DELETE, TRUNCATE ON audit.audit FROM ${pg.escapeIdentifier(roles.app.name)}`);
    }
    expect(await trail.verify()).toEqual({ ok: true, rows: 3, desks: 1 });
  });

  // Not only a superuser can get past the trigger (docs/IT.md must not say so): the owner role owns the
  // table, so it may switch the trigger off (or drop it): its password is kept like a superuser's, and the auditor's
  // check is what shows a row it removed.
  it('the owner role, owning the table, can switch the trigger off and remove a row: the chain check shows where', async () => {
    const trail = await filled();
    const { roles } = center.center();
    const client = new pg.Client({
      ...center.center().app,
      user: roles.owner.name,
      password: roles.owner.password,
      ssl: false,
    });
    await client.connect();
    try {
      await client.query('ALTER TABLE audit.audit DISABLE TRIGGER audit_no_change');
      await client.query('DELETE FROM audit.audit WHERE seq = 2');
    } finally {
      await client.query('ALTER TABLE audit.audit ENABLE TRIGGER audit_no_change').catch(() => undefined);
      await client.end();
    }
    expect((await trail.rows()).map((row) => row.seq)).toEqual([1, 3]);
    expect(await trail.verify()).toMatchObject({ ok: false, deskId: DESK_A, seq: 2 });
  });

  it("a person granted the auditor role verifies every desk's chain on the center (npm run audit:verify -- --center), and is told which desk breaks", async () => {
    const trail = await filled();
    const other = await AuditTrail.open(await center.anotherDesk(), { deskId: DESK_B });
    for (let i = 1; i <= 2; i++) await other.append(entry(i));
    const { roles, database, server } = center.center();
    const person = { name: `${database.name}_alice`, password: 'alice audits 42' };
    await center
      .center()
      .query(`CREATE ROLE ${pg.escapeIdentifier(person.name)} LOGIN PASSWORD ${pg.escapeLiteral(person.password)}`);
    await center
      .center()
      .query(`GRANT ${pg.escapeIdentifier(roles.auditor.name)} TO ${pg.escapeIdentifier(person.name)}`);
    const dir = mkdtempSync(join(tmpdir(), 'audit-center-'));
    const managed = join(dir, 'managed.json');
    writeFileSync(
      managed,
      JSON.stringify({
        settings: {
          center: {
            host: server.host,
            port: server.port,
            database: database.name,
            user: roles.app.name,
            sslmode: 'require',
          },
        },
      }),
    );
    const run = (): { status: number; stdout: string } => {
      try {
        const stdout = execFileSync(
          process.execPath,
          ['--import', 'tsx', 'main/cli/audit-verify.ts', '--center', `--managed=${managed}`],
          {
            encoding: 'utf8',
            env: { ...process.env, PGUSER: person.name, PGPASSWORD: person.password },
          },
        );
        return { status: 0, stdout };
      } catch (error) {
        return error as { status: number; stdout: string };
      }
    };
    try {
      const connection = {
        ...center.center().app,
        user: person.name,
        password: () => Promise.resolve(person.password),
      };
      expect(await verifyCenterAudit(connection)).toEqual({ ok: true, rows: 5, desks: 2 });
      expect(run()).toEqual({ status: 0, stdout: 'audit-verify ok rows=5 desks=2\n' });
      await center
        .center()
        .query(
          `SET session_replication_role = replica; UPDATE audit.audit SET actor = 'eve' WHERE desk_id = ${pg.escapeLiteral(DESK_B)} AND seq = 2`,
        );
      expect(await verifyCenterAudit(connection)).toMatchObject({
        ok: false,
        deskId: DESK_B,
        seq: 2,
        reason: 'row 2 was changed after it was written',
      });
      expect(run()).toMatchObject({
        status: 1,
        stdout: `audit-verify broken desk=${DESK_B} seq=2 rows_checked=5 reason="row 2 was changed after it was written"\n`,
      });
      // A desk's own check walks the numbers and links of the rows the center wrote, not their content (the key is not
      // the desk's): it sees nothing of a changed actor.
      expect(await trail.verify()).toEqual({ ok: true, rows: 5, desks: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await center.center().query(`DROP ROLE ${pg.escapeIdentifier(person.name)}`);
    }
  });

  it("the auditor (a person granted the auditor role) reads every desk's rows and can write nothing", async () => {
    await filled();
    const { roles, database } = center.center();
    // The auditor role cannot sign in: a superuser's session takes it on, as a person granted it would.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(`SET ROLE ${pg.escapeIdentifier(roles.auditor.name)}`);
      expect((await client.query<{ n: string }>('SELECT count(*) AS n FROM audit.audit')).rows).toEqual([{ n: '3' }]);
      await expect(
        client.query(
          `INSERT INTO audit.audit (desk_id, seq, at, actor, action, outcome, details, prev_hash, hash) VALUES ('x', 1, now(), 'a', 'b', 'ok', '{}', '', '')`,
        ),
      ).rejects.toMatchObject({ code: '42501' });
      await expect(client.query(`UPDATE audit.audit SET outcome = 'failed'`)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await client.end();
    }
  });
});

describe('the audit trail in an embedded file', () => {
  let dir: string;
  let file: string;
  const storages: Storage[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-'));
    file = join(dir, 'audit.db');
  });
  afterEach(async () => {
    await Promise.all(storages.splice(0).map((storage) => storage.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function openFile(options: AuditTrailOptions = {}): Promise<AuditTrail> {
    const storage = embeddedStorage(dir);
    storages.push(storage);
    return AuditTrail.open(storage, { deskId: DESK_A }, { now: () => AT, ...options });
  }

  async function fill(count: number): Promise<void> {
    const trail = await openFile();
    for (let i = 1; i <= count; i++) await trail.append(entry(i));
    await trail.close();
  }

  function tamperFile(statement: string): void {
    const db = new Database(file);
    db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
    db.exec(statement);
    db.close();
  }

  it('keeps no spool: the embedded file is on the desk already', async () => {
    const trail = await openFile({ spoolDir: dir });
    await trail.append(entry(1));
    await trail.close();
    expect(existsSync(join(dir, AUDIT_SPOOL_FILE))).toBe(false);
  });

  it('refuses updates and deletes through SQL (append-only)', async () => {
    await fill(2);
    const db = new Database(file);
    expect(() => db.exec("UPDATE audit SET outcome = 'failed' WHERE seq = 1")).toThrow(/append-only/);
    expect(() => db.exec('DELETE FROM audit WHERE seq = 2')).toThrow(/append-only/);
    db.close();
  });

  it("adopts a file written before desks had ids: its rows kept and verified as this desk's, new rows continuing its chain", async () => {
    // Rows hashed as the app wrote them before this version (test/support/legacy-audit.ts).
    const prev = writeLegacyAuditFile(dir, 3);

    const trail = await openFile({ headFile: join(dir, 'audit-head.json') });
    expect(await trail.verify()).toEqual({ ok: true, rows: 3, desks: 1 });
    const next = await trail.append(entry(4));
    expect(next).toMatchObject({ deskId: DESK_A, seq: 4, prevHash: prev });
    expect((await trail.rows()).map((r) => [r.id, r.deskId, r.seq])).toEqual([
      [1, DESK_A, 1],
      [2, DESK_A, 2],
      [3, DESK_A, 3],
      [4, DESK_A, 4],
    ]);
    expect(await trail.verify()).toEqual({ ok: true, rows: 4, desks: 1 });
  });

  it('no column keeps a card number or CVV, in any of 20 spellings: actor, action, resource, request id and details', async () => {
    const trail = await openFile();
    for (const [i, { text }] of CARD_SPELLINGS.entries()) {
      const cvv = CVV_PHRASES[i % CVV_PHRASES.length]?.text ?? '';
      await trail.append({
        actor: text,
        action: `session.${text}`,
        outcome: 'refused',
        resource: `id ${text}`,
        requestId: `req ${text} ${cvv}`,
        details: { note: `${text} ${cvv}`, [text]: 1 },
      });
    }
    expect(await trail.verify()).toMatchObject({ ok: true, rows: 20 });
    const rows = await trail.rows();
    await trail.close();
    // Every byte of the database and its journal files, read as Latin-1, UTF-8 and UTF-16.
    expect(
      pansInFolder(
        dir,
        CARD_SPELLINGS.map((s) => s.digits),
      ),
    ).toEqual([]);
    expect(rows.map((r) => r.actor)).toEqual(Array.from({ length: 20 }, () => '[card]'));
    expect(
      rows.every(
        (r) => r.resource === 'id [card]' && r.action === 'session.[card]' && r.requestId?.startsWith('req [card] '),
      ),
    ).toBe(true);
    for (const [i, row] of rows.entries()) {
      const cvv = CVV_PHRASES[i % CVV_PHRASES.length];
      expect(row.details).toEqual({ note: `[card] ${cvv?.text.replace(cvv.value, '[redacted]')}`, '[card]': 1 });
    }
  });

  it('audit:verify prints one line and exits 1 at a broken link', async () => {
    await fill(3);
    const run = (): string =>
      execFileSync(process.execPath, ['--import', 'tsx', 'main/cli/audit-verify.ts', file], { encoding: 'utf8' });
    expect(run()).toBe('audit-verify ok rows=3 desks=1\n');
    tamperFile("UPDATE audit SET outcome = 'refused' WHERE seq = 2");
    let failure: { status?: number; stdout?: string } = {};
    try {
      run();
    } catch (error) {
      failure = error as { status: number; stdout: string };
    }
    expect(failure.status).toBe(1);
    expect(failure.stdout).toBe(
      `audit-verify broken desk=${DESK_A} seq=2 rows_checked=2 reason="row 2 was changed after it was written"\n`,
    );
  });

  it('rows cut off the end leave an intact chain: the head kept beside the database shows them', async () => {
    const headFile = join(dir, 'audit-head.json');
    const trail = await openFile({ headFile });
    for (let i = 1; i <= 4; i++)
      await trail.append({ actor: 'sam', action: 'refund.create', outcome: 'ok', resource: `pay_${i}` });
    expect(await trail.verify()).toEqual({ ok: true, rows: 4, desks: 1 });
    await trail.close();

    tamperFile('DELETE FROM audit WHERE seq >= 3');
    // Without the head the shorter chain is still a valid chain…
    expect(await (await openFile()).verify()).toEqual({ ok: true, rows: 2, desks: 1 });
    // …with it, the cut is reported, and by the command too (it reads audit-head.json beside the file).
    expect(await (await openFile({ headFile })).verify()).toEqual({
      ok: false,
      rows: 2,
      desks: 1,
      deskId: DESK_A,
      seq: 3,
      reason: 'rows 3 to 4 were removed from the end',
    });
    let failure: { status?: number; stdout?: string } = {};
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'main/cli/audit-verify.ts', file], { encoding: 'utf8' });
    } catch (error) {
      failure = error as { status: number; stdout: string };
    }
    expect(failure.status).toBe(1);
    expect(failure.stdout).toContain('seq=3');
  });

  it('a head one row behind (the app stopped between the row and its head) is accepted; a head naming another row is not', async () => {
    const headFile = join(dir, 'audit-head.json');
    const trail = await openFile({ headFile });
    const first = await trail.append({ actor: 'ana', action: 'session.signIn', outcome: 'ok' });
    await trail.append({ actor: 'ana', action: 'session.signOut', outcome: 'ok' });
    writeFileSync(headFile, JSON.stringify({ deskId: DESK_A, seq: first.seq, hash: first.hash }));
    expect(await trail.verify()).toEqual({ ok: true, rows: 2, desks: 1 });
    writeFileSync(headFile, JSON.stringify({ deskId: DESK_A, seq: 2, hash: first.hash }));
    expect(await trail.verify()).toMatchObject({
      ok: false,
      seq: 2,
      reason: 'row 2 is not the one that was written last',
    });
  });
});

describe("a chain's rows of before desk ids, moved into the center under the desk's id (main/center/move-in)", () => {
  /** Rows chained as the app wrote them: `legacy` ones hashed without a desk (before desk ids), the others with DESK_A. */
  function chain(kinds: readonly ('legacy' | 'desk')[]): ChainRow[] {
    let prev = GENESIS;
    return kinds.map((kind, index) => {
      const row = {
        desk_id: DESK_A,
        seq: index + 1,
        at: '2026-01-01T00:00:00.000Z',
        actor: 'ana',
        action: 'session.signIn',
        outcome: 'ok',
        resource: null,
        request_id: null,
        details: '{}',
      };
      const fields = [row.seq, row.at, row.actor, row.action, row.outcome, row.resource, row.request_id, row.details];
      const hash = createHash('sha256')
        .update(prev)
        .update(JSON.stringify(kind === 'legacy' ? fields : [DESK_A, ...fields]))
        .digest('hex');
      const written = { ...row, prev_hash: prev, hash };
      prev = hash;
      return written;
    });
  }
  const walk = (rows: readonly ChainRow[]) =>
    walkChain((fromSeq, limit) => Promise.resolve(rows.filter((row) => row.seq >= fromSeq).slice(0, limit)));

  it('verifies a chain that opens with rows hashed without their desk', async () => {
    expect(await walk(chain(['legacy', 'legacy', 'desk', 'desk']))).toEqual({ ok: true, rows: 4, last: 4 });
  });

  it('refuses a row hashed without its desk after one hashed with it (only the opening rows can be of before)', async () => {
    expect(await walk(chain(['legacy', 'desk', 'legacy']))).toEqual({
      ok: false,
      rows: 3,
      seq: 3,
      reason: 'row 3 was changed after it was written',
    });
  });
});
