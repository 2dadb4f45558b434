// What a screen says while its data is read: the refusal in words (an alert) and the loading line.
import type { JSX } from 'react';
import { useI18n } from '../i18n';

interface Props {
  /** The query's error, already in words (describeError); undefined when there is none. */
  error: string | undefined;
  /** True while the data is being read. */
  loading?: boolean;
}

export function QueryState({ error, loading = false }: Props): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      {error !== undefined && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {loading && <p aria-busy="true">{t('common.loading')}</p>}
    </>
  );
}
