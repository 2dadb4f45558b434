// What main completed after a restart (a payment or refund whose answer never reached the operator who began it): shown
// first, before anything else on the desk, to that operator after sign-in and unlock, and on its reservation, until the
// operator says they have seen it. Nothing here is new money: it tells of what already happened, so it is not charged again.
import type { JSX } from 'react';
import type { RecoveredNoticeView } from '../../../../../shared/ipc/views';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { useAcknowledgeRecovered, useRecovered } from '../api';
import { clockTime } from '../waiting';

interface Props {
  /** The open reservation's notices (main's overview): shown with the operator's own, once each. */
  reservationNotices?: readonly RecoveredNoticeView[] | undefined;
}

export function RecoveredNotices({ reservationNotices = [] }: Props): JSX.Element | null {
  const { t, money, language } = useI18n();
  const mine = useRecovered();
  const acknowledge = useAcknowledgeRecovered();
  const own = mine.data ?? [];
  const notices = [...own, ...reservationNotices.filter((notice) => !own.some((o) => o.id === notice.id))];
  if (notices.length === 0) return null;
  const sentence = (notice: RecoveredNoticeView): string => {
    const vars = {
      amount: notice.amountCents === undefined ? '—' : money(notice.amountCents, notice.currency === 'usd' ? 'usd' : 'mxn'),
      time: clockTime(notice.takenAt, language),
      status: notice.status,
    };
    if (notice.kind === 'refund') return t('recovered.refund', vars);
    return notice.status === 'failed' || notice.status === 'expired' || notice.status === 'canceled' ? t('recovered.paymentDeclined', vars) : t('recovered.payment', vars);
  };
  return (
    <section className="panel panel--warning" aria-labelledby="recovered-title">
      <h2 id="recovered-title">{t('recovered.title')}</h2>
      <div role="alert">
        <ul>
          {notices.map((notice) => (
            <li key={notice.id}>
              {sentence(notice)} {t('recovered.reservation', { reservation: notice.reservationId })}
            </li>
          ))}
        </ul>
      </div>
      {own.length > 0 && (
        <button type="button" disabled={acknowledge.isPending} onClick={() => acknowledge.mutate({ noticeIds: own.map((notice) => notice.id) })}>
          {t('recovered.acknowledge')}
        </button>
      )}
      {acknowledge.error !== null && (
        <p className="error" role="alert">
          {describeError(acknowledge.error, t)}
        </p>
      )}
    </section>
  );
}
