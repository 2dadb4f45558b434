// Rows that name their desk, on a real PostgreSQL with every store of the center: two desks on their own credentials
// (docs/center/add-desk.sql) take payments through their engines; one desk's stolen password, used with `pg` directly,
// cannot add a row stamped with the other desk (a journal operation, an attempt, an audit row, a refund request) nor
// move a row from one desk to another, while that desk goes on taking payments.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CENTER_STORES, deskIdentity, registerDesk } from '../../../main/center';
import type { PaymentView } from '../../../main/payments';
import { centerStorage, type CenterConnectionOptions, type Storage } from '../../../main/storage';
import { createCenter, refused, type TestCenter } from '../../support/center';
import { useEngineDesks, type EngineDesk } from '../../support/engine-desks';
import { testPostgres } from '../../support/pg';

const VISA = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' };

let center: TestCenter;
let folder: string;
const storages: Storage[] = [];
const { openDesk } = useEngineDesks();

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
  folder = await mkdtemp(path.join(tmpdir(), 'cpd-desk-rows-'));
}, 120_000);

afterAll(async () => {
  await Promise.all(storages.map((storage) => storage.close()));
  await center.drop();
  await rm(folder, { recursive: true, force: true });
});

/** A desk with its own credential, registered on the center (its id bound to its login), its engine open. */
async function ownDesk(name: string): Promise<EngineDesk & { deskId: string; credential: CenterConnectionOptions }> {
  const credential = await center.addDesk();
  const dir = path.join(folder, name);
  const identity = await deskIdentity(dir);
  const storage = centerStorage(credential);
  storages.push(storage);
  await registerDesk(storage, identity, dir, { host: name });
  const desk = await openDesk(Promise.resolve(storage), identity);
  return { ...desk, deskId: identity.deskId, credential };
}

async function pay(desk: EngineDesk, reservationId: string): Promise<PaymentView> {
  const method = await desk.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
  return desk.engine.pay({
    methodId: method.id,
    amountCents: 2_500,
    currency: 'usd',
    reservationId,
    operatorId: 'ana',
  });
}

describe('rows that name their desk', () => {
  it('one desk’s credential adds no row stamped with another desk and moves no row, while it goes on taking payments', async () => {
    const a = await ownDesk('PC-A');
    const b = await ownDesk('PC-B');
    await pay(a, `CUN-${randomUUID().slice(0, 6)}`);
    const paidAtB = await pay(b, `CUN-${randomUUID().slice(0, 6)}`);

    const attacker = new pg.Client({
      host: a.credential.host,
      port: a.credential.port,
      database: a.credential.database,
      user: a.credential.user,
      password: await a.credential.password(),
    });
    await attacker.connect();
    try {
      const now = Date.now();
      expect(
        await refused(
          attacker.query(
            `INSERT INTO journal.operations (key, operation_id, kind, fingerprint, payload, resendable, state,
               reservation_id, operator_id, created_at, desk_id, reservation_key)
             VALUES ($1, $2, 'create_payment', 'f', '{}', 1, 'reconcile', 'CUN-X', 'ana', $3, $4, 'CUNX')`,
            [randomUUID(), randomUUID(), now, b.deskId],
          ),
        ),
      ).toBe('42501');
      expect(
        await refused(
          attacker.query(
            `INSERT INTO journal.attempts (idempotency_key, operation, attempt, request_id, status, elapsed_ms, at, desk_id)
             VALUES (NULL, 'GET /payments', 1, 'r', '200', 1, $1, $2)`,
            [now, b.deskId],
          ),
        ),
      ).toBe('42501');
      expect(
        await refused(
          attacker.query(
            `INSERT INTO audit.audit (desk_id, seq, at, actor, action, outcome, details, prev_hash, hash)
             VALUES ($1, 999999, now(), 'sam', 'refund.approve', 'ok', '{}', 'x', 'y')`,
            [b.deskId],
          ),
        ),
      ).toBe('42501');
      expect(
        await refused(
          attacker.query(
            `INSERT INTO refund_requests.requests (id, payment_id, currency, reason, status, requested_by, requested_at, desk_id)
             VALUES ($1, $2, 'usd', 'duplicate', 'pending', 'ana', now(), $3)`,
            [randomUUID(), paidAtB.id, b.deskId],
          ),
        ),
      ).toBe('42501');
      // A lease names the desk that holds it: none is taken in B's name, nor handed to B.
      expect(
        await refused(
          attacker.query(
            `INSERT INTO journal.payment_leases (payment_id, desk_id, operator_id, token, expires_at) VALUES ($1, $2, 'ana', 't', $3)`,
            [paidAtB.id, b.deskId, now + 60_000],
          ),
        ),
      ).toBe('42501');
      expect(
        await attacker.query(
          `INSERT INTO journal.payment_leases (payment_id, desk_id, operator_id, token, expires_at) VALUES ($1, $2, 'ana', 't', $3)`,
          [paidAtB.id, a.deskId, now + 60_000],
        ),
      ).toMatchObject({ rowCount: 1 });
      expect(
        await refused(
          attacker.query('UPDATE journal.payment_leases SET desk_id = $1 WHERE payment_id = $2', [
            b.deskId,
            paidAtB.id,
          ]),
        ),
      ).toBe('42501');
      // B's lease still running is not A's to take; once run out, it is.
      const paidAtA = await pay(a, `CUN-${randomUUID().slice(0, 6)}`);
      await center.query(
        `INSERT INTO journal.payment_leases (payment_id, desk_id, operator_id, token, expires_at) VALUES ($1, $2, 'luis', 'b', $3)`,
        [paidAtA.id, b.deskId, now + 3_600_000],
      );
      const takeOver = (): Promise<pg.QueryResult> =>
        attacker.query(`UPDATE journal.payment_leases SET desk_id = $1, token = 'mine' WHERE payment_id = $2`, [
          a.deskId,
          paidAtA.id,
        ]);
      expect(await takeOver()).toMatchObject({ rowCount: 0 });
      await center.query('UPDATE journal.payment_leases SET expires_at = $1 WHERE payment_id = $2', [
        now - 1,
        paidAtA.id,
      ]);
      expect(await takeOver()).toMatchObject({ rowCount: 1 });
      // A row's desk never changes: B's payment is not made A's, nor A's operations B's.
      expect(
        await refused(attacker.query('UPDATE journal.payments SET desk_id = $1 WHERE id = $2', [a.deskId, paidAtB.id])),
      ).toBe('42501');
      expect(
        await refused(
          attacker.query('UPDATE journal.operations SET desk_id = $1 WHERE desk_id = $2', [b.deskId, a.deskId]),
        ),
      ).toBe('42501');
    } finally {
      await attacker.end();
    }
    const stamps = await center.query<{ desk_id: string; n: string }>(
      'SELECT desk_id, count(*) AS n FROM journal.operations GROUP BY desk_id ORDER BY desk_id',
    );
    expect(stamps.map((row) => [row.desk_id, Number(row.n)]).sort()).toEqual(
      [
        [a.deskId, 4],
        [b.deskId, 2],
      ].sort(),
    );
    // And the desk whose password it was still works.
    expect((await pay(a, `CUN-${randomUUID().slice(0, 6)}`)).status).toBe('processing');
  });
});
