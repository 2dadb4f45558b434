// The end-of-day report: per agent and currency, totals, MSI by plan, the day's volume by hour (a bar chart with the
// amounts on its bars and a value axis); CSV export and a printable view.
import { useId, useState, type JSX } from 'react';
import { reportToCsv, type AgentTotals, type EndOfDayReport } from '../../../../../shared/desk';
import { describeError } from '../../../bridge/errors';
import { DateField } from '../../../ui/DateField';
import { formatHour, moneyCurrency, useI18n, type I18n, type PlainKey } from '../../../i18n';
import { QueryState } from '../../../ui/QueryState';
import { Table } from '../../../ui/Table';
import { useEndOfDay } from '../api';
import { activeHours, axisTop, hourSeries, type HourSeries } from '../hours';
import { downloadText, localIsoDate } from '../../../ui/text';
import '../../../ui/desk.css';

export function EndOfDay(): JSX.Element {
  const { t, date: day } = useI18n();
  const id = useId();
  const [date, setDate] = useState(localIsoDate);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(date);
  const report = useEndOfDay(valid ? date : undefined);
  const data = report.data;

  return (
    <div className="desk report">
      <section className="panel" aria-labelledby={`${id}-title`}>
        <div className="panel__head">
          <h2 id={`${id}-title`}>
            {t('report.title')} <span className="print-only">· {day(data?.date ?? date)}</span>
          </h2>
        </div>
        <div className="filters no-print">
          <DateField id={`${id}-date`} label={t('report.date')} initial={date} onChange={setDate} />
          <div className="actions">
            <button
              type="button"
              disabled={!data}
              onClick={() => data && downloadText(`end-of-day-${data.date}.csv`, reportToCsv(data))}
            >
              {t('report.export')}
            </button>
            <button type="button" disabled={!data} onClick={() => window.print()}>
              {t('report.print')}
            </button>
          </div>
        </div>
        <QueryState
          error={report.isError ? describeError(report.error, t) : undefined}
          loading={report.isFetching && !data}
        />
        {data && <p className="hint">{t('report.timeZone', { zone: data.timeZone })}</p>}
        {data && data.agents.length === 0 && <p role="status">{t('report.none')}</p>}
        {data && data.agents.length > 0 && (
          <>
            <SumsTable id={id} report={data} by="agents" />
            {new Set(data.desks.map((row) => row.deskId)).size > 1 && <SumsTable id={id} report={data} by="desks" />}
            <h3 id={`${id}-totals`}>{t('report.totals')}</h3>
            <Table
              className="numbers"
              labelledBy={`${id}-totals`}
              columns={[t('report.col.currency'), ...sumColumns({ t })]}
            >
              {data.totals.map((row) => (
                <tr key={row.currency}>
                  <th scope="row">{row.currency.toUpperCase()}</th>
                  <SumCells sums={row} />
                </tr>
              ))}
            </Table>
            {data.plans.length > 0 && <PlansTable id={`${id}-plans`} plans={data.plans} />}
            {data.hours.length > 0 && (
              <>
                <h3>{t('report.hours')}</h3>
                {hourSeries(data.hours).map((series) => (
                  <HourChart key={series.currency} series={series} />
                ))}
              </>
            )}
          </>
        )}
      </section>
    </div>
  );
}

/**
 * The day's volume by hour as bars, one line per hour from the first with payments to the last: each bar says its amount
 * and payments beside it, over a value axis in money (0, half, top) — plain HTML and CSS, read as text by screen readers.
 */
function HourChart({ series }: { series: HourSeries }): JSX.Element {
  const { t, money, language } = useI18n();
  const hourText = (hour: number): string => formatHour(hour, language);
  const id = useId();
  const currency = moneyCurrency(series.currency);
  const top = axisTop(Math.max(...series.hours.map((slot) => slot.total), 0));
  const share = (cents: number): string => `${top === 0 ? 0 : Math.min(100, (cents / top) * 100)}%`;
  const summary = t('report.chartLabel', {
    currency: series.currency.toUpperCase(),
    count: series.payments,
    total: money(series.total, currency),
    hour: series.busiest === undefined ? '—' : hourText(series.busiest),
  });
  return (
    <figure className="chart" aria-labelledby={`${id}-summary`}>
      <figcaption id={`${id}-summary`} className="chart__summary">
        {summary}
      </figcaption>
      <ul className="chart__rows">
        {activeHours(series).map((slot) => (
          <li key={slot.hour} className="chart__row">
            <span className="chart__hour">{hourText(slot.hour)}</span>{' '}
            <span className="chart__track" aria-hidden="true">
              <span className="chart__bar" style={{ width: share(slot.total) }} />
            </span>{' '}
            <span className="chart__value">
              {slot.payments === 0
                ? '—'
                : `${money(slot.total, currency)} · ${slot.payments === 1 ? t('report.chartPayment') : t('report.chartPayments', { count: slot.payments })}`}
            </span>
          </li>
        ))}
      </ul>
      <div
        className="chart__row chart__axis"
        role="group"
        aria-label={t('report.axis', { currency: series.currency.toUpperCase() })}
      >
        <span className="chart__hour" />
        <span className="chart__ticks">
          {[0, top / 2, top].map((tick, index) => (
            <span key={index} className={`chart__tick chart__tick--${index}`}>
              {money(tick, currency)}
            </span>
          ))}
        </span>
        <span className="chart__value" />
      </div>
    </figure>
  );
}

/** The day's payments by MSI plan and currency. */
function PlansTable({ id, plans }: { id: string; plans: EndOfDayReport['plans'] }): JSX.Element {
  const { t, money } = useI18n();
  return (
    <>
      <h3 id={id}>{t('report.plans')}</h3>
      <Table
        className="numbers"
        labelledBy={id}
        columns={[t('report.col.plan'), t('report.col.currency'), t('report.col.payments'), t('report.col.total')]}
      >
        {plans.map((plan) => (
          <tr key={`${plan.currency}-${plan.installments}`}>
            <th scope="row">
              {plan.installments <= 1 ? t('report.single') : t('report.months', { count: plan.installments })}
            </th>
            <td>{plan.currency.toUpperCase()}</td>
            <td>{plan.payments}</td>
            <td>{money(plan.totalCents, plan.currency)}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

/** The five columns the agents' table and the totals share. */
interface SumsRow {
  key: string;
  /** What the row is about (an agent, a desk): the row's header. */
  head: string;
  /** The whole of `head` when it is shortened (a desk's id). */
  title?: string;
  mono?: boolean;
  sums: Omit<AgentTotals, 'operatorId'>;
}

/** The agents' rows: by operator id. */
const agentRows = (report: EndOfDayReport): SumsRow[] =>
  report.agents.map((row) => ({ key: `${row.operatorId}-${row.currency}`, head: row.operatorId, sums: row }));

/** The desks' rows: by desk id, shortened (the whole id a hover away). */
const deskRows = (report: EndOfDayReport): SumsRow[] =>
  report.desks.map((row) => ({
    key: `${row.deskId}-${row.currency}`,
    head: row.deskId.slice(0, 8),
    title: row.deskId,
    mono: true,
    sums: row,
  }));

/** What each sums table is by: its title, its first column's header, its rows. */
const SUMS_BY: Record<
  'agents' | 'desks',
  { title: PlainKey; keyHead: PlainKey; rows: (report: EndOfDayReport) => SumsRow[] }
> = {
  agents: { title: 'report.agents', keyHead: 'report.col.agent', rows: agentRows },
  desks: { title: 'report.desks', keyHead: 'report.col.desk', rows: deskRows },
};

/** The day's sums by one thing (agent, desk) and currency; its title's id is `${id}-${by}`. */
function SumsTable({ id, report, by }: { id: string; report: EndOfDayReport; by: 'agents' | 'desks' }): JSX.Element {
  const { t } = useI18n();
  const { title, keyHead, rows } = SUMS_BY[by];
  const titleId = `${id}-${by}`;
  return (
    <>
      <h3 id={titleId}>{t(title)}</h3>
      <div className="table-scroll">
        <Table
          className="numbers"
          labelledBy={titleId}
          columns={[t(keyHead), t('report.col.currency'), ...sumColumns({ t })]}
        >
          {rows(report).map((row) => (
            <tr key={row.key}>
              <th scope="row" className={row.mono ? 'mono' : undefined} title={row.title}>
                {row.head}
              </th>
              <td>{row.sums.currency.toUpperCase()}</td>
              <SumCells sums={row.sums} />
            </tr>
          ))}
        </Table>
      </div>
    </>
  );
}

/** The headers of the five sums' columns (SumCells), in their order. */
const sumColumns = ({ t }: Pick<I18n, 't'>): string[] => [
  t('report.col.payments'),
  t('report.col.paymentsTotal'),
  t('report.col.refunds'),
  t('report.col.refundsTotal'),
  t('report.col.net'),
];

function SumCells({ sums }: { sums: Omit<AgentTotals, 'operatorId'> }): JSX.Element {
  const { money } = useI18n();
  return (
    <>
      <td>{sums.payments}</td>
      <td>{money(sums.paymentsTotalCents, sums.currency)}</td>
      <td>{sums.refunds}</td>
      <td>{money(sums.refundsTotalCents, sums.currency)}</td>
      <td>{money(sums.netCents, sums.currency)}</td>
    </>
  );
}
