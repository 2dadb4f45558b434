// A payment this desk abandoned went through after all (the guest approved the link already sent): said at once,
// whatever screen is open, until the agent dismisses it. Its refund waits in the supervisors' queue.
import type { JSX } from 'react';
import { shortReference } from '../../../../../shared/payments';
import { moneyCurrency, useI18n } from '../../../i18n';
import { NoticePanel } from '../../../ui/NoticePanel';
import { useLateSuccesses } from '../api';

export function LateSuccessAlert(): JSX.Element | null {
  const { t, money } = useI18n();
  const { alerts, dismiss } = useLateSuccesses();
  if (alerts.length === 0) return null;
  return (
    <NoticePanel id="late-success-title" title={t('lateSuccess.title')} className="panel--warning" role="alert">
      {alerts.map((alert) => {
        const vars = {
          amount: money(alert.amountCents, moneyCurrency(alert.currency)),
          reservation: alert.reservationId,
        };
        return (
          <li key={alert.paymentId}>
            {alert.replacementPaymentId === undefined
              ? t('lateSuccess.textNoReplacement', vars)
              : t('lateSuccess.text', { ...vars, replacement: shortReference(alert.replacementPaymentId) })}{' '}
            <button type="button" onClick={() => dismiss(alert.paymentId)}>
              {t('lateSuccess.dismiss')}
            </button>
          </li>
        );
      })}
    </NoticePanel>
  );
}
