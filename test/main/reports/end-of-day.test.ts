// The end-of-day report against a fixture whose totals were computed by hand (below each case), through the journal's SQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, type PaymentResource } from '../../../main/payments';
import { endOfDayReport, localDayAndHour, searchWindow } from '../../../main/reports';
import { reportToCsv } from '../../../shared/desk';
import { openJournal } from '../../support/journal';

const ZONE = 'America/Mexico_City'; // UTC−6 all year since 2022.
const DAY = '2026-11-22';
let dir: string;
let journal: Journal;

let n = 0;
async function payment(
  operatorId: string,
  amount: number,
  currency: 'mxn' | 'usd',
  createdAt: string,
  extra: Partial<PaymentResource> = {},
): Promise<void> {
  n++;
  const resource: PaymentResource = {
    id: `pay_${n.toString(16).padStart(32, '0')}`,
    status: 'succeeded',
    amount,
    currency,
    methodId: `mth_${'1'.repeat(32)}`,
    reservationId: `HTL-${n}`,
    refunds: [],
    metadata: {},
    createdAt,
    ...extra,
  };
  await journal.savePayment(resource, { operatorId });
}

async function refund(
  paymentNo: number,
  operatorId: string,
  amount: number,
  currency: 'mxn' | 'usd',
  createdAt: string,
  status = 'succeeded',
): Promise<void> {
  n++;
  const paymentId = `pay_${paymentNo.toString(16).padStart(32, '0')}`;
  await journal.saveRefund(
    { id: `re_${n}`, paymentId, status, amount, currency, reason: 'duplicate', createdAt },
    { id: paymentId, currency },
    operatorId,
  );
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'report-'));
  journal = await openJournal(dir);
  n = 0;
  await payment('ana', 1000, 'mxn', '2026-11-22T15:10:00.000Z'); // 1: 09:10 local
  await payment('ana', 2400, 'mxn', '2026-11-22T16:30:00.000Z', { installments: { count: 6, perInstallment: 400 } }); // 2: 10:30, MSI 6
  await payment('ana', 80.5, 'usd', '2026-11-22T16:45:00.000Z'); // 3: 10:45
  await payment('luis', 1500, 'mxn', '2026-11-23T05:59:00.000Z', { installments: { count: 3, perInstallment: 500 } }); // 4: 23:59 local on the 22nd
  await payment('luis', 999.99, 'mxn', '2026-11-22T18:00:00.000Z', { status: 'failed' }); // 5: failed, not counted
  await payment('luis', 700, 'mxn', '2026-11-22T05:59:00.000Z'); // 6: 23:59 local on the 21st, not counted
  await payment('ana', 0.1, 'mxn', '2026-11-22T17:00:00.000Z'); // 7: 11:00
  await payment('ana', 0.2, 'mxn', '2026-11-22T17:05:00.000Z'); // 8: 11:05 (0.1 + 0.2 must be 0.30 exactly)
  await payment('ana', 300, 'mxn', '2026-11-22T19:00:00.000Z', { status: 'processing' }); // 9: not yet succeeded, not counted
  await refund(1, 'sam', 250, 'mxn', '2026-11-22T20:00:00.000Z');
  await refund(3, 'sam', 80.5, 'usd', '2026-11-22T21:00:00.000Z');
  await refund(2, 'sam', 100, 'mxn', '2026-11-22T21:30:00.000Z', 'failed'); // not counted
  await refund(2, 'sam', 50, 'mxn', '2026-11-22T21:40:00.000Z', 'pending'); // not counted
  await refund(4, 'sam', 10, 'mxn', '2026-11-23T06:30:00.000Z'); // 00:30 on the 23rd: not counted
});
afterEach(async () => {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

async function report() {
  const window = searchWindow(DAY);
  return endOfDayReport({
    date: DAY,
    timeZone: ZONE,
    payments: await journal.paymentsCreatedBetween(window.from, window.to),
    refunds: await journal.refundsCreatedBetween(window.from, window.to),
  });
}

describe('end-of-day report', () => {
  it('per agent and currency: succeeded payments by who took them, succeeded refunds by who made them, on the local day', async () => {
    expect((await report()).agents).toEqual([
      // ana MXN: 1000 + 2400 + 0.10 + 0.20
      {
        operatorId: 'ana',
        currency: 'mxn',
        payments: 4,
        paymentsTotalCents: 340030,
        refunds: 0,
        refundsTotalCents: 0,
        netCents: 340030,
      },
      {
        operatorId: 'ana',
        currency: 'usd',
        payments: 1,
        paymentsTotalCents: 8050,
        refunds: 0,
        refundsTotalCents: 0,
        netCents: 8050,
      },
      // luis: only #4 (23:59 local on the 22nd); #5 failed, #6 was the 21st
      {
        operatorId: 'luis',
        currency: 'mxn',
        payments: 1,
        paymentsTotalCents: 150000,
        refunds: 0,
        refundsTotalCents: 0,
        netCents: 150000,
      },
      {
        operatorId: 'sam',
        currency: 'mxn',
        payments: 0,
        paymentsTotalCents: 0,
        refunds: 1,
        refundsTotalCents: 25000,
        netCents: -25000,
      },
      {
        operatorId: 'sam',
        currency: 'usd',
        payments: 0,
        paymentsTotalCents: 0,
        refunds: 1,
        refundsTotalCents: 8050,
        netCents: -8050,
      },
    ]);
  });

  it('totals per currency', async () => {
    expect((await report()).totals).toEqual([
      {
        currency: 'mxn',
        payments: 5,
        paymentsTotalCents: 490030,
        refunds: 1,
        refundsTotalCents: 25000,
        netCents: 465030,
      },
      { currency: 'usd', payments: 1, paymentsTotalCents: 8050, refunds: 1, refundsTotalCents: 8050, netCents: 0 },
    ]);
  });

  it('MSI by plan (1 = a single payment) and the volume by local hour', async () => {
    const { plans, hours } = await report();
    expect(plans).toEqual([
      { currency: 'mxn', installments: 1, payments: 3, totalCents: 100030 },
      { currency: 'mxn', installments: 3, payments: 1, totalCents: 150000 },
      { currency: 'mxn', installments: 6, payments: 1, totalCents: 240000 },
      { currency: 'usd', installments: 1, payments: 1, totalCents: 8050 },
    ]);
    expect(hours).toEqual([
      { hour: 9, currency: 'mxn', payments: 1, totalCents: 100000 },
      { hour: 10, currency: 'mxn', payments: 1, totalCents: 240000 },
      { hour: 10, currency: 'usd', payments: 1, totalCents: 8050 },
      { hour: 11, currency: 'mxn', payments: 2, totalCents: 30 },
      { hour: 23, currency: 'mxn', payments: 1, totalCents: 150000 },
    ]);
  });

  it('the CSV carries the same numbers, two decimals, one section per table', async () => {
    const lines = reportToCsv(await report()).split('\r\n');
    expect(lines[0]).toBe('section,date,agent,currency,payments,payments_total,refunds,refunds_total,net');
    expect(lines).toContain('agent,2026-11-22,ana,MXN,4,3400.30,0,0.00,3400.30');
    expect(lines).toContain('agent,2026-11-22,sam,USD,0,0.00,1,80.50,-80.50');
    expect(lines).toContain('total,2026-11-22,,MXN,5,4900.30,1,250.00,4650.30');
    expect(lines).toContain('msi,2026-11-22,MXN,6,1,2400.00');
    expect(lines).toContain('hour,2026-11-22,23,MXN,1,1500.00');
  });

  it('the same instants fall on other days and hours in another time zone', async () => {
    expect(localDayAndHour('2026-11-23T05:59:00.000Z', ZONE)).toEqual({ day: '2026-11-22', hour: 23 });
    expect(localDayAndHour('2026-11-23T05:59:00.000Z', 'UTC')).toEqual({ day: '2026-11-23', hour: 5 });
    const utc = endOfDayReport({
      date: DAY,
      timeZone: 'UTC',
      payments: await journal.paymentsCreatedBetween(searchWindow(DAY).from, searchWindow(DAY).to),
      refunds: [],
    });
    // In UTC, #4 is on the 23rd and #6 (05:59Z) on the 22nd.
    expect(utc.agents.find((a) => a.operatorId === 'luis')).toMatchObject({ payments: 1, paymentsTotalCents: 70000 });
  });
});

describe('csv cells', () => {
  it('defuses spreadsheet formulas and quotes separators', async () => {
    const { csvRow } = await import('../../../shared/desk');
    expect(csvRow(['=HYPERLINK("x")', 'a,b', 3, '-2', '-2+3', '@SUM(A1)'])).toBe(
      `"'=HYPERLINK(""x"")","a,b",3,-2,'-2+3,'@SUM(A1)`,
    );
  });
});
