// A finished payment: on success, what the agent reads to the guest (a short reference, not the 32-character id) and
// what the reservation owes now, in the call header's words (paid over included); on expiry, what happened and what
// next. The receipt is offered by SMS or e-mail.
import type { JSX } from 'react';
import type { PaymentView, ReservationBalance } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { useI18n } from '../../../i18n';
import { usePanelFocus } from '../../../ui/usePanelFocus';
import { OwedLine } from '../../../ui/OwedLine';
import { StatusBadge } from '../../../ui/StatusBadge';
import { paymentRefundState, shortReference } from '../../../../../shared/payments';
import { brandLabel } from './card/brand';
import { Receipt } from './Receipt';

interface SucceededProps {
  payment: PaymentView;
  card: { brand: string; last4: string } | undefined;
  /** Where the receipt goes by default (the guest's phone or e-mail, and language); without it no receipt is offered. */
  reservation?: ReservationView | undefined;
  /** What the reservation owes now, as main computes it (the same count as the call's header). */
  balance?: ReservationBalance | undefined;
  onNext: () => void;
}

export function Succeeded({ payment, card, reservation, balance, onNext }: SucceededProps): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const currency = payment.currency === 'usd' ? 'usd' : 'mxn';
  // The result, its button included, is scrolled into view (the button has the focus: Enter starts the next payment).
  const { scrollRef } = usePanelFocus<HTMLElement, HTMLElement>();
  return (
    <section ref={scrollRef} className="panel panel--success" aria-labelledby="result-title">
      <h2 id="result-title" tabIndex={-1}>
        {t('result.succeeded')}
      </h2>
      <p className="hint">{t('result.readToGuest')}</p>
      <dl className="facts">
        <dt>{t('result.reference')}</dt>
        <dd className="reference">{shortReference(payment.id)}</dd>
        <dt>{t('result.amount')}</dt>
        <dd>{money(payment.amountCents, currency)}</dd>
        <dt>{t('result.plan')}</dt>
        <dd>
          {payment.installments
            ? t('plans.option', {
                count: payment.installments.count,
                each: money(payment.installments.perInstallmentCents, currency),
              })
            : t('result.singlePayment')}
        </dd>
        <dt>{t('result.card')}</dt>
        <dd>{card ? `${brandLabel(card.brand)} •••• ${card.last4}` : '—'}</dd>
        <dt>{t('result.paymentId')}</dt>
        <dd className="mono muted">{payment.id}</dd>
        <dt>{t('result.when')}</dt>
        <dd>{dateTime(payment.updatedAt ?? payment.createdAt)}</dd>
        {/* Refunded since (at any desk): it says so, not only "approved". */}
        {paymentRefundState(payment) !== undefined && (
          <>
            <dt>{t('reservation.status')}</dt>
            <dd>
              <StatusBadge payment={payment} />
            </dd>
          </>
        )}
      </dl>
      {balance !== undefined && (
        <p className="result__owed">
          <OwedLine balance={balance} withHelp />
        </p>
      )}
      <button type="button" className="primary" autoFocus onClick={onNext}>
        {t('result.next')}
      </button>
      {reservation && <Receipt payment={payment} reservation={reservation} />}
    </section>
  );
}

export function Expired({ onAgain }: { onAgain: () => void }): JSX.Element {
  const { t } = useI18n();
  const { scrollRef } = usePanelFocus<HTMLElement, HTMLElement>();
  return (
    <section ref={scrollRef} className="panel" aria-labelledby="expired-title">
      <h2 id="expired-title">{t('result.expired')}</h2>
      <p>{t('result.expiredHelp')}</p>
      <button type="button" className="primary" autoFocus onClick={onAgain}>
        {t('result.again')}
      </button>
    </section>
  );
}
