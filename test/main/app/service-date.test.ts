// The service's Date header through the real door (createMainStack + dispatch) against the simulator, as a proxy or a
// broken gateway in front of it may send it: far ahead, far behind, absent or unreadable. A Date is the service's
// clock (interface-decisions §4), yet no single answer's Date may turn a payment the service took a minute ago into one
// the desk charges again. The keys sent are read from the journal's own record of every request (its attempts table).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSimulator } from '../../support/simulator';
import { AGENT, attachedTo, openDesk, type Desk } from './desk-kit';

const RESERVATION = 'CUN-6B3D8F';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
const desks: Desk[] = [];
/** What the proxy writes in the Date of every answer from now on (undefined: the service's own). */
let dateSaid: ((own: string | null) => string | null) | undefined;

beforeEach(() => {
  dateSaid = undefined;
});
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
});

/** The desk's one fetch through a proxy that rewrites the Date of the service's answers. */
const proxied: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const rewrite = dateSaid;
  if (rewrite === undefined) return response;
  const headers = new Headers(response.headers);
  const date = rewrite(headers.get('date'));
  if (date === null) headers.delete('date');
  else headers.set('date', date);
  const body = response.status === 204 || response.status === 304 ? null : await response.arrayBuffer();
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
};

async function desk(): Promise<Desk> {
  const opened = await openDesk({ connect: attachedTo(sim), fetch: proxied });
  desks.push(opened);
  return opened;
}

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
/** Keys of the reservation's payment operations this desk sent at least once (each made a payment when the service got it). */
const keysSent = (at: Desk): string[] =>
  journal(at, (db) =>
    (
      db
        .prepare(
          "SELECT DISTINCT a.idempotency_key AS k FROM attempts a JOIN operations o ON o.key = a.idempotency_key WHERE o.kind = 'create_payment'",
        )
        .all() as { k: string }[]
    ).map((row) => row.k),
  );

/** An agent's payment of 120.00 USD whose every answer is lost (the service made it the first time it got it). */
async function unansweredPayment(at: Desk): Promise<{ operationId: string; methodId: string }> {
  await at.signIn(AGENT);
  const methodId = await at.card(RESERVATION);
  await sim.fault('POST /payments', 'drop_after_commit', 3);
  const operationId = randomUUID();
  const refused = await at.call('payments:pay', {
    operationId,
    methodId,
    amountCents: 12_000,
    currency: 'usd',
    reservationId: RESERVATION,
  });
  expect(refused).toMatchObject({ ok: false, error: { code: 'network_error' } });
  return { operationId, methodId };
}

describe("a broken Date in the service's answers never lets a reservation be charged twice", () => {
  const twoDaysAhead = (): string => new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toUTCString();

  // One answer whose Date is two days ahead (a gateway's clock, a proxy) cannot be told from the service's clock moving:
  // the payment goes to reconciliation, and an attempt to reconcile holds its reservation until a supervisor resolves it.
  it('a Date two days ahead at Check again, a minute after a lost answer: the next attempt on the reservation is not charged', async () => {
    const at = await desk();
    const { operationId, methodId } = await unansweredPayment(at);
    dateSaid = twoDaysAhead;

    await at.call('payments:checkAgain', { operationId });
    const next = await at.call('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 12_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });

    // Either Check again found the payment with its key, or the reservation is held until a supervisor reconciles it.
    expect(keysSent(at)).toEqual([keyOf(at, operationId)]);
    expect(next.ok).toBe(false);
  });

  // The other way: a Date far behind when the payment began stamps its start a day early; the true Date at Check again
  // then ages it past the window, and the reservation is held the same way.
  it('a Date two days behind while the payment began, the true one at Check again: the next attempt on the reservation is not charged', async () => {
    const at = await desk();
    dateSaid = () => new Date(Date.now() - 2 * 24 * 60 * 60 * 1000).toUTCString();
    const { operationId, methodId } = await unansweredPayment(at);
    dateSaid = undefined;

    await at.call('payments:checkAgain', { operationId });
    const next = await at.call('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 12_000,
      currency: 'usd',
      reservationId: RESERVATION,
    });

    expect(keysSent(at)).toEqual([keyOf(at, operationId)]);
    expect(next.ok).toBe(false);
  });

  it('no Date, or an unreadable one: the payment is checked by its key again within the window', async () => {
    for (const said of [() => null, () => 'not a date', () => 'Mon, 99 Foo 20x6 99:99:99 GMT']) {
      await sim.reset();
      const at = await desk();
      dateSaid = said;
      const { operationId } = await unansweredPayment(at);

      const check = await at.ok<{ state: string }>('payments:checkAgain', { operationId });
      expect(check).toMatchObject({ state: 'answered' });
      expect(keysSent(at)).toEqual([keyOf(at, operationId)]);
      dateSaid = undefined;
    }
  });
});
