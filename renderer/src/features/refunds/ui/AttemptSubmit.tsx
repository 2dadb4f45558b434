// The end of a refund form (the supervisor's refund, the agent's request): main's refusal, and the button that sends the
// attempt — "Retry" while the attempt is still open (the answer may not have arrived; the same id is sent again).
import type { JSX } from 'react';
import { useI18n, type PlainKey } from '../../../i18n';

/** A refusal in words, and whether it leaves the attempt open (see isRetryable). */
export interface AttemptError {
  text: string;
  retry: boolean;
}

export function AttemptSubmit({
  error,
  busy,
  label,
}: {
  error: AttemptError | undefined;
  busy: boolean;
  label: PlainKey;
}): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      {error && (
        <p className="error" role="alert">
          {error.text} {error.retry && t('refund.retryHint')}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('refund.sending') : error?.retry ? t('common.retry') : t(label)}
      </button>
    </>
  );
}
