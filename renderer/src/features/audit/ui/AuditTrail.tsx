// The audit trail for supervisors: filters, newest rows first with "Older" paging, the chain's verification, CSV export.
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { AuditQuery } from '../../../../../shared/desk';
import { AuditOutcome } from '../../../../../shared/desk';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { DataTable } from '../../../ui/DataTable';
import { Field } from '../../../ui/Field';
import { FilterForm } from '../../../ui/FilterForm';
import { QueryState } from '../../../ui/QueryState';
import { downloadText, filled, formText as text, localIsoDate } from '../../../ui/text';
import { useAuditRows, useExportAudit, useVerifyAudit, type AuditFilters } from '../api';
import { actionText, actorText, detailParts, idText, wordedActions, type Shown } from '../wording';
import '../../../ui/desk.css';

/** A value shortened for the eye, the whole of it a hover away. */
const ShownText = ({ shown }: { shown: Shown }): JSX.Element => <span title={shown.full}>{shown.text}</span>;

export function AuditTrail(): JSX.Element {
  const i18n = useI18n();
  const { t, dateTime } = i18n;
  const id = useId();
  const [query, setQuery] = useState<AuditQuery>({});
  const rows = useAuditRows(query);
  const verification = useVerifyAudit();
  const exported = useExportAudit();
  const busy = verification.isPending || exported.isPending;
  const note = exported.data === undefined ? undefined : t('audit.exported', { rows: exported.data.rows });
  const failed = verification.error ?? exported.error;
  const problem = failed === null ? undefined : describeError(failed, t);

  function apply(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const outcome = AuditOutcome.safeParse(text(form, 'outcome'));
    setQuery({
      ...filled({
        actor: text(form, 'actor'),
        action: text(form, 'action'),
        resource: text(form, 'resource'),
        from: text(form, 'from'),
        to: text(form, 'to'),
      }),
      ...(outcome.success ? { outcome: outcome.data } : {}),
    });
  }

  function verify(): void {
    // One problem shown at a time: the export's refusal goes when the chain is checked.
    if (exported.isError) exported.reset();
    verification.mutate();
  }

  function exportCsv(): void {
    if (verification.isError) verification.reset();
    // The filters shown, without paging: every matching row.
    const filters = Object.fromEntries(
      Object.entries(query).filter(([key]) => key !== 'beforeId' && key !== 'limit'),
    ) as AuditFilters;
    exported.mutate(filters, { onSuccess: (answer) => downloadText(`audit-${localIsoDate()}.csv`, answer.csv) });
  }

  const all = rows.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <div className="desk">
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('audit.title')}</h2>
        <FilterForm id={id} onSubmit={apply} submitLabel={t('audit.apply')}>
          <Field id={`${id}-actor`} label={t('audit.actor')}>
            <input id={`${id}-actor`} name="actor" autoComplete="off" />
          </Field>
          <Field id={`${id}-action`} label={t('audit.action')}>
            <select id={`${id}-action`} name="action" defaultValue="">
              <option value="">{t('audit.anyAction')}</option>
              {wordedActions(i18n).map(({ action, text: words }) => (
                <option key={action} value={action}>
                  {words}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-outcome`} label={t('audit.outcome')}>
            <select id={`${id}-outcome`} name="outcome" defaultValue="">
              <option value="">{t('audit.outcome.any')}</option>
              {AuditOutcome.options.map((outcome) => (
                <option key={outcome} value={outcome}>
                  {t(`audit.outcome.${outcome}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-resource`} label={t('audit.resource')}>
            <input id={`${id}-resource`} name="resource" autoComplete="off" />
          </Field>
        </FilterForm>
        <div className="actions">
          <button type="button" disabled={busy} onClick={verify}>
            {t('audit.verify')}
          </button>
          <button type="button" disabled={busy} onClick={exportCsv}>
            {t('audit.export')}
          </button>
        </div>
        {verification.data && (
          <p role="alert" className={verification.data.ok ? 'ok' : 'error'}>
            {verification.data.ok
              ? t('audit.intact', { rows: verification.data.rows, desks: verification.data.desks ?? 1 })
              : t('audit.broken', {
                  desk: verification.data.deskId ?? '?',
                  seq: verification.data.seq ?? '?',
                  reason: verification.data.reason ?? '',
                })}
          </p>
        )}
        {note && <p role="status">{note}</p>}
        <QueryState
          error={problem ?? (rows.isError ? describeError(rows.error, t) : undefined)}
          loading={rows.isPending}
        />
        {rows.isSuccess && all.length === 0 && <p>{t('audit.none')}</p>}
        {all.length > 0 && (
          <DataTable
            className="audit"
            labelledBy={`${id}-title`}
            columns={[
              t('audit.col.time'),
              t('audit.col.actor'),
              t('audit.col.action'),
              t('audit.outcome'),
              t('audit.resource'),
              t('audit.col.details'),
              t('audit.col.entry'),
            ]}
          >
            {all.map((row) => (
              <tr key={row.id}>
                <td className="audit__when">
                  {dateTime(row.at)}
                  {row.deskAt !== undefined && (
                    <div className="hint" title={t('audit.deskAt.full')}>
                      {t('audit.deskAt', { at: dateTime(row.deskAt) })}
                    </div>
                  )}
                </td>
                <td>
                  <ShownText shown={actorText(row, i18n)} />
                  {row.actorSession === 'none' && !['system', 'anonymous'].includes(row.actor) && (
                    <span className="badge badge--failed audit__no-session" title={t('audit.noSession.full')}>
                      {t('audit.noSession')}
                    </span>
                  )}
                </td>
                <td>{actionText(row.action, i18n)}</td>
                <td>
                  <span className={`badge badge--${row.outcome === 'ok' ? 'succeeded' : 'failed'}`}>
                    {t(`audit.outcome.${row.outcome}`)}
                  </span>
                </td>
                <td className="mono">
                  {row.resource === undefined ? '—' : <ShownText shown={idText(row.resource)} />}
                </td>
                <td className="details">
                  {detailParts(row, i18n).map((part, index) => (
                    <span key={index} className="audit__detail" title={part.full}>
                      {part.label}: {part.text}
                    </span>
                  ))}
                </td>
                <td className="audit__entry" title={`${row.deskId} #${row.seq}`}>
                  {t('audit.entry', { desk: row.deskId.slice(0, 8), seq: row.seq })}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        {rows.hasNextPage && (
          <button type="button" disabled={rows.isFetchingNextPage} onClick={() => void rows.fetchNextPage()}>
            {t('audit.older')}
          </button>
        )}
      </section>
    </div>
  );
}
