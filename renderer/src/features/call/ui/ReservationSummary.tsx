// The reservation on the call: guest, stay, hotel, what it still owes or was paid over (main's count, after payments and
// refunds), contact, and the payments made on it with their cards, the attempts still without an answer among them (as
// the call's header counts them), and a receipt of any paid one.
import { Fragment, useState, type JSX, type ReactNode } from 'react';
import type { PaymentView, PendingPaymentView, ReservationBalance } from '../../../../../shared/ipc/views';
import { shortReference } from '../../../../../shared/payments';
import type { ReservationView } from '../../../../../shared/reservations';
import { moneyCurrency, useI18n } from '../../../i18n';
import { ClosableHead } from '../../../ui/ClosableHead';
import { StatusBadge } from '../../../ui/StatusBadge';
import { RefundBadge } from '../../../ui/RefundBadge';
import { Table } from '../../../ui/Table';
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

/**
 * A payment row's link that opens a form under the row, or closes it (`openId`: the payment whose form is open); its
 * name ends with the payment's id.
 */
function RowToggle({
  paymentId,
  openId,
  onOpen,
  children,
}: {
  paymentId: string;
  openId: string | undefined;
  onOpen: (paymentId: string | undefined) => void;
  children: ReactNode;
}): JSX.Element {
  const open = openId === paymentId;
  return (
    <button type="button" className="link" aria-expanded={open} onClick={() => onOpen(open ? undefined : paymentId)}>
      {children}
      <span className="visually-hidden"> {paymentId}</span>
    </button>
  );
}

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
  const columns = [
    t('reservation.when'),
    t('reservation.amount'),
    t('reservation.card'),
    t('reservation.status'),
    t('result.reference'),
    ...(showRefunds ? [t('refund.list.title')] : []),
    ...(showReceipts ? [t('reservation.receipt')] : []),
  ];
  return (
    <section className="panel" aria-labelledby="reservation-title">
      <ClosableHead id="reservation-title" closeLabel={t('reservation.close')} onClose={onClose}>
        {reservation.guestName} <span className="muted">· {reservation.confirmationNumber}</span>
      </ClosableHead>
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
        <Table columns={columns}>
          {pendingPayments.map((attempt) => (
            <tr key={attempt.operationId}>
              <td>{dateTime(attempt.startedAt)}</td>
              <td>{money(attempt.amountCents, moneyCurrency(attempt.currency))}</td>
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
                  {money(payment.amountCents, moneyCurrency(payment.currency))}
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
                          : money(refund.amountCents, moneyCurrency(payment.currency))}{' '}
                        <RefundBadge status={refund.status} />
                      </span>
                    ))}
                    {refundable(payment) && (
                      <RowToggle paymentId={payment.id} openId={refunding} onOpen={setRefunding}>
                        {t('request.action')}
                      </RowToggle>
                    )}
                  </td>
                )}
                {showReceipts && (
                  <td>
                    {payment.status === 'succeeded' && (
                      <RowToggle paymentId={payment.id} openId={receipt} onOpen={setReceipt}>
                        {t('reservation.sendReceipt')}
                      </RowToggle>
                    )}
                  </td>
                )}
              </tr>
              {refunding === payment.id && (
                <tr>
                  <td colSpan={columns.length}>{requestRefund?.(payment, () => setRefunding(undefined))}</td>
                </tr>
              )}
              {receipt === payment.id && (
                <tr>
                  <td colSpan={columns.length}>{sendReceipt?.(payment, reservation)}</td>
                </tr>
              )}
            </Fragment>
          ))}
        </Table>
      )}
    </section>
  );
}
