// An abandoned 3-D Secure payment the guest approved after all (the link already sent still worked): the open
// reservation says so plainly — being charged, or charged — and what to do, never silently.
import type { JSX } from 'react';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { useI18n } from '../../../i18n';

/** The reservation's abandoned payments that are being charged or went through after all. */
export function approvedAfterAbandon(payments: readonly PaymentView[]): PaymentView[] {
  return payments.filter(
    (payment) =>
      payment.abandonedAt !== undefined && (payment.status === 'processing' || payment.status === 'succeeded'),
  );
}

export function AbandonedNotice({ payments }: { payments: readonly PaymentView[] }): JSX.Element | null {
  const { t, money, time } = useI18n();
  const approved = approvedAfterAbandon(payments);
  if (approved.length === 0) return null;
  return (
    <section className="panel panel--warning" aria-labelledby="abandoned-approved-title">
      <h2 id="abandoned-approved-title">{t('abandoned.title')}</h2>
      <div role="alert">
        <ul>
          {approved.map((payment) => {
            const vars = {
              amount: money(payment.amountCents, payment.currency === 'usd' ? 'usd' : 'mxn'),
              when: time(Date.parse(payment.abandonedAt ?? payment.createdAt)),
            };
            return (
              <li key={payment.id}>
                {payment.status === 'processing' ? t('abandoned.processing', vars) : t('abandoned.succeeded', vars)}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
