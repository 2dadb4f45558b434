/** The end-of-day report from the journal: succeeded payments and refunds of one local day, per agent, per desk and per currency. */
import { CURRENCIES, type Currency } from '../../shared/payments';
import type { AgentTotals, EndOfDayReport, HourVolume, PlanTotals } from '../../shared/desk';
// eslint-disable-next-line import-x/no-restricted-paths -- main/payments/index.ts must export these row types; then import '../payments'.
import type { StoredPayment, StoredRefund } from '../payments/journal';

/** The local calendar day and hour of an instant in a time zone. */
export function localDayAndHour(iso: string, timeZone: string): { day: string; hour: number } | undefined {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return undefined;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return { day: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/** A window of instants surely containing the whole local day in any time zone (UTC−12 to UTC+14): filter by `localDayAndHour` after. */
export function searchWindow(date: string): { from: string; to: string } {
  const start = Date.parse(`${date}T00:00:00Z`);
  return { from: new Date(start - 15 * 3_600_000).toISOString(), to: new Date(start + 39 * 3_600_000).toISOString() };
}

const asCurrency = (currency: string): Currency | undefined => CURRENCIES.find((c) => c === currency.toLowerCase());

/** Who a payment counts for: the agent who took it (journal), else the agent the service kept in its metadata. */
const agentOf = (payment: StoredPayment): string =>
  payment.operatorId ?? (typeof payment.metadata['agent'] === 'string' ? payment.metadata['agent'] : 'unknown');

interface Sums {
  payments: number;
  paymentsCents: number;
  refunds: number;
  refundsCents: number;
}

export interface EndOfDayInput {
  date: string;
  timeZone: string;
  payments: readonly StoredPayment[];
  refunds: readonly StoredRefund[];
}

/**
 * Counts what succeeded on the day: payments by the agent who took them, refunds by the supervisor who
 * made them (each on the day it was created). Sums are kept in cents, so totals are exact.
 */
export function endOfDayReport({ date, timeZone, payments, refunds }: EndOfDayInput): EndOfDayReport {
  const byAgent = new Map<string, Sums & { operatorId: string; currency: Currency }>();
  const byDesk = new Map<string, Sums & { deskId: string; currency: Currency }>();
  const byCurrency = new Map<Currency, Sums>();
  const plans = new Map<string, PlanTotals>();
  const hours = new Map<string, HourVolume>();
  const empty = (): Sums => ({ payments: 0, paymentsCents: 0, refunds: 0, refundsCents: 0 });
  const sumsFor = (operatorId: string, deskId: string, currency: Currency): Sums[] => {
    const key = `${operatorId}\u0000${currency}`;
    const agent = byAgent.get(key) ?? { operatorId, currency, ...empty() };
    byAgent.set(key, agent);
    const deskKey = `${deskId}\u0000${currency}`;
    const desk = byDesk.get(deskKey) ?? { deskId, currency, ...empty() };
    byDesk.set(deskKey, desk);
    const total = byCurrency.get(currency) ?? empty();
    byCurrency.set(currency, total);
    return [agent, desk, total];
  };

  for (const payment of payments) {
    const currency = asCurrency(payment.currency);
    const when = localDayAndHour(payment.createdAt, timeZone);
    if (payment.status !== 'succeeded' || !currency || when?.day !== date) continue;
    for (const sums of sumsFor(agentOf(payment), payment.deskId, currency)) {
      sums.payments++;
      sums.paymentsCents += payment.amountCents;
    }
    const installments = payment.installments?.count ?? 1;
    const planKey = `${currency}\u0000${installments}`;
    const plan = plans.get(planKey) ?? { currency, installments, payments: 0, totalCents: 0 };
    plan.payments++;
    plan.totalCents += payment.amountCents;
    plans.set(planKey, plan);
    const hourKey = `${when.hour}\u0000${currency}`;
    const hour = hours.get(hourKey) ?? { hour: when.hour, currency, payments: 0, totalCents: 0 };
    hour.payments++;
    hour.totalCents += payment.amountCents;
    hours.set(hourKey, hour);
  }
  for (const refund of refunds) {
    const currency = asCurrency(refund.currency);
    const when = refund.createdAt === undefined ? undefined : localDayAndHour(refund.createdAt, timeZone);
    if (refund.status !== 'succeeded' || !currency || when?.day !== date) continue;
    for (const sums of sumsFor(refund.operatorId ?? 'unknown', refund.deskId ?? 'unknown', currency)) {
      sums.refunds++;
      sums.refundsCents += refund.amountCents ?? 0;
    }
  }

  const totalsOf = (s: Sums): Omit<AgentTotals, 'operatorId' | 'currency'> => ({
    payments: s.payments,
    paymentsTotalCents: s.paymentsCents,
    refunds: s.refunds,
    refundsTotalCents: s.refundsCents,
    netCents: s.paymentsCents - s.refundsCents,
  });
  return {
    date,
    timeZone,
    agents: [...byAgent.values()]
      .sort((a, b) => a.operatorId.localeCompare(b.operatorId) || a.currency.localeCompare(b.currency))
      .map((a) => ({ operatorId: a.operatorId, currency: a.currency, ...totalsOf(a) })),
    desks: [...byDesk.values()]
      .sort((a, b) => a.deskId.localeCompare(b.deskId) || a.currency.localeCompare(b.currency))
      .map((d) => ({ deskId: d.deskId, currency: d.currency, ...totalsOf(d) })),
    totals: [...byCurrency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, s]) => ({ currency, ...totalsOf(s) })),
    plans: [...plans.values()]
      .sort((a, b) => a.currency.localeCompare(b.currency) || a.installments - b.installments)
      .map((plan) => ({ ...plan })),
    hours: [...hours.values()]
      .sort((a, b) => a.hour - b.hour || a.currency.localeCompare(b.currency))
      .map((hour) => ({ ...hour })),
  };
}
