// The end-of-day report: per agent and currency, totals, MSI by plan, the day's volume by hour (an inline SVG chart with
// its numbers for screen readers); CSV export and a printable view.
import { useId, useState, type JSX } from 'react';
import { reportToCsv, type AgentTotals } from '../../../../../shared/desk';
import { describeError } from '../../../bridge/errors';
import { DateField } from '../../../ui/DateField';
import { moneyCurrency, useI18n } from '../../../i18n';
import { QueryState } from '../../../ui/QueryState';
import { useEndOfDay } from '../api';
import { hourSeries, hourText, type HourSeries } from '../hours';
import { downloadText, localIsoDate } from '../../../ui/text';
import '../../../ui/desk.css';

export function EndOfDay(): JSX.Element {
  const { t, money } = useI18n();
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
            {t('report.title')} <span className="print-only">· {date}</span>
          </h2>
        </div>
        <div className="filters no-print">
          <DateField id={`${id}-date`} label={t('report.date')} initial={date} onChange={setDate} />
          <div className="actions">
            <button type="button" disabled={!data} onClick={() => data && downloadText(`end-of-day-${data.date}.csv`, reportToCsv(data))}>
              {t('report.export')}
            </button>
            <button type="button" disabled={!data} onClick={() => window.print()}>
              {t('report.print')}
            </button>
          </div>
        </div>
        <QueryState error={report.isError ? describeError(report.error, t) : undefined} loading={report.isFetching && !data} />
        {data && <p className="hint">{t('report.timeZone', { zone: data.timeZone })}</p>}
        {data && data.agents.length === 0 && <p role="status">{t('report.none')}</p>}
        {data && data.agents.length > 0 && (
          <>
            <SumsTable
              id={`${id}-agents`}
              title={t('report.agents')}
              keyHead={t('report.col.agent')}
              rows={data.agents.map((row) => ({ key: `${row.operatorId}-${row.currency}`, head: row.operatorId, sums: row }))}
            />
            {new Set(data.desks.map((row) => row.deskId)).size > 1 && (
              <SumsTable
                id={`${id}-desks`}
                title={t('report.desks')}
                keyHead={t('report.col.desk')}
                rows={data.desks.map((row) => ({ key: `${row.deskId}-${row.currency}`, head: row.deskId.slice(0, 8), title: row.deskId, mono: true, sums: row }))}
              />
            )}
            <h3 id={`${id}-totals`}>{t('report.totals')}</h3>
            <table className="table numbers" aria-labelledby={`${id}-totals`}>
              <thead>
                <tr>
                  <th scope="col">{t('report.col.currency')}</th>
                  <SumHeads />
                </tr>
              </thead>
              <tbody>
                {data.totals.map((row) => (
                  <tr key={row.currency}>
                    <th scope="row">{row.currency.toUpperCase()}</th>
                    <SumCells sums={row} />
                  </tr>
                ))}
              </tbody>
            </table>
            {data.plans.length > 0 && (
              <>
                <h3 id={`${id}-plans`}>{t('report.plans')}</h3>
                <table className="table numbers" aria-labelledby={`${id}-plans`}>
                  <thead>
                    <tr>
                      <th scope="col">{t('report.col.plan')}</th>
                      <th scope="col">{t('report.col.currency')}</th>
                      <th scope="col">{t('report.col.payments')}</th>
                      <th scope="col">{t('report.col.total')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.plans.map((plan) => (
                      <tr key={`${plan.currency}-${plan.installments}`}>
                        <th scope="row">{plan.installments <= 1 ? t('report.single') : t('report.months', { count: plan.installments })}</th>
                        <td>{plan.currency.toUpperCase()}</td>
                        <td>{plan.payments}</td>
                        <td>{money(plan.totalCents, plan.currency)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
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

const WIDTH = 720;
const HEIGHT = 180;
const BASE = 150;
const BAR = WIDTH / 24;

/** The day's volume by hour as bars; the chart is one image with a summary, and its numbers are listed for screen readers. */
function HourChart({ series }: { series: HourSeries }): JSX.Element {
  const { t, money } = useI18n();
  const currency = moneyCurrency(series.currency);
  const max = Math.max(...series.hours.map((slot) => slot.total), 0);
  const summary = t('report.chartLabel', {
    currency: series.currency.toUpperCase(),
    count: series.payments,
    total: money(series.total, currency),
    hour: series.busiest === undefined ? '—' : hourText(series.busiest),
  });
  return (
    <figure className="chart">
      <p className="chart__currency">{series.currency.toUpperCase()}</p>
      <svg role="img" aria-label={summary} viewBox={`-24 0 ${WIDTH + 48} ${HEIGHT}`} width="100%" preserveAspectRatio="xMidYMid meet">
        <line x1={0} y1={BASE} x2={WIDTH} y2={BASE} className="chart__axis" />
        {series.hours.map((slot) => {
          const height = max === 0 ? 0 : Math.max(slot.total > 0 ? 2 : 0, (slot.total / max) * (BASE - 20));
          return (
            <g key={slot.hour}>
              <rect x={slot.hour * BAR + 3} y={BASE - height} width={BAR - 6} height={height} className="chart__bar" />
              {slot.hour % 3 === 0 && (
                <text x={slot.hour * BAR + BAR / 2} y={BASE + 18} textAnchor="middle" className="chart__label">
                  {hourText(slot.hour)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="visually-hidden">
        <ul>
          {series.hours
            .filter((slot) => slot.payments > 0)
            .map((slot) => (
              <li key={slot.hour}>
                {hourText(slot.hour)}: {slot.payments} · {money(slot.total, currency)}
              </li>
            ))}
        </ul>
      </figcaption>
    </figure>
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

/** The day's sums by one thing (agent, desk) and currency. */
function SumsTable({ id, title, keyHead, rows }: { id: string; title: string; keyHead: string; rows: readonly SumsRow[] }): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      <h3 id={id}>{title}</h3>
      <div className="table-scroll">
        <table className="table numbers" aria-labelledby={id}>
          <thead>
            <tr>
              <th scope="col">{keyHead}</th>
              <th scope="col">{t('report.col.currency')}</th>
              <SumHeads />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" className={row.mono ? 'mono' : undefined} title={row.title}>
                  {row.head}
                </th>
                <td>{row.sums.currency.toUpperCase()}</td>
                <SumCells sums={row.sums} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function SumHeads(): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      <th scope="col">{t('report.col.payments')}</th>
      <th scope="col">{t('report.col.paymentsTotal')}</th>
      <th scope="col">{t('report.col.refunds')}</th>
      <th scope="col">{t('report.col.refundsTotal')}</th>
      <th scope="col">{t('report.col.net')}</th>
    </>
  );
}

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
