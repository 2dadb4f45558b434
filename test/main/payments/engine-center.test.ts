// Two desks on one journal (the center's real PostgreSQL, and two connections on one embedded file) and one simulator:
// the money rules hold in the database, not in either desk's memory. fetch is wrapped only to observe what the service made.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ServiceError, type PaymentEngine, type PaymentView } from '../../../main/payments';
import { JOURNAL_STORE } from '../../../main/payments/journal';
import { useStoreBackends } from '../../support/backends';
import { DESK_A, DESK_B, useEngineDesks, type EngineDesk } from '../../support/engine-desks';

const VISA = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' };

const { sim, made, openDesk } = useEngineDesks();

const codeOf = (result: PromiseSettledResult<unknown>): string | undefined =>
  result.status === 'rejected' && result.reason instanceof ServiceError ? result.reason.code : undefined;

async function succeeded(engine: PaymentEngine, payment: PaymentView): Promise<PaymentView> {
  let now = payment;
  for (let i = 0; i < 100 && now.status !== 'succeeded'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = await engine.getPayment(now.id);
  }
  expect(now.status).toBe('succeeded');
  return now;
}

describe.each(useStoreBackends([JOURNAL_STORE]))('two desks on the journal ($name)', (backend) => {
  it('charging one reservation at the same moment: one payment at the service, the other desk refused in words; a retry of the same operation is answered', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const reservationId = `CUN-${randomUUID().slice(0, 6).toUpperCase()}`;
    // Desk B's agent types the number without its dash, in lower case: the same reservation.
    const typedAtB = reservationId.replace('-', '').toLowerCase();
    const cardA = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
    const cardB = await b.engine.tokenize({ card: VISA, reservationId: typedAtB, operatorId: 'luis' });
    // The service holds each charge a moment: both desks decide while neither has an answer.
    await sim().fault('POST /payments', 'delay', 3, 300);
    const inputs = [
      {
        operationId: randomUUID(),
        methodId: cardA.id,
        amountCents: 5_000,
        currency: 'usd' as const,
        reservationId,
        operatorId: 'ana',
      },
      {
        operationId: randomUUID(),
        methodId: cardB.id,
        amountCents: 5_000,
        currency: 'usd' as const,
        reservationId: typedAtB,
        operatorId: 'luis',
      },
    ] as const;
    const results = await Promise.allSettled([a.engine.pay(inputs[0]), b.engine.pay(inputs[1])]);

    expect(made.payments.size).toBe(1);
    const [paymentId] = [...made.payments];
    const operations = await a.journal.paymentOperationsOf(reservationId, [
      'pending',
      'done',
      'failed',
      'reconcile',
      'abandoned',
    ]);
    expect(operations).toHaveLength(1);
    const winner = inputs.findIndex((input) => input.operationId === operations[0]?.operationId);
    expect(winner).toBeGreaterThanOrEqual(0);
    expect(results[winner]).toMatchObject({ status: 'fulfilled', value: { id: paymentId } });
    const loser = results[1 - winner];
    // Refused (the earlier payment unanswered, or in progress), or answered with the one payment the reservation has.
    if (loser?.status === 'fulfilled') expect(loser.value.id).toBe(paymentId);
    else
      expect(['payment_unanswered', 'reservation_payment_in_progress']).toContain(
        codeOf(loser as PromiseSettledResult<unknown>),
      );

    // The winning operation asked again (its screen retried, at either desk): the same payment, nothing new sent.
    const retried = await [a, b][winner]?.engine.pay(inputs[winner] as (typeof inputs)[number]);
    expect(retried?.id).toBe(paymentId);
    const elsewhere = await [a, b][1 - winner]?.engine.pay(inputs[winner] as (typeof inputs)[number]);
    expect(elsewhere?.id).toBe(paymentId);
    expect(made.payments.size).toBe(1);

    // Both desks see the payment on the reservation, and which desk took it.
    const listed = await b.engine.listReservation(typedAtB);
    expect(listed.payments.map((p) => p.id)).toEqual([paymentId]);
    const found = await a.engine.search({ reservationIds: [typedAtB], limit: 10 });
    expect(found.map((p) => [p.id, p.deskId])).toEqual([[paymentId, [DESK_A, DESK_B][winner]?.deskId]]);
  });

  it('each desk recovers only its own unanswered operations at start-up', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const keys = new Map<string, string>();
    const begin = async (desk: EngineDesk, reservationId: string): Promise<string> => {
      const card = await desk.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
      const operationId = randomUUID();
      const key = randomUUID();
      keys.set(operationId, key);
      // As a desk killed after its journal commit leaves it (or with the answer in hand while the center was down):
      // written in the center, its answer never written.
      await desk.journal.begin({
        key,
        operationId,
        kind: 'create_payment',
        payload: { methodId: card.id, amount: 12.5, currency: 'usd', reservationId, metadata: { agent: 'ana' } },
        resendable: true,
        reservationId,
        operatorId: 'ana',
        paymentId: undefined,
        createdAt: Date.now(),
      });
      return operationId;
    };
    const atA = await begin(a, `HTL-A-${randomUUID().slice(0, 4)}`);
    const atB = await begin(b, `HTL-B-${randomUUID().slice(0, 4)}`);

    const recoveredA = await a.engine.recover();
    expect(recoveredA.resent).toEqual([atA]);
    expect((await b.journal.operation(atB))?.state).toBe('pending');
    expect(made.payments.size).toBe(1);

    const recoveredB = await b.engine.recover();
    expect(recoveredB.resent).toEqual([atB]);
    expect((await a.journal.operation(atB))?.state).toBe('done');
    expect(made.payments.size).toBe(2);
    // Each re-sent under the key written before it was first sent.
    expect(made.paymentKeys).toEqual([keys.get(atA), keys.get(atB)]);
  });

  it('refunding one payment from two desks at the same moment: one refund at the service, the other refused in words', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const reservationId = `HTL-R-${randomUUID().slice(0, 6)}`;
    const card = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
    const payment = await succeeded(
      a.engine,
      await a.engine.pay({ methodId: card.id, amountCents: 10_000, currency: 'usd', reservationId, operatorId: 'ana' }),
    );
    await sim().fault('POST /payments/{id}/refunds', 'delay', 2, 300);
    const results = await Promise.allSettled([
      a.engine.refund({
        operationId: randomUUID(),
        paymentId: payment.id,
        amountCents: 2_000,
        reason: 'duplicate',
        operatorId: 'sam',
      }),
      b.engine.refund({
        operationId: randomUUID(),
        paymentId: payment.id,
        amountCents: 2_000,
        reason: 'duplicate',
        operatorId: 'eva',
      }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.map(codeOf).filter((code) => code !== undefined)).toEqual(['refund_in_flight']);
    expect(made.refunds.size).toBe(1);
    const after = await b.engine.getPayment(payment.id);
    expect(after.refunds.map((r) => r.amountCents)).toEqual([2_000]);
    expect(after.refundableCents).toBe(8_000);
  });
});
