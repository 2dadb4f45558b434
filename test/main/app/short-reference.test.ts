// The short reference read to the guest ("9D21-F5A0": the payment id's last 8 characters) through the real door, on a
// desk's own files and on the center's PostgreSQL: the supervisor's payment search finds the payment by it, and the
// agent's reservation lookup finds the reservation it was paid on; any case, with or without the dash.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { useSimulator } from '../../support/simulator';
import { centerStorage } from '../../../main/storage';
import type { Output } from '../../../shared/ipc';
import { shortReference } from '../../../shared/payments';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { AGENT, SUPERVISOR, attachedTo, openDesk, type Desk } from './desk-kit';

const RESERVATION = 'MEX-2H8R5T';

const sim = useSimulator({ processingDelayMs: 0, refundDelayMs: 0 });
let center: TestCenter | undefined;
let desk: Desk | undefined;

afterEach(async () => {
  await desk?.close();
  desk = undefined;
  await center?.drop();
  center = undefined;
});

const places = [
  { name: 'the desk’s own files', open: () => openDesk({ connect: attachedTo(sim) }) },
  {
    name: 'the center',
    open: async () => {
      const made = await createCenter(await testPostgres(), { stores: CENTER_STORES });
      center = made;
      return openDesk({ connect: attachedTo(sim) }, { storage: () => centerStorage(made.app) });
    },
  },
];

describe.each(places)('the short reference on $name', (place) => {
  it('finds the payment in the payments search and its reservation in the lookup, in any case, with or without the dash', async () => {
    desk = await place.open();
    await desk.signIn(AGENT);
    const methodId = await desk.card(RESERVATION);
    const paid = await desk.ok<Output<'payments:pay'>>('payments:pay', {
      operationId: randomUUID(),
      methodId,
      amountCents: 10_000,
      currency: 'mxn',
      reservationId: RESERVATION,
      acknowledgedPaymentIds: [],
    });
    await desk.until(paid.id, (status) => status === 'succeeded');
    const reference = shortReference(paid.id);
    expect(reference).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    const spellings = [
      reference,
      reference.toLowerCase(),
      reference.replace('-', ''),
      reference.replace('-', ' ').toLowerCase(),
    ];

    for (const text of spellings) {
      const { reservations } = await desk.ok<Output<'reservations:search'>>('reservations:search', { text });
      expect(reservations[0]?.confirmationNumber, text).toBe(RESERVATION);
    }

    await desk.signIn(SUPERVISOR);
    for (const shortReferenceText of spellings) {
      const { payments } = await desk.ok<Output<'payments:search'>>('payments:search', {
        shortReference: shortReferenceText,
      });
      expect(
        payments.map((payment) => payment.id),
        shortReferenceText,
      ).toEqual([paid.id]);
    }
    const other = reference.startsWith('0') ? '1111-1111' : '0000-0000';
    expect((await desk.ok<Output<'payments:search'>>('payments:search', { shortReference: other })).payments).toEqual(
      [],
    );
    const refused = await desk.refused('payments:search', { shortReference: '9D21-F5' });
    expect(refused).toMatchObject({ code: 'invalid_input', field: 'shortReference' });
  });
});
