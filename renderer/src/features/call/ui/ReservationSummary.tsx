// The reservation on the call: guest, stay, hotel, what it still owes or was paid over (main's count, after payments and refunds),
// contact, and the payments already made on it.
import { Fragment, useState, type JSX, type ReactNode } from 'react';
import type { PaymentView, ReservationBalance } from '../../../../../shared/ipc/views';
import type { ReservationView } from '../../../../../shared/reservations';
import { useI18n } from '../../../i18n';
import { StatusBadge } from '../../../ui/StatusBadge';
import { RefundBadge } from '../../../ui/RefundBadge';
import { owedState } from '../../../ui/OwedLine';
import { formatPhone } from '../../../ui/text';

interface Props {
  reservation: ReservationView;
  payments: readonly PaymentView[];
  /** What it still owes as main computes it; without it, the reservation's own balance. */
  balance?: ReservationBalance | undefined;
  onClose: () => void;
  /**
   * Agents may ask a supervisor to refund a paid payment from here: the form for a payment (the refunds feature's,
   * given by the desk), shown under its row. Without it, no refund column.
   */
  requestRefund?: ((payment: PaymentView, onClose: () => void) => ReactNode) | undefined;
}

export function ReservationSummary({ reservation, payments, balance, onClose, requestRefund }: Props): JSX.Element {
  const { t, money, date, dateTime } = useI18n();
  // Paid over, or closed by a cancellation refund, says so instead of a bare 0.00 (the same words as the call's header).
  const owed = balance === undefined ? undefined : owedState(balance);
  const [refunding, setRefunding] = useState<string>();
  const refundable = (payment: PaymentView): boolean => payment.status === 'succeeded' && payment.refundableCents > 0;
  const showRefunds = requestRefund !== undefined && payments.some((payment) => refundable(payment) || payment.refunds.length > 0);
  return (
    <section className="panel" aria-labelledby="reservation-title">
      <div className="panel__head">
        <h2 id="reservation-title">
          {reservation.guestName} <span className="muted">· {reservation.confirmationNumber}</span>
        </h2>
        <button type="button" className="link" onClick={onClose}>
          {t('reservation.close')}
        </button>
      </div>
      <dl className="facts">
        <dt>{t('reservation.hotel')}</dt>
        <dd>{reservation.hotelName}</dd>
        <dt>{t('reservation.stay')}</dt>
        <dd>
          {date(reservation.checkIn)} – {date(reservation.checkOut)}
        </dd>
        {owed === undefined || owed.kind === 'owed' ? (
          <>
            <dt>{t('reservation.balance')}</dt>
            <dd>
              <strong>{money(balance?.owedCents ?? reservation.balanceDueCents, reservation.currency)}</strong>
              {balance !== undefined && balance.owedCents !== balance.sourceBalanceCents && (
                <span className="muted"> · {t('reservation.balanceBefore', { amount: money(balance.sourceBalanceCents, reservation.currency) })}</span>
              )}
            </dd>
          </>
        ) : (
          <>
            <dt>{t(owed.kind === 'overpaid' ? 'owed.overpaid' : 'owed.closed')}</dt>
            <dd data-owed={owed.kind}>
              <strong className={owed.kind === 'overpaid' ? 'owed--overpaid' : undefined}>{owed.kind === 'overpaid' ? money(owed.cents, reservation.currency) : t('owed.nothing')}</strong>
              <span className="hint"> · {t(owed.kind === 'overpaid' ? 'owed.overpaidHelp' : 'owed.closedHelp')}</span>
            </dd>
          </>
        )}
        <dt>{t('reservation.phone')}</dt>
        <dd className="nowrap">{reservation.guestPhone === undefined ? t('reservation.missing') : formatPhone(reservation.guestPhone)}</dd>
        <dt>{t('reservation.email')}</dt>
        <dd>{reservation.guestEmail ?? t('reservation.missing')}</dd>
      </dl>
      <h3>{t('reservation.payments')}</h3>
      {payments.length === 0 ? (
        <p className="muted">{t('reservation.noPayments')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('reservation.when')}</th>
              <th scope="col">{t('reservation.amount')}</th>
              <th scope="col">{t('reservation.status')}</th>
              <th scope="col">{t('reservation.paymentId')}</th>
              {showRefunds && <th scope="col">{t('refund.list.title')}</th>}
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <Fragment key={payment.id}>
              <tr>
                <td>{dateTime(payment.createdAt)}</td>
                <td>
                  {money(payment.amountCents, payment.currency === 'usd' ? 'usd' : 'mxn')}
                  {payment.installments && <> · {t('plans.months', { count: payment.installments.count })}</>}
                </td>
                <td>
                  <StatusBadge payment={payment} />
                </td>
                <td className="mono">{payment.id}</td>
                {showRefunds && (
                  <td>
                    {payment.refunds.map((refund) => (
                      <span key={refund.id} className="refund-chip">
                        {refund.amountCents === undefined ? '—' : money(refund.amountCents, payment.currency === 'usd' ? 'usd' : 'mxn')} <RefundBadge status={refund.status} />
                      </span>
                    ))}
                    {refundable(payment) && (
                      <button type="button" className="link" aria-expanded={refunding === payment.id} onClick={() => setRefunding(refunding === payment.id ? undefined : payment.id)}>
                        {t('request.action')}
                        <span className="visually-hidden"> {payment.id}</span>
                      </button>
                    )}
                  </td>
                )}
              </tr>
              {refunding === payment.id && (
                <tr>
                  <td colSpan={5}>
                    {requestRefund?.(payment, () => setRefunding(undefined))}
                  </td>
                </tr>
              )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
