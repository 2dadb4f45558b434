// A refund's status, and a refund request's, in words and colour (the words carry the meaning; colour only helps).
import type { JSX } from 'react';
import type { RefundRequestStatus } from '../../../shared/desk';
import { isKnownRefundStatus, type RefundStatus } from '../../../shared/payments/status';
import { useI18n, type PlainKey } from '../i18n';

const REFUND: Record<RefundStatus, PlainKey> = {
  pending: 'refund.status.pending',
  succeeded: 'refund.status.succeeded',
  failed: 'refund.status.failed',
  canceled: 'refund.status.canceled',
};

const TONE: Record<string, string> = {
  succeeded: 'succeeded',
  approved: 'succeeded',
  failed: 'failed',
  canceled: 'failed',
  rejected: 'failed',
};

export function RefundBadge({ status }: { status: string }): JSX.Element {
  const { t } = useI18n();
  const key = isKnownRefundStatus(status) ? REFUND[status] : undefined;
  return <span className={`badge badge--${TONE[status] ?? 'other'}`}>{key === undefined ? status : t(key)}</span>;
}

export function RequestBadge({ status }: { status: RefundRequestStatus }): JSX.Element {
  const { t } = useI18n();
  return <span className={`badge badge--${TONE[status] ?? 'other'}`}>{t(`requests.status.${status}`)}</span>;
}
