// The day's volume by hour for one currency: 24 slots (empty hours at zero), the busiest one, the day's totals.
import type { HourVolume } from '../../../../shared/desk';

export interface HourSeries {
  currency: string;
  /** Index = hour of the day (0–23); totals in cents. */
  hours: { hour: number; payments: number; total: number }[];
  payments: number;
  total: number;
  busiest: number | undefined;
}

export function hourSeries(volumes: readonly HourVolume[]): HourSeries[] {
  const byCurrency = new Map<string, HourSeries>();
  for (const volume of volumes) {
    let series = byCurrency.get(volume.currency);
    if (!series) {
      series = {
        currency: volume.currency,
        hours: Array.from({ length: 24 }, (_, hour) => ({ hour, payments: 0, total: 0 })),
        payments: 0,
        total: 0,
        busiest: undefined,
      };
      byCurrency.set(volume.currency, series);
    }
    const slot = series.hours[volume.hour];
    if (!slot) continue;
    slot.payments += volume.payments;
    slot.total += volume.totalCents;
    series.payments += volume.payments;
    series.total += volume.totalCents;
  }
  for (const series of byCurrency.values()) {
    let best: number | undefined;
    for (const slot of series.hours)
      if (slot.total > 0 && (best === undefined || slot.total > (series.hours[best]?.total ?? 0))) best = slot.hour;
    series.busiest = best;
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * The top of the chart's value axis: the smallest round amount (1, 2, 2.5 or 5 times a power of ten) at or above the
 * busiest hour's, so that its ticks (0, half, top) read as round amounts.
 */
export function axisTop(max: number): number {
  if (!(max > 0)) return 0;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}

/** The hours the chart shows: from the first hour with payments to the last, quiet hours between them included. */
export function activeHours(series: HourSeries): HourSeries['hours'] {
  const busy = series.hours.filter((slot) => slot.payments > 0);
  const first = busy[0]?.hour;
  const last = busy.at(-1)?.hour;
  return first === undefined || last === undefined ? [] : series.hours.slice(first, last + 1);
}
