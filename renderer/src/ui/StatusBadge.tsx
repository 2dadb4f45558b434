// A payment's status in words and colour (the words carry the meaning; colour only helps); statuses from shared/payments.
import type { JSX } from 'react';
import { isKnownPaymentStatus, paymentRefundState } from '../../../shared/payments/status';
import { useI18n } from '../i18n';

type Props =
  | { status: string; payment?: never }
  /** A payment with its refunds: one refunded in full reads "Refunded", in part "Partly refunded", not "Paid". */
  | {
      payment: {
        status: string;
        amountCents: number;
        refunds: readonly { status: string; amountCents?: number | undefined }[];
      };
      status?: never;
    };

/** A status this app does not know is shown as the service wrote it. */
export function StatusBadge(props: Props): JSX.Element {
  const { t } = useI18n();
  const status = props.payment?.status ?? props.status ?? '';
  const refunded = props.payment === undefined ? undefined : paymentRefundState(props.payment);
  if (refunded !== undefined)
    return (
      <span className={`badge badge--${refunded === 'refunded' ? 'refunded' : 'succeeded'}`}>
        {t(`status.${refunded}`)}
      </span>
    );
  if (!isKnownPaymentStatus(status)) return <span className="badge badge--other">{status}</span>;
  const tone = status === 'canceled' ? 'failed' : status;
  return <span className={`badge badge--${tone}`}>{t(`status.${status}`)}</span>;
}
