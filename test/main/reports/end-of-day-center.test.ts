// The end-of-day report of the center: read from any desk, it counts the payments and refunds of every desk, and each
// payment names the desk that took it. Two desks on one journal (the center's PostgreSQL, and one shared embedded file).
import { describe, expect, it } from 'vitest';
import { JOURNAL_STORE, Journal } from '../../../main/payments/journal';
import { endOfDayReport, searchWindow } from '../../../main/reports';
import { useStoreBackends } from '../../support/backends';

const DESK_A = { deskId: '5e5e5e5e-0000-4000-8000-00000000005e' };
const DESK_B = { deskId: '6f6f6f6f-0000-4000-8000-00000000006f' };
const DAY = '2026-11-22';

const payment = (id: string, amount: number, createdAt: string) => ({
  id,
  status: 'succeeded',
  amount,
  currency: 'mxn',
  methodId: 'mth_1',
  reservationId: `HTL-${id}`,
  refunds: [],
  metadata: {},
  createdAt,
});

describe.each(useStoreBackends([JOURNAL_STORE]))('the end-of-day report of two desks ($name)', (backend) => {
  it('counts every desk, from either desk', async () => {
    const a = await Journal.open(await backend.storage(), DESK_A);
    const b = await Journal.open(await backend.anotherDesk(), DESK_B);
    try {
      await a.savePayment(payment('pay_a', 1000, '2026-11-22T16:00:00.000Z'), { operatorId: 'ana' });
      await b.savePayment(payment('pay_b', 250.5, '2026-11-22T17:00:00.000Z'), { operatorId: 'luis' });
      await b.saveRefund(
        {
          id: 're_b',
          paymentId: 'pay_a',
          status: 'succeeded',
          amount: 100,
          currency: 'mxn',
          createdAt: '2026-11-22T18:00:00.000Z',
        },
        { id: 'pay_a', currency: 'mxn' },
        'sam',
      );
      const window = searchWindow(DAY);
      for (const journal of [a, b]) {
        const payments = await journal.paymentsCreatedBetween(window.from, window.to);
        expect(payments.map((p) => [p.id, p.deskId])).toEqual([
          ['pay_a', DESK_A.deskId],
          ['pay_b', DESK_B.deskId],
        ]);
        const report = endOfDayReport({
          date: DAY,
          timeZone: 'America/Mexico_City',
          payments,
          refunds: await journal.refundsCreatedBetween(window.from, window.to),
        });
        expect(report.totals).toEqual([
          {
            currency: 'mxn',
            payments: 2,
            paymentsTotalCents: 125_050,
            refunds: 1,
            refundsTotalCents: 10_000,
            netCents: 115_050,
          },
        ]);
        // By desk: the payment taken at each, and the refund where the supervisor made it (desk B), whichever desk reads.
        expect(report.desks).toEqual([
          {
            deskId: DESK_A.deskId,
            currency: 'mxn',
            payments: 1,
            paymentsTotalCents: 100_000,
            refunds: 0,
            refundsTotalCents: 0,
            netCents: 100_000,
          },
          {
            deskId: DESK_B.deskId,
            currency: 'mxn',
            payments: 1,
            paymentsTotalCents: 25_050,
            refunds: 1,
            refundsTotalCents: 10_000,
            netCents: 15_050,
          },
        ]);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
