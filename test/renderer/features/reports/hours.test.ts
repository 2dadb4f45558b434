// The end-of-day chart's series: 24 slots per currency, the busiest hour, the totals.
import { describe, expect, it } from 'vitest';
import { activeHours, axisTop, hourSeries } from '../../../../renderer/src/features/reports/hours';

describe('hourSeries', () => {
  it('24 slots per currency, the busiest hour and the totals', () => {
    const [mxn, usd] = hourSeries([
      { hour: 9, currency: 'mxn', payments: 1, totalCents: 60000 },
      { hour: 14, currency: 'mxn', payments: 2, totalCents: 90010 },
      { hour: 14, currency: 'usd', payments: 1, totalCents: 8000 },
    ]);
    expect(mxn?.hours).toHaveLength(24);
    expect(mxn).toMatchObject({ currency: 'mxn', payments: 3, total: 150010, busiest: 14 });
    expect(mxn?.hours[9]).toEqual({ hour: 9, payments: 1, total: 60000 });
    expect(usd).toMatchObject({ currency: 'usd', payments: 1, total: 8000, busiest: 14 });
    expect(hourSeries([])).toEqual([]);
  });
});

describe('the chart’s axis and hours', () => {
  it('tops the axis at a round amount at or above the busiest hour', () => {
    expect(axisTop(90_010)).toBe(100_000);
    expect(axisTop(60_000)).toBe(100_000);
    expect(axisTop(120_000)).toBe(200_000);
    expect(axisTop(230_000)).toBe(250_000);
    expect(axisTop(100_000)).toBe(100_000);
    expect(axisTop(0)).toBe(0);
  });

  it('shows the hours from the first with payments to the last', () => {
    const [mxn] = hourSeries([
      { hour: 9, currency: 'mxn', payments: 1, totalCents: 60000 },
      { hour: 12, currency: 'mxn', payments: 2, totalCents: 90010 },
    ]);
    expect(mxn && activeHours(mxn).map((slot) => slot.hour)).toEqual([9, 10, 11, 12]);
  });
});
