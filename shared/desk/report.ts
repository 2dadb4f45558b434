/** The end-of-day report: per agent and currency, counts and totals; MSI by plan; volume by hour — and its CSV. */
import { z } from 'zod';
import { Currency, SignedCents, formatCents } from '../payments';

/** Totals in cents. */
const Money = SignedCents;

export const AgentTotals = z.object({
  operatorId: z.string(),
  currency: Currency,
  payments: z.number().int(),
  paymentsTotalCents: Money,
  refunds: z.number().int(),
  refundsTotalCents: Money,
  /** payments minus refunds. */
  netCents: Money,
});
export type AgentTotals = z.infer<typeof AgentTotals>;

export const PlanTotals = z.object({
  currency: Currency,
  /** 1 for a single payment. */
  installments: z.number().int(),
  payments: z.number().int(),
  totalCents: Money,
});
export type PlanTotals = z.infer<typeof PlanTotals>;

export const HourVolume = z.object({
  hour: z.number().int().min(0).max(23),
  currency: Currency,
  payments: z.number().int(),
  totalCents: Money,
});
export type HourVolume = z.infer<typeof HourVolume>;

/** Per desk of the center (its id, as About shows it) and currency: payments taken there, refunds made there. */
export const DeskTotals = AgentTotals.omit({ operatorId: true }).extend({ deskId: z.string() });
export type DeskTotals = z.infer<typeof DeskTotals>;

export const EndOfDayReport = z.object({
  date: z.string(),
  /** The time zone the day was counted in (the desk's). */
  timeZone: z.string(),
  agents: z.array(AgentTotals),
  desks: z.array(DeskTotals),
  plans: z.array(PlanTotals),
  hours: z.array(HourVolume),
  totals: z.array(AgentTotals.omit({ operatorId: true })),
});
export type EndOfDayReport = z.infer<typeof EndOfDayReport>;

const cell = (value: string | number): string => {
  const text = String(value);
  // Quote what needs it, and defuse spreadsheet formulas (=, +, -, @ at the start of a text cell).
  // A plain number (a negative net, "-80.50") stays a number.
  const safe =
    typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export const csvRow = (values: readonly (string | number)[]): string => values.map(cell).join(',');

/** 1234.50: two decimals, no grouping (a spreadsheet reads it as a number). */
const money = (cents: number): string => formatCents(cents, { grouping: false });

/** One row of counts and totals (an agent's, a desk's, or the day's) in one currency. */
const totalsRow = (section: string, date: string, who: string, totals: Omit<AgentTotals, 'operatorId'>): string =>
  csvRow([
    section,
    date,
    who,
    totals.currency.toUpperCase(),
    totals.payments,
    money(totals.paymentsTotalCents),
    totals.refunds,
    money(totals.refundsTotalCents),
    money(totals.netCents),
  ]);

/** The report as CSV: one section per table, each with its header row. */
export function reportToCsv(report: EndOfDayReport): string {
  const lines = [
    csvRow(['section', 'date', 'agent', 'currency', 'payments', 'payments_total', 'refunds', 'refunds_total', 'net']),
    ...report.agents.map((a) => totalsRow('agent', report.date, a.operatorId, a)),
    ...report.totals.map((t) => totalsRow('total', report.date, '', t)),
    '',
    csvRow(['section', 'date', 'desk', 'currency', 'payments', 'payments_total', 'refunds', 'refunds_total', 'net']),
    ...report.desks.map((d) => totalsRow('desk', report.date, d.deskId, d)),
    '',
    csvRow(['section', 'date', 'currency', 'installments', 'payments', 'total']),
    ...report.plans.map((p) =>
      csvRow(['msi', report.date, p.currency.toUpperCase(), p.installments, p.payments, money(p.totalCents)]),
    ),
    '',
    csvRow(['section', 'date', 'hour', 'currency', 'payments', 'total']),
    ...report.hours.map((h) =>
      csvRow(['hour', report.date, h.hour, h.currency.toUpperCase(), h.payments, money(h.totalCents)]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
