// The admin loads the hotel's reservations from a CSV export into the built-in store: every row, or none.
import { useId, useState, type FormEvent, type JSX } from 'react';
import { RESERVATION_CSV_COLUMNS, type CsvImportResult } from '../../../../../shared/reservations';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { Field } from '../../../ui/Field';
import { issueText } from '../issues';
import { useImportReservations } from '../api';
import '../../../ui/desk.css';

export function ImportReservations(): JSX.Element {
  const { t, language } = useI18n();
  const id = useId();
  const [file, setFile] = useState<File>();
  const load = useImportReservations();
  const [missingFile, setMissingFile] = useState(false);
  const busy = load.isPending;
  const result: CsvImportResult | undefined = load.data;
  const error = missingFile ? t('import.noFile') : load.error === null ? undefined : describeError(load.error, t);

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    load.reset();
    setMissingFile(file === undefined);
    if (file) load.mutate({ file });
  }

  return (
    <div className="desk">
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('import.title')}</h2>
        <p className="hint">{t('import.help')}</p>
        <p className="hint">
          {t('import.columns', { columns: RESERVATION_CSV_COLUMNS.map((column) => column.name).join(', ') })}
        </p>
        <form className="stack" onSubmit={submit} noValidate>
          <Field id={`${id}-file`} label={t('import.file')}>
            <input
              id={`${id}-file`}
              type="file"
              accept=".csv,text/csv"
              onChange={(event) => setFile(event.target.files?.[0])}
            />
          </Field>
          <button type="submit" className="primary" disabled={busy}>
            {t('import.submit')}
          </button>
        </form>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {result?.ok === true && (
          <p role="status">{t('import.done', { created: result.created, updated: result.updated })}</p>
        )}
        {result?.ok === false && (
          <div role="alert">
            <p className="error">{t('import.failed')}</p>
            <ul className="errors">
              {result.errors.map((issue, index) => (
                <li key={index}>
                  {issue.line !== undefined && <strong>{t('import.line', { line: issue.line })}</strong>}
                  {issue.column !== undefined && <span className="mono"> {issue.column}</span>}
                  {(issue.line !== undefined || issue.column !== undefined) && ': '}
                  {issueText(issue, language)}
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
