// A desk that slept (a laptop's lid closed for a weekend): the monotonic clock the engine carries the center's and the
// service's readings forward by (performance.now) does not count the sleep on Linux and macOS, while the wall clock, the
// center's and the service's all went on. Two desks on one journal (the center's real PostgreSQL, and two connections on
// one embedded file) and one simulator. The sleep is modelled by performance.now running 30 h behind from the moment the
// desk wakes: the engine's readings, taken before, are then 30 h older by it than by every other clock — as after a sleep.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../../../main/payments';
import { JOURNAL_STORE } from '../../../main/payments/journal';
import { useStoreBackends } from '../../support/backends';
import { DESK_A, DESK_B, useEngineDesks } from '../../support/engine-desks';

const HOUR_MS = 60 * 60 * 1000;
const year = new Date().getUTCFullYear() + 3;
const VISA = { number: '4242424242424242', expMonth: 12, expYear: year, cvv: '123' };

const { made, openDesk, sim } = useEngineDesks();

/** From now on, the monotonic clock reads `hours` less than it would: as if it had stood still that long while the rest went on. */
function sleep(hours: number): void {
  const real = performance.now.bind(performance);
  vi.spyOn(performance, 'now').mockImplementation(() => real() - hours * HOUR_MS);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(useStoreBackends([JOURNAL_STORE]))('a desk that slept 30 hours ($name)', (backend) => {
  it('its payment whose answer was lost a minute ago holds the reservation, at the other desk and at its own Check again', async () => {
    const a = await openDesk(backend.storage(), DESK_A);
    const b = await openDesk(backend.anotherDesk(), DESK_B);
    const reservationId = `HTL-S-${randomUUID().slice(0, 6)}`;
    await a.engine.recover();
    const cardA = await a.engine.tokenize({ card: VISA, reservationId, operatorId: 'ana' });
    sleep(30);

    await sim().fault('POST /payments', 'drop_after_commit', 3);
    await expect(
      a.engine.pay({ methodId: cardA.id, amountCents: 6_000, currency: 'usd', reservationId, operatorId: 'ana' }),
    ).rejects.toBeInstanceOf(ServiceError);
    const keysOfA = new Set(made.paymentKeys);
    expect(keysOfA.size).toBe(1);

    const cardB = await b.engine.tokenize({ card: VISA, reservationId, operatorId: 'luis' });
    const atB = await b.engine
      .pay({ methodId: cardB.id, amountCents: 6_000, currency: 'usd', reservationId, operatorId: 'luis' })
      .catch((error: unknown) => error);
    expect((atB as ServiceError).code).toBe('payment_unanswered');
    expect(new Set(made.paymentKeys)).toEqual(keysOfA);

    const [pending] = await a.journal.paymentOperationsOf(reservationId, ['pending']);
    expect(pending).toBeDefined();
    expect(await a.engine.checkAgain(pending?.operationId ?? '')).toMatchObject({ state: 'answered' });
    expect(made.payments.size).toBe(1);
  });
});
