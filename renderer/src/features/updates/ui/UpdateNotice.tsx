// The update banner's markup for a status: a ready update, with the restart button only when no payment is in progress.
import type { JSX } from 'react';
import type { UpdateStatus } from '../../../../../shared/ipc';
import { useI18n } from '../../../i18n';
import { noticeFor } from '../notice';
import './UpdateBanner.css';

export interface NoticeProps {
  status: UpdateStatus | undefined;
  restarting: boolean;
  /** Why the last restart was refused, already in words. */
  problem: string | undefined;
  onRestart: () => void;
}

/** The banner's markup for a status (no data fetching: rendered as is in tests). */
export function UpdateNotice({ status, restarting, problem, onRestart }: NoticeProps): JSX.Element | null {
  const { t } = useI18n();
  const notice = noticeFor(status);
  if (notice.kind === 'none') return null;
  return (
    <section className="update-banner" role="status" aria-live="polite">
      <p className="update-banner__text">
        {t(notice.afterCall ? 'update.readyAfterCall' : 'update.ready', { version: notice.version })}
      </p>
      {!notice.afterCall && (
        <button type="button" className="update-banner__restart" disabled={restarting} onClick={onRestart}>
          {restarting ? t('update.restarting') : t('update.restart')}
        </button>
      )}
      {problem !== undefined && (
        <p className="update-banner__problem" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
