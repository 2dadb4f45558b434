// A short note under the top bar while the center's live feed is being reconnected: what the screens show may be out of
// date (a "pending" may have been decided meanwhile) until it is back and they read again.
import type { JSX } from 'react';
import { useI18n } from '../../../i18n';
import { useLiveStatus } from '../api';
import './LiveNote.css';

export function LiveNote(): JSX.Element | null {
  const { t } = useI18n();
  const state = useLiveStatus();
  if (state !== 'reconnecting') return null;
  return (
    <p className="live-note" role="status" aria-live="polite">
      {t('live.reconnecting')}
    </p>
  );
}
