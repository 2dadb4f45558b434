// The admin loads the hotel's reservations from a CSV export into the built-in store: every row, or none.
import { useId, useState, type FormEvent, type JSX } from 'react';
import { RESERVATION_CSV_COLUMNS, type CsvImportResult } from '../../../../../shared/reservations';
import { messageOf, unwrap } from '../../../bridge/client';
import { bridge, queryClient } from '../../../api/queries';
import { useI18n } from '../../../i18n';
import '../../../ui/desk.css';

export function ImportReservations(): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const [file, setFile] = useState<File>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CsvImportResult>();
  const [error, setError] = useState<string>();

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setResult(undefined);
    setError(undefined);
    if (!file) {
      setError(t('import.noFile'));
      return;
    }
    setBusy(true);
    try {
      const answer = await unwrap(bridge().reservations.importCsv({ csv: await file.text() }));
      setResult(answer);
      if (answer.ok) void queryClient.invalidateQueries({ queryKey: ['reservations'] });
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="desk">
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('import.title')}</h2>
        <p className="hint">{t('import.help')}</p>
        <p className="hint">{t('import.columns', { columns: RESERVATION_CSV_COLUMNS.map((column) => column.name).join(', ') })}</p>
        <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
          <div className="field">
            <label htmlFor={`${id}-file`}>{t('import.file')}</label>
            <input id={`${id}-file`} type="file" accept=".csv,text/csv" onChange={(event) => setFile(event.target.files?.[0])} />
          </div>
          <button type="submit" className="primary" disabled={busy}>
            {t('import.submit')}
          </button>
        </form>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {result?.ok === true && <p role="status">{t('import.done', { created: result.created, updated: result.updated })}</p>}
        {result?.ok === false && (
          <div role="alert">
            <p className="error">{t('import.failed')}</p>
            <ul className="errors">
              {result.errors.map((issue, index) => (
                <li key={index}>
                  {issue.line !== undefined && <strong>{t('import.line', { line: issue.line })}</strong>}
                  {issue.column !== undefined && <span className="mono"> {issue.column}</span>}
                  {(issue.line !== undefined || issue.column !== undefined) && ': '}
                  {issue.message}
                </li>
              ))}
            </ul>
            {result.moreErrors > 0 && <p>{t('import.more', { count: result.moreErrors })}</p>}
          </div>
        )}
      </section>
    </div>
  );
}
