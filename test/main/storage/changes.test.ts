// The center's change feed on a real PostgreSQL (no mock): a NOTIFY sent in a write's transaction reaches a listening
// desk only if the transaction commits; its payload is ids, nothing more; the LISTEN connection exists only while
// acquired, and goes where `listen` says when the queries go through a pooler.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  centerChangeListener,
  centerKysely,
  centerPool,
  notifyChange,
  parseChange,
  LISTEN_APPLICATION_SUFFIX,
  type Change,
  type ListenState,
} from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';

let center: TestCenter;
beforeAll(async () => {
  center = await createCenter(await testPostgres());
}, 120_000);
afterAll(async () => {
  await center?.drop();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await sleep(25);
  }
}

const listenConnections = async (name: string): Promise<number> =>
  (
    await center.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [
      `${name}${LISTEN_APPLICATION_SUFFIX}`,
    ])
  ).length;

describe('parseChange', () => {
  it('reads what notifyChange writes, and drops what it does not know', () => {
    expect(parseChange('cpd_refund_request_changed', JSON.stringify({ d: 'desk', q: 'req', p: 'pay_1' }))).toEqual({
      kind: 'refundRequest',
      deskId: 'desk',
      requestId: 'req',
      paymentId: 'pay_1',
    });
    expect(
      parseChange(
        'cpd_refund_request_changed',
        JSON.stringify({ d: 'desk', q: 'req', p: 'pay_1', a: 'desk-a', l: 'x' }),
      ),
    ).toEqual({
      kind: 'refundRequest',
      deskId: 'desk',
      requestId: 'req',
      paymentId: 'pay_1',
      askedAt: 'desk-a',
      alertAt: 'x',
    });
    expect(parseChange('cpd_payment_changed', JSON.stringify({ d: 'desk', p: 'pay_1' }))).toEqual({
      kind: 'payment',
      deskId: 'desk',
      paymentId: 'pay_1',
    });
    expect(parseChange('cpd_operation_changed', JSON.stringify({ d: 'desk', o: 'op', r: 'CUN1' }))).toEqual({
      kind: 'operation',
      deskId: 'desk',
      operationId: 'op',
      reservationKey: 'CUN1',
    });
    expect(parseChange('cpd_payment_changed', '{not json')).toBeUndefined();
    expect(parseChange('cpd_payment_changed', JSON.stringify({ p: 'pay_1' }))).toBeUndefined();
    expect(parseChange('other_channel', JSON.stringify({ d: 'desk', p: 'pay_1' }))).toBeUndefined();
  });
});

describe('a desk listening on the center', () => {
  it('hears a change once its transaction commits, never one rolled back; the connection is there only while acquired', async () => {
    const name = `cpd-changes-${randomUUID().slice(0, 8)}`;
    const heard: Change[] = [];
    const states: ListenState[] = [];
    let resyncs = 0;
    const listener = centerChangeListener(
      { ...center.app, applicationName: name },
      {
        onChange: (change) => heard.push(change),
        onState: (state) => states.push(state),
        onResync: () => (resyncs += 1),
      },
    );
    const pool = centerPool(center.app);
    const db = centerKysely(pool, center.app);
    try {
      expect(await listenConnections(name)).toBe(0);
      const release = listener.acquire();
      await until(() => listener.listening, 'listening');
      expect(states).toEqual(['live']);
      expect(resyncs).toBe(1);
      expect(await listenConnections(name)).toBe(1);

      const kept: Change = {
        kind: 'refundRequest',
        deskId: 'desk-a',
        requestId: randomUUID(),
        paymentId: `pay_${'a'.repeat(32)}`,
      };
      const dropped: Change = {
        kind: 'payment',
        deskId: 'desk-a',
        paymentId: `pay_${'b'.repeat(32)}`,
        reservationKey: 'CUN6B3D8F',
      };
      await db
        .transaction()
        .execute(async (trx) => {
          await notifyChange(trx, 'postgres', dropped);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await db.transaction().execute((trx) => notifyChange(trx, 'postgres', kept));
      await until(() => heard.length > 0, 'the committed change');
      await sleep(200);
      expect(heard).toEqual([kept]);
      // The embedded files have nobody to tell: nothing is sent.
      await notifyChange(db, 'sqlite', dropped);
      await sleep(200);
      expect(heard).toEqual([kept]);

      release();
      await until(async () => (await listenConnections(name)) === 0, 'the LISTEN connection closed');
    } finally {
      await listener.close();
      await pool.end();
    }
  });

  it('listens at `listen` (the server) when the queries go elsewhere (a pooler)', async () => {
    const name = `cpd-changes-${randomUUID().slice(0, 8)}`;
    // Port 1: nothing answers there; only the listen address does.
    const listener = centerChangeListener(
      { ...center.app, port: 1, listen: { host: center.app.host, port: center.app.port }, applicationName: name },
      { onChange: () => undefined },
    );
    try {
      const release = listener.acquire();
      await until(() => listener.listening, 'listening at the listen address');
      expect(await listenConnections(name)).toBe(1);
      release();
    } finally {
      await listener.close();
    }
  });

  it('a listen connection ended by the server comes back by itself and asks for a resync', async () => {
    const name = `cpd-changes-${randomUUID().slice(0, 8)}`;
    const states: ListenState[] = [];
    let resyncs = 0;
    const listener = centerChangeListener(
      { ...center.app, applicationName: name },
      {
        onChange: () => undefined,
        onState: (state) => states.push(state),
        onResync: () => (resyncs += 1),
        backoffMs: [50],
      },
    );
    try {
      listener.acquire();
      await until(() => listener.listening, 'listening');
      await center.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
        `${name}${LISTEN_APPLICATION_SUFFIX}`,
      ]);
      await until(() => resyncs === 2, 'listening again');
      expect(states).toEqual(['live', 'reconnecting', 'live']);
      expect(await listenConnections(name)).toBe(1);
    } finally {
      await listener.close();
    }
  });
});
