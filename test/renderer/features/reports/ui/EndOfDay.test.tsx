// @vitest-environment happy-dom
// The end-of-day report in a DOM, against a fake of main: the chart says each busy hour's amount and payments on its
// bar, has a value axis in money, and the printed header names the day in the desk's language, not as an ISO date.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EndOfDayReport } from '../../../../../shared/desk';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { EndOfDay } = await import('../../../../../renderer/src/features/reports/ui/EndOfDay');

const REPORT: EndOfDayReport = {
  date: '2026-11-27',
  timeZone: 'America/Cancun',
  agents: [
    {
      operatorId: 'ana',
      currency: 'mxn',
      payments: 3,
      paymentsTotalCents: 150_010,
      refunds: 0,
      refundsTotalCents: 0,
      netCents: 150_010,
    },
  ],
  desks: [],
  plans: [],
  hours: [
    { hour: 9, currency: 'mxn', payments: 1, totalCents: 60_000 },
    { hour: 14, currency: 'mxn', payments: 2, totalCents: 90_010 },
  ],
  totals: [
    { currency: 'mxn', payments: 3, paymentsTotalCents: 150_010, refunds: 0, refundsTotalCents: 0, netCents: 150_010 },
  ],
};

describe('EndOfDay chart', () => {
  it('writes each hour’s amount and payments beside its bar, and an axis in money', async () => {
    main.reset();
    main.answer('reports:endOfDay', () => REPORT);
    renderWithData('es-MX', <EndOfDay />);
    const chart = await screen.findByRole('figure');
    const rows = within(chart)
      .getAllByRole('listitem')
      .map((item) => item.textContent?.replace(/\s+/g, ' ').trim());
    expect(rows[0]).toBe('9:00 a.m. $600.00 MXN · 1 pago');
    expect(rows).toContain('2:00 p.m. $900.10 MXN · 2 pagos');
    expect(rows).toContain('12:00 p.m. —');
    const axis = within(chart).getByRole('group', { name: /Eje/ });
    expect(
      within(axis)
        .getAllByText(/\$\d/)
        .map((tick) => tick.textContent),
    ).toEqual(['$0.00 MXN', '$500.00 MXN', '$1,000.00 MXN']);
  });

  it('prints the day in words of the desk’s language', async () => {
    main.reset();
    main.answer('reports:endOfDay', () => REPORT);
    const { container } = renderWithData('es-MX', <EndOfDay />);
    await screen.findByRole('figure');
    const printed = container.querySelector('h2 .print-only')?.textContent ?? '';
    expect(printed).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(printed).toMatch(/\d{1,2} \w+\.? \d{4}/);
  });
});
