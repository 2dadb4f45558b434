// What became of the refunds this operator asked for, said as soon as main hears it, whatever screen is open and
// whichever desk the supervisor decided at: approved (on its way), made, rejected (with the supervisor's note) or
// failed; with what it means for what the booking owes (shared/payments/refund-effect.ts), until dismissed.
import type { JSX } from 'react';
import { refundEffect, shortReference } from '../../../../../shared/payments';
import { moneyCurrency, useI18n } from '../../../i18n';
import { NoticePanel } from '../../../ui/NoticePanel';
import { useRefundOutcomes } from '../api';
import './RefundOutcomes.css';

export function RefundOutcomes({ operatorId }: { operatorId: string }): JSX.Element | null {
  const { t, money } = useI18n();
  const { outcomes, dismiss } = useRefundOutcomes(operatorId);
  if (outcomes.length === 0) return null;
  return (
    <NoticePanel id="refund-outcomes-title" title={t('refundOutcome.title')} className="refund-outcomes" role="status">
      {outcomes.map((outcome) => {
        const vars = {
          amount:
            outcome.amountCents === undefined
              ? t('refundOutcome.allLeft')
              : money(outcome.amountCents, moneyCurrency(outcome.currency)),
          reservation: outcome.reservationId,
          payment: shortReference(outcome.paymentId),
          reason: t(`refund.reason.${outcome.reason}`),
          by: outcome.decidedBy ?? '—',
        };
        return (
          <li key={outcome.requestId} data-outcome={outcome.outcome}>
            {outcome.outcome === 'approved' && t('refundOutcome.approved', vars)}
            {outcome.outcome === 'made' && (
              <>
                {t('refundOutcome.made', vars)}{' '}
                <strong>{t(`refundOutcome.effect.${refundEffect(outcome.reason)}`)}</strong>
              </>
            )}
            {outcome.outcome === 'rejected' &&
              t('refundOutcome.rejected', { ...vars, note: outcome.decisionNote ?? '—' })}
            {outcome.outcome === 'failed' && t('refundOutcome.failed', vars)}{' '}
            <button type="button" onClick={() => dismiss(outcome.requestId)}>
              {t('refundOutcome.dismiss')}
            </button>
          </li>
        );
      })}
    </NoticePanel>
  );
}
