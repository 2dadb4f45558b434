// What main completed after a restart (a payment or refund whose answer never reached the operator who began it): shown
// first, before anything else on the desk, to that operator after sign-in and unlock, and on its reservation, until the
// operator says they have seen it. Nothing here is new money: it tells of what already happened, so it is not charged again.
import type { JSX, ReactNode } from 'react';
import type { RecoveredNoticeView } from '../../../../../shared/ipc/views';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { useAcknowledgeRecovered, useRecovered } from '../api';
import { clockTime } from '../waiting';

/** The signed-in operator's notices, at the top of the workspace whatever the section: acknowledged here. */
export function RecoveredNotices(): JSX.Element | null {
  const mine = useRecovered();
  const acknowledge = useAcknowledgeRecovered();
  const { t } = useI18n();
  const own = mine.data ?? [];
  if (own.length === 0) return null;
  return (
    <NoticeList notices={own} labelId="recovered-title">
      <button
        type="button"
        disabled={acknowledge.isPending}
        onClick={() => acknowledge.mutate({ noticeIds: own.map((notice) => notice.id) })}
      >
        {t('recovered.acknowledge')}
      </button>
      {acknowledge.error !== null && (
        <p className="error" role="alert">
          {describeError(acknowledge.error, t)}
        </p>
      )}
    </NoticeList>
  );
}

/** The open reservation's notices (main's overview), whoever began them: shown on it until their operator acknowledges them. */
export function ReservationRecovered({
  notices,
}: {
  notices: readonly RecoveredNoticeView[] | undefined;
}): JSX.Element | null {
  if (notices === undefined || notices.length === 0) return null;
  return <NoticeList notices={notices} labelId="reservation-recovered-title" />;
}

function NoticeList({
  notices,
  labelId,
  children,
}: {
  notices: readonly RecoveredNoticeView[];
  labelId: string;
  children?: ReactNode;
}): JSX.Element {
  const { t, money, language } = useI18n();
  const sentence = (notice: RecoveredNoticeView): string => {
    const vars = {
      amount:
        notice.amountCents === undefined ? '—' : money(notice.amountCents, notice.currency === 'usd' ? 'usd' : 'mxn'),
      time: clockTime(notice.takenAt, language),
      status: notice.status,
    };
    if (notice.kind === 'refund') return t('recovered.refund', vars);
    return notice.status === 'failed' || notice.status === 'expired' || notice.status === 'canceled'
      ? t('recovered.paymentDeclined', vars)
      : t('recovered.payment', vars);
  };
  return (
    <section className="panel panel--warning" aria-labelledby={labelId}>
      <h2 id={labelId}>{t('recovered.title')}</h2>
      <div role="alert">
        <ul>
          {notices.map((notice) => (
            <li key={notice.id}>
              {sentence(notice)} {t('recovered.reservation', { reservation: notice.reservationId })}
            </li>
          ))}
        </ul>
      </div>
      {children}
    </section>
  );
}
