// What was already refunded on a payment: amount, reason, status (followed live), when.
import type { JSX } from 'react';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { moneyCurrency, useI18n } from '../../../i18n';
import { reasonKey } from '../reasons';
import { RefundBadge } from '../../../ui/RefundBadge';
import { Table } from '../../../ui/Table';

export function RefundList({ payment, headingLevel = 3 }: { payment: PaymentView; headingLevel?: 3 | 4 }): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const currency = moneyCurrency(payment.currency);
  return (
    <div className="refund-list" aria-live="polite">
      <Heading>{t('refund.list.title')}</Heading>
      {payment.refunds.length === 0 ? (
        <p className="muted">{t('refund.list.none')}</p>
      ) : (
        <Table
          columns={[t('refund.list.amount'), t('refund.list.reason'), t('refund.list.status'), t('refund.list.when')]}
        >
          {payment.refunds.map((refund) => {
            const reason = refund.reason === undefined ? undefined : reasonKey(refund.reason);
            return (
              <tr key={refund.id}>
                <td>{refund.amountCents === undefined ? '—' : money(refund.amountCents, currency)}</td>
                <td>{reason === undefined ? (refund.reason ?? '—') : t(reason)}</td>
                <td>
                  <RefundBadge status={refund.status} />
                </td>
                <td>{refund.createdAt === undefined ? '—' : dateTime(refund.createdAt)}</td>
              </tr>
            );
          })}
        </Table>
      )}
    </div>
  );
}
