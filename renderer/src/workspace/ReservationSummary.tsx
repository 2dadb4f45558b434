// The reservation on the call: guest, stay, hotel, balance due, contact, and the payments already made on it.
import type { JSX } from 'react';
import type { PaymentView } from '../../../shared/ipc/views';
import type { ReservationView } from '../../../shared/reservations';
import { useI18n } from '../i18n';
import { StatusBadge } from '../payment/StatusBadge';

interface Props {
  reservation: ReservationView;
  payments: readonly PaymentView[];
  onClose: () => void;
}

export function ReservationSummary({ reservation, payments, onClose }: Props): JSX.Element {
  const { t, money, date, dateTime } = useI18n();
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
        <dt>{t('reservation.balance')}</dt>
        <dd>
          <strong>{money(reservation.balanceDue, reservation.currency)}</strong>
        </dd>
        <dt>{t('reservation.phone')}</dt>
        <dd>{reservation.guestPhone ?? t('reservation.missing')}</dd>
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
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.id}>
                <td>{dateTime(payment.createdAt)}</td>
                <td>
                  {money(payment.amount, payment.currency === 'usd' ? 'usd' : 'mxn')}
                  {payment.installments && <> · {t('plans.months', { count: payment.installments.count })}</>}
                </td>
                <td>
                  <StatusBadge status={payment.status} />
                </td>
                <td className="mono">{payment.id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
