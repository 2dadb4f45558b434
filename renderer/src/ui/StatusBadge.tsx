// A payment's status in words and colour (the words carry the meaning; colour only helps); statuses from shared/payments.
import type { JSX } from 'react';
import { isKnownPaymentStatus } from '../../../shared/payments/status';
import { useI18n } from '../i18n';

/** A status this app does not know is shown as the service wrote it. */
export function StatusBadge({ status }: { status: string }): JSX.Element {
  const { t } = useI18n();
  if (!isKnownPaymentStatus(status)) return <span className="badge badge--other">{status}</span>;
  const tone = status === 'canceled' ? 'failed' : status;
  return <span className={`badge badge--${tone}`}>{t(`status.${status}`)}</span>;
}
