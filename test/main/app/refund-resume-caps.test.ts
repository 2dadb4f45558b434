// A refund begun and unanswered, sent again by a path other than its own operation id: the desk's next start
// (recovery) and a new refund of the same payment (which finishes the earlier ones first). Through the real door
// against the simulator; the keys sent are read from the journal's own record of every request (its attempts table).
// Whoever began it may since have lost the right to make it (an admin demoted to supervisor, whose cap is lower).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { useSimulator } from '../../support/simulator';
import { AGENT, attachedTo, openDesk, SUPERVISOR, type Desk } from './desk-kit';

const RESERVATION = 'CUN-4J7K9L';
const ADMIN = { id: 'ada', password: 'a long password 42' };

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
const desks: Desk[] = [];

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
});

function journal<T>(at: Desk, read: (db: Database.Database) => T): T {
  const db = new Database(join(at.dir, 'journal.db'), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}
const keyOf = (at: Desk, operationId: string): string =>
  journal(
    at,
    (db) => (db.prepare('SELECT key FROM operations WHERE operation_id = ?').get(operationId) as { key: string }).key,
  );
const sentWith = (at: Desk, key: string): number =>
  journal(
    at,
    (db) => (db.prepare('SELECT count(*) AS n FROM attempts WHERE idempotency_key = ?').get(key) as { n: number }).n,
  );

/**
 * A 15,000.00 MXN payment; the admin's refund of 12,000.00 MXN of it never reached the service (every try lost before
 * it was made); then the admin is made a supervisor (cap 10,000.00 MXN a refund, the default).
 */
async function refundAboveTheNewCap(at: Desk): Promise<{ paymentId: string; key: string; sent: number }> {
  await at.signIn(AGENT);
  const methodId = await at.card(RESERVATION);
  const payment = await at.ok<{ id: string }>('payments:pay', {
    operationId: randomUUID(),
    methodId,
    amountCents: 1_500_000,
    currency: 'mxn',
    reservationId: RESERVATION,
  });
  await at.until(payment.id, (status) => status === 'succeeded');
  await at.signIn(ADMIN);
  await sim.fault('POST /payments/{id}/refunds', 'drop_before_commit', 3);
  const operationId = randomUUID();
  const refund = { operationId, paymentId: payment.id, amountCents: 1_200_000, reason: 'requested_by_customer' };
  expect(await at.call('refunds:create', refund)).toMatchObject({ ok: false, error: { code: 'network_error' } });
  await at.stack.directory.createOperator('ada', {
    id: 'root',
    displayName: 'Root',
    role: 'admin',
    password: 'another admin pass 77',
  });
  await at.stack.directory.setRole('root', 'ada', 'supervisor');
  const key = keyOf(at, operationId);
  return { paymentId: payment.id, key, sent: sentWith(at, key) };
}

const refunded = async (at: Desk, paymentId: string): Promise<number> =>
  (await at.ok<{ refunds: { amountCents?: number }[] }>('payments:get', { paymentId })).refunds.reduce(
    (sum, r) => sum + (r.amountCents ?? 0),
    0,
  );

describe('a refund above the cap of the role its operator has now is not made by another path', () => {
  // Recovery finds it over its operator's cap now: marked for reconciliation, not sent (the payment is read instead).
  it('the next start does not send it', async () => {
    const at = await openDesk({ connect: attachedTo(sim) });
    desks.push(at);
    const { paymentId, key, sent } = await refundAboveTheNewCap(at);
    await at.restart();
    await at.stack.recover();
    expect(sentWith(at, key)).toBe(sent);
    await at.signIn(SUPERVISOR);
    expect(await refunded(at, paymentId)).toBe(0);
  });

  // A supervisor's new refund of 100.00 MXN finishes the earlier ones first: this one is marked, not sent.
  it('another refund of the payment does not send it', async () => {
    const at = await openDesk({ connect: attachedTo(sim) });
    desks.push(at);
    const { paymentId, key, sent } = await refundAboveTheNewCap(at);
    await at.signIn(SUPERVISOR);
    await at.call('refunds:create', {
      operationId: randomUUID(),
      paymentId,
      amountCents: 10_000,
      reason: 'requested_by_customer',
    });
    expect(sentWith(at, key)).toBe(sent);
    expect(await refunded(at, paymentId)).toBeLessThanOrEqual(10_000);
  });
});
