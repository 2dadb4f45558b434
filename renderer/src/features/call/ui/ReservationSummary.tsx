// The reservation on the call: guest, stay, hotel, what it still owes or was paid over (main's count, after payments and
// refunds), contact, and the payments made on it with their cards, the attempts still without an answer among them (as
// the call's header counts them), and a receipt of any paid one.
import { Fragment, useState, type JSX, type ReactNode } from 'react';
import type { PaymentView, PendingPaymentView, ReservationBalance } from '../../../../../shared/ipc/views';
import { shortReference } from '../../../../../shared/payments';
import type { ReservationView } from '../../../../../shared/reservations';
import { useI18n } from '../../../i18n';
import { StatusBadge } from '../../../ui/StatusBadge';
import { RefundBadge } from '../../../ui/RefundBadge';
import { owedState } from '../../../ui/OwedLine';
import { formatPhone } from '../../../ui/text';
import { brandLabel } from '../../payment/ui/card/brand';

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
  /**
   * The attempts whose answer never came (main's overview): listed with the payments, as the call's header counts them
   * as being charged.
   */
  pendingPayments?: readonly PendingPaymentView[] | undefined;
  /** The receipt form of a paid payment (the payment feature's, given by the desk), shown under its row; without it, no receipt column. */
  sendReceipt?: ((payment: PaymentView, reservation: ReservationView) => ReactNode) | undefined;
}

/** "Visa •••• 4242", or a dash when main does not know the card. */
const cardText = (card: { brand?: string | undefined; last4?: string | undefined }): string =>
  card.brand !== undefined && card.last4 !== undefined ? `${brandLabel(card.brand)} •••• ${card.last4}` : '—';

export function ReservationSummary({
  reservation,
  payments,
  balance,
  onClose,
  requestRefund,
  pendingPayments = [],
  sendReceipt,
}: Props): JSX.Element {
  const { t, money, date, dateTime } = useI18n();
  // Paid over, or closed by a cancellation refund, says so instead of a bare 0.00 (the same words as the call's header).
  const owed = balance === undefined ? undefined : owedState(balance);
  const [refunding, setRefunding] = useState<string>();
  const [receipt, setReceipt] = useState<string>();
  const refundable = (payment: PaymentView): boolean => payment.status === 'succeeded' && payment.refundableCents > 0;
  const showRefunds =
    requestRefund !== undefined && payments.some((payment) => refundable(payment) || payment.refunds.length > 0);
  const showReceipts = sendReceipt !== undefined && payments.some((payment) => payment.status === 'succeeded');
  const columns = 5 + (showRefunds ? 1 : 0) + (showReceipts ? 1 : 0);
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
                <span className="muted">
                  {' '}
                  ·{' '}
                  {t('reservation.balanceBefore', { amount: money(balance.sourceBalanceCents, reservation.currency) })}
                </span>
              )}
            </dd>
          </>
        ) : (
          <>
            <dt>{t(owed.kind === 'overpaid' ? 'owed.overpaid' : 'owed.closed')}</dt>
            <dd data-owed={owed.kind}>
              <strong className={owed.kind === 'overpaid' ? 'owed--overpaid' : undefined}>
                {owed.kind === 'overpaid' ? money(owed.cents, reservation.currency) : t('owed.nothing')}
              </strong>
              <span className="hint"> · {t(owed.kind === 'overpaid' ? 'owed.overpaidHelp' : 'owed.closedHelp')}</span>
            </dd>
          </>
        )}
        <dt>{t('reservation.phone')}</dt>
        <dd className="nowrap">
          {reservation.guestPhone === undefined ? t('reservation.missing') : formatPhone(reservation.guestPhone)}
        </dd>
        <dt>{t('reservation.email')}</dt>
        <dd>{reservation.guestEmail ?? t('reservation.missing')}</dd>
      </dl>
      <h3>{t('reservation.payments')}</h3>
      {payments.length === 0 && pendingPayments.length === 0 ? (
        <p className="muted">{t('reservation.noPayments')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('reservation.when')}</th>
              <th scope="col">{t('reservation.amount')}</th>
              <th scope="col">{t('reservation.card')}</th>
              <th scope="col">{t('reservation.status')}</th>
              <th scope="col">{t('result.reference')}</th>
              {showRefunds && <th scope="col">{t('refund.list.title')}</th>}
              {showReceipts && <th scope="col">{t('reservation.receipt')}</th>}
            </tr>
          </thead>
          <tbody>
            {pendingPayments.map((attempt) => (
              <tr key={attempt.operationId}>
                <td>{dateTime(attempt.startedAt)}</td>
                <td>{money(attempt.amountCents, attempt.currency === 'usd' ? 'usd' : 'mxn')}</td>
                <td className="nowrap">{cardText(attempt)}</td>
                <td>
                  <span className="badge">{t(`reservation.attempt.${attempt.state}`)}</span>
                </td>
                <td>—</td>
                {showRefunds && <td />}
                {showReceipts && <td />}
              </tr>
            ))}
            {payments.map((payment) => (
              <Fragment key={payment.id}>
                <tr>
                  <td>{dateTime(payment.createdAt)}</td>
                  <td>
                    {money(payment.amountCents, payment.currency === 'usd' ? 'usd' : 'mxn')}
                    {payment.installments && <> · {t('plans.months', { count: payment.installments.count })}</>}
                  </td>
                  <td className="nowrap">{cardText(payment)}</td>
                  <td>
                    <StatusBadge payment={payment} />
                  </td>
                  {/* The short reference the guest was read (the whole id is on the result and the payment detail). */}
                  <td className="mono nowrap" title={payment.id}>
                    {shortReference(payment.id)}
                  </td>
                  {showRefunds && (
                    <td>
                      {payment.refunds.map((refund) => (
                        <span key={refund.id} className="refund-chip">
                          {refund.amountCents === undefined
                            ? '—'
                            : money(refund.amountCents, payment.currency === 'usd' ? 'usd' : 'mxn')}{' '}
                          <RefundBadge status={refund.status} />
                        </span>
                      ))}
                      {refundable(payment) && (
                        <button
                          type="button"
                          className="link"
                          aria-expanded={refunding === payment.id}
                          onClick={() => setRefunding(refunding === payment.id ? undefined : payment.id)}
                        >
                          {t('request.action')}
                          <span className="visually-hidden"> {payment.id}</span>
                        </button>
                      )}
                    </td>
                  )}
                  {showReceipts && (
                    <td>
                      {payment.status === 'succeeded' && (
                        <button
                          type="button"
                          className="link"
                          aria-expanded={receipt === payment.id}
                          onClick={() => setReceipt(receipt === payment.id ? undefined : payment.id)}
                        >
                          {t('reservation.sendReceipt')}
                          <span className="visually-hidden"> {payment.id}</span>
                        </button>
                      )}
                    </td>
                  )}
                </tr>
                {refunding === payment.id && (
                  <tr>
                    <td colSpan={columns}>{requestRefund?.(payment, () => setRefunding(undefined))}</td>
                  </tr>
                )}
                {receipt === payment.id && (
                  <tr>
                    <td colSpan={columns}>{sendReceipt?.(payment, reservation)}</td>
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
