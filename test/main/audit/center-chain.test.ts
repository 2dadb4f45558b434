// The audit trail as the center writes it (main/audit/center-chain.ts), on a real PostgreSQL set up by setup.sql: a
// desk's own login, used with `pg` as an attacker holding its password would, writes no row itself, reads no key and
// writes for no other desk; the rows audit.append writes carry the center's time, the actor's session at the desk and an
// HMAC only the center's key makes; the auditor's audit.verify_chain names any row changed, removed or added behind the
// center's back; one desk's appends at once never fork its chain; and a center of the previous schema keeps every row.
import { createHmac, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_STORE, AuditTrail, GENESIS, verifyCenterAudit, type Verification } from '../../../main/audit';
import { rowHash } from '../../../main/audit/chain';
import { OPERATORS_STORE } from '../../../main/operators/store';
import {
  centerStorage,
  migrateCenter,
  type CenterConnectionOptions,
  type Storage,
  type StoreDefinition,
} from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';

let center: TestCenter;
const storages: Storage[] = [];

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: [OPERATORS_STORE, AUDIT_STORE] });
}, 120_000);

afterAll(async () => {
  await Promise.all(storages.map((storage) => storage.close()));
  await center.drop();
});

/** A client on a login, as `pg` gives it to whoever has the password. */
async function client(connection: CenterConnectionOptions): Promise<pg.Client> {
  const opened = new pg.Client({
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password: await connection.password(),
  });
  await opened.connect();
  return opened;
}

/** The SQLSTATE a statement fails with ('ok' when it does not). */
const refusal = (run: Promise<unknown>): Promise<string> =>
  run.then(
    () => 'ok',
    (error: unknown) => (error as { code?: string }).code ?? String(error),
  );

interface CenterRow {
  id: string;
  desk_id: string;
  seq: string;
  at: Date;
  actor: string;
  action: string;
  outcome: string;
  resource: string | null;
  request_id: string | null;
  details: string;
  prev_hash: string;
  hash: string;
  keyed: boolean;
  desk_at: Date | null;
  actor_session: string | null;
}

const APPEND = 'SELECT * FROM audit.append($1, $2, $3, $4, $5, $6, $7, $8)';
const appendOf = (deskId: string | null, actor: string, action = 'refund.approve', deskAt = new Date()) => [
  deskId,
  deskAt.toISOString(),
  actor,
  action,
  'ok',
  'pay_1',
  'req_1',
  JSON.stringify({ note: 'a "quoted" word, a \\ backslash, a line\nbreak, ¿qué? ✓' }),
];

/** audit.verify_chain as a person granted the auditor role runs it (npm run audit:verify -- --center). */
async function auditorVerifies(on: TestCenter = center): Promise<Verification> {
  const person = { name: `${on.database.name}_alice`, password: 'alice audits 42' };
  await on.query(`CREATE ROLE ${pg.escapeIdentifier(person.name)} LOGIN PASSWORD ${pg.escapeLiteral(person.password)}`);
  await on.query(`GRANT ${pg.escapeIdentifier(on.roles.auditor.name)} TO ${pg.escapeIdentifier(person.name)}`);
  try {
    return await verifyCenterAudit({ ...on.app, user: person.name, password: () => Promise.resolve(person.password) });
  } finally {
    await on.query(`DROP ROLE ${pg.escapeIdentifier(person.name)}`);
  }
}

/** As a superuser who turns the triggers off: what no desk can do, and what the auditor's check must show. */
async function behindTheCenter(statement: string, values: unknown[] = [], on: TestCenter = center): Promise<void> {
  const superuser = new pg.Client({ connectionString: on.database.url });
  await superuser.connect();
  try {
    await superuser.query('SET session_replication_role = replica');
    await superuser.query(statement, values);
  } finally {
    await superuser.end();
  }
}

const iso = (date: Date): string => date.toISOString();
/** A time as audit.keyed_hash writes it: to the microsecond (the center keeps milliseconds). */
const isoMicro = (date: Date | null): string | null => (date === null ? null : iso(date).replace(/Z$/, '000Z'));

/** The hash of a row the center wrote, as the documented contract says: HMAC-SHA-256(key, prev_hash || its JSON text). */
function keyedHash(key: Buffer, row: CenterRow): string {
  const text = JSON.stringify([
    row.desk_id,
    Number(row.seq),
    isoMicro(row.at),
    isoMicro(row.desk_at),
    row.actor,
    row.action,
    row.outcome,
    row.resource,
    row.request_id,
    row.details,
    row.actor_session,
  ]);
  return createHmac('sha256', key).update(row.prev_hash).update(text).digest('hex');
}

/** The plain SHA-256 a desk computed, on its file and on the center before it wrote the trail itself. */
const plainHash = rowHash;

const rowsOf = (deskId: string): Promise<CenterRow[]> =>
  center.query<CenterRow>('SELECT * FROM audit.audit WHERE desk_id = $1 ORDER BY seq', [deskId]);

describe("a desk's own login, used with pg", () => {
  it('writes no row itself, reads no key, writes for no other desk; what audit.append writes is the center’s', async () => {
    const deskA = randomUUID();
    const deskB = randomUUID();
    const a = await center.addDesk({ deskId: deskA });
    await center.addDesk({ deskId: deskB });
    const attacker = await client(a);
    try {
      // A row with a valid plain hash, as any desk could compute one: refused, in the desk's own chain too.
      const forged = {
        desk_id: deskA,
        seq: 1,
        at: iso(new Date()),
        actor: 'sam',
        action: 'refund.approve',
        outcome: 'ok',
        resource: 'pay_1',
        request_id: null,
        details: '{}',
      };
      expect(
        await refusal(
          attacker.query(
            'INSERT INTO audit.audit (desk_id, seq, at, actor, action, outcome, resource, request_id, details, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
            [...Object.values(forged), GENESIS, plainHash(GENESIS, forged)],
          ),
        ),
      ).toBe('42501');
      expect(await refusal(attacker.query('SELECT * FROM audit_key.chain_key'))).toBe('42501');
      expect(await refusal(attacker.query('UPDATE audit.heads SET seq = 0'))).toBe('42501');
      expect(await refusal(attacker.query('SELECT * FROM audit.verify_chain()'))).toBe('42501');
      // Another desk's chain, by its argument: refused (the login says whose desk it is).
      expect(await refusal(attacker.query(APPEND, appendOf(deskB, 'sam')))).toBe('42501');
      expect(await rowsOf(deskB)).toEqual([]);

      // Its own chain: the desk says what happened and when; the center says when it wrote it, and hashes it.
      const claimed = new Date('2001-01-01T00:00:00.000Z');
      const before = Date.now();
      const { rows } = await attacker.query<CenterRow>(APPEND, appendOf(null, 'ana', 'refund.request', claimed));
      const [row] = await rowsOf(deskA);
      expect(rows[0]).toMatchObject({
        desk_id: deskA,
        seq: '1',
        prev_hash: GENESIS,
        keyed: true,
        desk_at: claimed,
        actor: 'ana',
      });
      expect(row?.at.getTime()).toBeGreaterThanOrEqual(before - 5_000);
      const [{ key }] = (await center.query<{ key: Buffer }>('SELECT key FROM audit_key.chain_key')) as [
        { key: Buffer },
      ];
      expect(key).toHaveLength(32);
      expect(row?.hash).toBe(keyedHash(key, row as CenterRow));

      // Its files' rows go nowhere after the center's: move_in_rows refuses the chain whole.
      const plain = {
        desk_id: deskA,
        seq: 2,
        at: iso(new Date()),
        actor: 'sam',
        action: 'refund.approve',
        outcome: 'ok',
        resource: null,
        request_id: null,
        details: '{}',
      };
      const move = (deskId: string | null) =>
        attacker.query('SELECT audit.move_in_rows($1, $2::jsonb)', [
          deskId,
          JSON.stringify([{ ...plain, prev_hash: row?.hash, hash: plainHash(row?.hash ?? '', plain) }]),
        ]);
      expect(await refusal(move(null))).toBe('AU001');
      expect(await refusal(move(deskB))).toBe('42501');
    } finally {
      await attacker.end();
    }
    // Nor does the auditor read the key.
    const auditor = new pg.Client({ connectionString: center.database.url });
    await auditor.connect();
    try {
      await auditor.query(`SET ROLE ${pg.escapeIdentifier(center.roles.auditor.name)}`);
      expect(await refusal(auditor.query('SELECT * FROM audit_key.chain_key'))).toBe('42501');
      expect((await auditor.query('SELECT count(*)::int AS n FROM audit.heads')).rows).toEqual([{ n: 1 }]);
    } finally {
      await auditor.end();
    }
    expect(await auditorVerifies()).toMatchObject({ ok: true });
  });

  it("records whether the actor had a session at the writing desk: a forged 'sam approved' from a desk sam is not signed in at stands out", async () => {
    const deskA = randomUUID();
    const deskB = randomUUID();
    const a = await center.addDesk({ deskId: deskA });
    await center.query(
      `INSERT INTO operators.sessions (operator_id, session_id, desk_id, started_at, last_seen_at) VALUES
         ('ana', $1, $2, 1, 1), ('sam', $3, $4, 1, 1)`,
      [randomUUID(), deskA, randomUUID(), deskB],
    );
    const storage = centerStorage(a);
    storages.push(storage);
    const trail = await AuditTrail.open(storage, { deskId: deskA });
    try {
      expect(
        await trail.append({ actor: 'ana', action: 'refund.request', outcome: 'ok', resource: 'pay_1' }),
      ).toMatchObject({
        writtenBy: 'center',
        actorSession: 'open',
      });
      // sam is signed in at desk B, not here.
      expect(
        await trail.append({ actor: 'sam', action: 'refund.approve', outcome: 'ok', resource: 'pay_1' }),
      ).toMatchObject({
        actorSession: 'none',
      });
      await center.query(`UPDATE operators.sessions SET locked = 1 WHERE operator_id = 'ana'`);
      expect(await trail.append({ actor: 'ana', action: 'session.lock', outcome: 'ok' })).toMatchObject({
        actorSession: 'locked',
      });
      expect(await trail.append({ actor: 'system', action: 'payment.result', outcome: 'ok' })).toMatchObject({
        actorSession: 'none',
      });
      const rows = await trail.query({ deskId: deskA });
      expect(rows.map((row) => [row.actor, row.actorSession])).toEqual([
        ['system', 'none'],
        ['ana', 'locked'],
        ['sam', 'none'],
        ['ana', 'open'],
      ]);
    } finally {
      await trail.close();
    }
  });
});

describe("the auditor's audit.verify_chain", () => {
  it('verifies every chain, and names the row a superuser changed, removed or added with the triggers off', async () => {
    const deskId = randomUUID();
    const desk = await center.addDesk({ deskId });
    const storage = centerStorage(desk);
    storages.push(storage);
    const trail = await AuditTrail.open(storage, { deskId });
    for (let i = 1; i <= 5; i++)
      await trail.append({ actor: 'ana', action: 'payment.create', outcome: 'ok', details: { i } });
    await trail.close();
    const clean = await auditorVerifies();
    expect(clean).toMatchObject({ ok: true });
    const broken = (seq: number, reason: string) => ({ ok: false, deskId, seq, reason });
    const [, , third, , fifth] = await rowsOf(deskId);
    if (third === undefined || fifth === undefined) throw new Error('five rows were written');
    const columns = Object.keys(third);
    const putBack = (row: CenterRow) =>
      behindTheCenter(
        `INSERT INTO audit.audit (${columns.join(', ')}) OVERRIDING SYSTEM VALUE VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        columns.map((column) => row[column as keyof CenterRow]),
      );

    // A row's content changed: its keyed hash no longer holds.
    await behindTheCenter(`UPDATE audit.audit SET details = '{"i":30}' WHERE desk_id = $1 AND seq = 3`, [deskId]);
    expect(await auditorVerifies()).toMatchObject(broken(3, 'row 3 was changed after it was written'));
    await behindTheCenter('UPDATE audit.audit SET details = $2 WHERE desk_id = $1 AND seq = 3', [
      deskId,
      third.details,
    ]);
    expect(await auditorVerifies()).toEqual(clean);

    // A row removed, in the middle and at the end (the center's head of the chain says where it ended).
    await behindTheCenter('DELETE FROM audit.audit WHERE desk_id = $1 AND seq = 3', [deskId]);
    expect(await auditorVerifies()).toMatchObject(broken(3, 'row 3 is missing (the next one is 4)'));
    await putBack(third);
    await behindTheCenter('DELETE FROM audit.audit WHERE desk_id = $1 AND seq = 5', [deskId]);
    expect(await auditorVerifies()).toMatchObject(broken(5, 'rows 5 to 5 were removed from the end'));
    await putBack(fifth);
    expect(await auditorVerifies()).toEqual(clean);

    // A row added after the last, hashed with plain SHA-256 as a desk (or anyone) could: not the center's.
    const forged = {
      desk_id: deskId,
      seq: 6,
      at: iso(new Date()),
      actor: 'sam',
      action: 'refund.approve',
      outcome: 'ok',
      resource: 'pay_1',
      request_id: null,
      details: '{}',
    };
    const insert = (keyed: boolean) =>
      behindTheCenter(
        'INSERT INTO audit.audit (desk_id, seq, at, actor, action, outcome, resource, request_id, details, prev_hash, hash, keyed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)',
        [...Object.values(forged), fifth.hash, plainHash(fifth.hash, forged), keyed],
      );
    await insert(false);
    expect(await auditorVerifies()).toMatchObject(
      broken(6, 'row 6 was not written by the center (it writes this chain from row 1 on)'),
    );
    await behindTheCenter('DELETE FROM audit.audit WHERE desk_id = $1 AND seq = 6', [deskId]);
    await insert(true);
    expect(await auditorVerifies()).toMatchObject(broken(6, 'row 6 was changed after it was written'));
    // The desk's own check sees the same row: it links, but the center never wrote it (its head is row 5).
    const reader = await AuditTrail.open(storage, { deskId });
    expect(await reader.verify()).toMatchObject(broken(6, 'rows 6 to 6 were not written by the center'));
    await reader.close();
    await behindTheCenter('DELETE FROM audit.audit WHERE desk_id = $1 AND seq = 6', [deskId]);
    expect(await auditorVerifies()).toEqual(clean);
  });

  it("one desk's appends at once, from two connections of its login and the shared role naming it, never fork its chain", async () => {
    const deskId = randomUUID();
    const desk = await center.addDesk({ deskId });
    const writers = [await client(desk), await client(desk), await client(center.app)];
    try {
      // Three connections, each appending 20 rows one after the other, all at the same time.
      await Promise.all(
        writers.map(async (writer, w) => {
          for (let i = 0; i < 20; i++)
            await writer.query(APPEND, appendOf(w === 2 ? deskId : null, `op${w}-${i}`, 'payment.create'));
        }),
      );
    } finally {
      await Promise.all(writers.map((writer) => writer.end()));
    }
    const rows = await rowsOf(deskId);
    expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.prev_hash).toBe(rows[i - 1]?.hash);
    expect(new Set(rows.map((row) => row.actor)).size).toBe(60);
    expect(await center.query('SELECT seq::int AS seq, hash FROM audit.heads WHERE desk_id = $1', [deskId])).toEqual([
      { seq: 60, hash: rows.at(-1)?.hash },
    ]);
    expect(await auditorVerifies()).toMatchObject({ ok: true });
  });

  it("takes a desk's plain chain through move_in_rows only into its own chain, after the center's last row, each row verified", async () => {
    const deskId = randomUUID();
    const desk = await center.addDesk({ deskId });
    const mover = await client(desk);
    try {
      let prev = GENESIS;
      const chain = Array.from({ length: 3 }, (_, i) => {
        const row = {
          desk_id: deskId,
          seq: i + 1,
          at: '2026-01-01T00:00:00.000Z',
          actor: 'ana',
          action: 'session.signIn',
          outcome: 'ok',
          resource: null,
          request_id: null,
          details: '{}',
        };
        const hash = plainHash(prev, row);
        const moved = { ...row, prev_hash: prev, hash };
        prev = hash;
        return moved;
      });
      const move = (rows: readonly object[]) =>
        mover.query<{ moved: number }>('SELECT audit.move_in_rows(NULL, $1::jsonb) AS moved', [JSON.stringify(rows)]);
      // A row changed in the file does not verify; a row that skips one does not follow the center's last.
      expect(await refusal(move([{ ...chain[0], details: '{"x":1}' }]))).toBe('AU001');
      expect(await refusal(move(chain.slice(1, 2)))).toBe('AU001');
      expect((await move(chain.slice(0, 2))).rows).toEqual([{ moved: 2 }]);
      // Again: what is there is passed over.
      expect((await move(chain)).rows).toEqual([{ moved: 1 }]);
      expect((await rowsOf(deskId)).map((row) => [Number(row.seq), row.keyed])).toEqual([
        [1, false],
        [2, false],
        [3, false],
      ]);
      // The desk's first row on the center follows its files' last, and from then on its files are closed.
      const { rows } = await mover.query<CenterRow>(APPEND, appendOf(null, 'ana'));
      expect(rows[0]).toMatchObject({ seq: '4', prev_hash: chain[2]?.hash, keyed: true });
      expect(await refusal(move(chain))).toBe('AU001');
    } finally {
      await mover.end();
    }
    expect(await auditorVerifies()).toMatchObject({ ok: true });
  });
});

describe('a center migrated from the previous schema, where the desks wrote their rows themselves', () => {
  it('keeps every row, verifies them the old way, and seals them with the first row the center writes', async () => {
    const old = await createCenter(await testPostgres());
    try {
      const previous: StoreDefinition = {
        ...AUDIT_STORE,
        postgres: {
          migrations: Object.fromEntries(
            Object.entries(AUDIT_STORE.postgres.migrations).filter(([name]) => name < '0003'),
          ),
          grants: { audit: ['SELECT', 'INSERT'] },
        },
      };
      await migrateCenter(old.owner, [previous]);
      const desks = [randomUUID(), randomUUID()];
      const hashes: Record<string, string[]> = {};
      const logins: Record<string, CenterConnectionOptions> = {};
      for (const deskId of desks) {
        const login = await old.addDesk({ deskId });
        logins[deskId] = login;
        const writer = await client(login);
        try {
          let prev = GENESIS;
          hashes[deskId] = [];
          // As the previous trail wrote them (rowHash, one INSERT each), with text that JSON escapes.
          for (let seq = 1; seq <= 4; seq++) {
            const row = {
              desk_id: deskId,
              seq,
              at: new Date(Date.UTC(2026, 10, 23, 10, 0, seq, 123)).toISOString(),
              actor: seq === 2 ? 'Zoë "la jefa"' : 'ana',
              action: 'payment.create',
              outcome: 'ok',
              resource: seq === 3 ? null : `pay_${seq}`,
              request_id: seq === 3 ? 'req\t\u0001\\' : null,
              details: JSON.stringify({ amount: seq * 10, note: 'línea\nnueva 😀 \u2028' }),
            };
            const hash = plainHash(prev, row);
            await writer.query(
              'INSERT INTO audit.audit (desk_id, seq, at, actor, action, outcome, resource, request_id, details, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
              [...Object.values(row), prev, hash],
            );
            hashes[deskId]?.push(hash);
            prev = hash;
          }
        } finally {
          await writer.end();
        }
      }

      await migrateCenter(old.owner, [AUDIT_STORE]);
      const kept = await old.query<{ desk_id: string; hash: string; keyed: boolean }>(
        'SELECT desk_id, hash, keyed FROM audit.audit ORDER BY desk_id, seq',
      );
      expect(kept).toEqual(
        [...desks]
          .sort()
          .flatMap((deskId) => (hashes[deskId] ?? []).map((hash) => ({ desk_id: deskId, hash, keyed: false }))),
      );
      expect(await auditorVerifies(old)).toEqual({ ok: true, rows: 8, desks: 2 });

      // The desks' logins write no row themselves any more; their next row is the center's, after their last.
      const [first] = desks as [string, string];
      const login = logins[first];
      if (login === undefined) throw new Error('each desk has its login');
      const writer = await client(login);
      try {
        expect(
          await refusal(
            writer.query(
              `INSERT INTO audit.audit (desk_id, seq, at, actor, action, outcome, details, prev_hash, hash) VALUES ($1, 5, now(), 'sam', 'refund.approve', 'ok', '{}', 'x', 'y')`,
              [first],
            ),
          ),
        ).toBe('42501');
      } finally {
        await writer.end();
      }
      const storage = centerStorage(login);
      storages.push(storage);
      const trail = await AuditTrail.open(storage, { deskId: first });
      expect(await trail.append({ actor: 'ana', action: 'session.signIn', outcome: 'ok' })).toMatchObject({
        seq: 5,
        prevHash: hashes[first]?.[3],
        writtenBy: 'center',
      });
      expect(await trail.verify()).toEqual({ ok: true, rows: 9, desks: 2 });
      await trail.close();
      expect(await auditorVerifies(old)).toEqual({ ok: true, rows: 9, desks: 2 });

      // Whoever rewrites an old row and every plain hash after it (all anyone needs is SHA-256) still breaks the chain
      // where the center's first row holds the old last hash under its key.
      const rows = await old.query<{
        seq: string;
        at: Date;
        actor: string;
        action: string;
        outcome: string;
        resource: string | null;
        request_id: string | null;
        details: string;
      }>(
        'SELECT seq, at, actor, action, outcome, resource, request_id, details FROM audit.audit WHERE desk_id = $1 AND NOT keyed ORDER BY seq',
        [first],
      );
      let prev = GENESIS;
      for (const row of rows) {
        const rewritten = {
          ...row,
          desk_id: first,
          seq: Number(row.seq),
          at: iso(row.at),
          actor: row.seq === '2' ? 'eve' : row.actor,
        };
        const hash = plainHash(prev, rewritten);
        await behindTheCenter(
          'UPDATE audit.audit SET actor = $1, prev_hash = $2, hash = $3 WHERE desk_id = $4 AND seq = $5',
          [rewritten.actor, prev, hash, first, rewritten.seq],
          old,
        );
        prev = hash;
      }
      expect(await auditorVerifies(old)).toMatchObject({
        ok: false,
        deskId: first,
        seq: 5,
        reason: 'row 5 does not link to row 4',
      });
    } finally {
      await old.drop();
    }
  }, 120_000);
});
