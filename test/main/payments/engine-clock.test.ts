// The engine's clock between two readings of the center's is a monotonic one: a desk's wall clock set right by the OS
// (a day at once) does not age another desk's operations. Two desks on one journal (the center's real PostgreSQL, and
// two connections on one embedded file) and one simulator; fetch is wrapped only to see which keys were sent.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../main/payments';
import { JOURNAL_STORE } from '../../../main/payments/journal';
import { useStoreBackends } from '../../support/backends';
import { DESK_A, DESK_B, useEngineDesks } from '../../support/engine-desks';

const DAY_MS = 24 * 60 * 60 * 1000;
const year = new Date().getUTCFullYear() + 3;
const VISA = { number: '4242424242424242', expMonth: 12, expYear: year, cvv: '123' };

const { made, openDesk, sim } = useEngineDesks();

describe.each(useStoreBackends([JOURNAL_STORE]))('a desk clock that jumps ($name)', (backend) => {
  it('desk B booted a day behind and was then set right by the OS: it does not take desk A’s unanswered payment for a day old, nor charge the reservation again', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    let skew = -DAY_MS;
    const b = await openDesk(backend.anotherDesk(), DESK_B, { now: () => Date.now() + skew });
    // B reads the center's clock at its start, a day behind it; then the OS sets B's clock right.
    await b.engine.recover();
    skew = 0;

    const reservationId = `HTL-J-${randomUUID().slice(0, 6)}`;
    const cardA = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
    const cardB = await b.engine.tokenize({ card: VISA, reservationId, operatorId: 'luis' });
    await sim().fault('POST /payments', 'drop_after_commit', 3);
    await expect(
      a.engine.pay({ methodId: cardA.id, amountCents: 6_000, currency: 'usd', reservationId, operatorId: 'ana' }),
    ).rejects.toBeInstanceOf(ServiceError);
    const keysOfA = new Set(made.paymentKeys);
    expect(keysOfA.size).toBe(1);

    const atB = await b.engine
      .pay({ methodId: cardB.id, amountCents: 6_000, currency: 'usd', reservationId, operatorId: 'luis' })
      .catch((error: unknown) => error);
    expect(atB).toBeInstanceOf(ServiceError);
    expect((atB as ServiceError).code).toBe('payment_unanswered');
    expect(new Set(made.paymentKeys)).toEqual(keysOfA);
    expect((await a.journal.paymentOperationsOf(reservationId, ['pending'])).length).toBe(1);
  });
});
