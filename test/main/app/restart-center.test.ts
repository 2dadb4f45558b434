// A restart never hides a payment, on a center: two desks, each a full main stack, on one real PostgreSQL (set up by
// docs/center/setup.sql, migrated by its owner, the desks connected as the app role) and one simulator in this process.
// Desk A's payment whose answer was lost is completed by A's recover(); the notice is in the center's journal (its agent
// sees it at whichever desk they sign in), and desk B cannot charge the reservation without having been shown it.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { useSimulator } from '../../support/simulator';
import type { Output } from '../../../shared/ipc';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from './desk-kit';

// Zoë Anderson, 980.00 USD due (main/reservations/demo.ts).
const RESERVATION = 'CUN-6B3D8F';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let center: TestCenter;
const desks: Desk[] = [];
/** The Idempotency-Keys of every POST /payments any desk sent. */
const paymentKeys = new Set<string>();

const observed: typeof fetch = (input, init) => {
  const request = new Request(input, init);
  const key = request.headers.get('idempotency-key');
  if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/payments') && key !== null)
    paymentKeys.add(key);
  return fetch(input, init);
};

async function openCenterDesk(seed: boolean): Promise<Desk> {
  const desk = await openDesk({ connect: attachedTo(sim), fetch: observed }, { center, seed });
  desks.push(desk);
  return desk;
}

beforeEach(async () => {
  paymentKeys.clear();
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
}, 120_000);
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
  await center.drop();
});

const charge = (methodId: string, acknowledgedPaymentIds: string[]) => ({
  operationId: randomUUID(),
  methodId,
  amountCents: 12_000,
  currency: 'usd',
  reservationId: RESERVATION,
  acknowledgedPaymentIds,
});

describe('a payment desk A recovered after a restart', () => {
  it('desk B cannot charge the reservation until it was shown; the notice follows its agent to desk B', async () => {
    const a = await openCenterDesk(true);
    const b = await openCenterDesk(false);
    await a.signIn(AGENT);
    const card = await a.card(RESERVATION);
    await sim.fault('POST /payments', 'drop_after_commit', 3);
    expect((await a.call('payments:pay', charge(card, []))).ok).toBe(false);

    await a.restart();
    await a.stack.recover();
    const overview = await b
      .signIn(SUPERVISOR)
      .then(() => b.ok<Output<'reservations:overview'>>('reservations:overview', { reservationId: RESERVATION }));
    expect(overview.payments).toHaveLength(1);
    const recovered = overview.payments[0]?.id ?? '';
    expect(overview.chargedToday?.map((c) => c.paymentId)).toEqual([recovered]);
    expect(overview.recovered?.map((n) => [n.paymentId, n.operatorId])).toEqual([[recovered, AGENT.id]]);

    // Desk B's operator, whose screen did not show it: refused, nothing sent.
    const otherCard = await b.card(RESERVATION);
    expect(await b.refused('payments:pay', charge(otherCard, []))).toMatchObject({
      code: 'charges_not_acknowledged',
      params: { count: 1, amountCents: 12_000, currency: 'usd' },
    });
    expect(paymentKeys.size).toBe(1);

    // The agent who began it signs in at desk B: the notice is there, from the center.
    await b.signIn(AGENT);
    const { notices } = await b.ok<Output<'payments:recovered'>>('payments:recovered', {});
    expect(notices.map((n) => n.paymentId)).toEqual([recovered]);
    await b.ok('payments:acknowledgeRecovered', { noticeIds: notices.map((n) => n.id) });
    // Acknowledged at desk B, it is not told again at desk A.
    await b.signIn(SUPERVISOR);
    expect(
      (await a.signIn(AGENT).then(() => a.ok<Output<'payments:recovered'>>('payments:recovered', {}))).notices,
    ).toEqual([]);

    // Shown, a charge at desk B goes: a second payment because the agent chose it.
    const second = await b.ok<Output<'payments:pay'>>('payments:pay', charge(otherCard, [recovered]));
    expect(second.id).not.toBe(recovered);
    expect(paymentKeys.size).toBe(2);
  });
});
