// One payment, asked of the service again when opened: whose it is (guest, reservation), the card and the short reference
// read to the guest, what was paid, what was refunded (followed live), what is left, the supervisor's refund — full or
// partial, with a reason — confirmed once with its amount named, then sent with one operation id per attempt, and its
// receipt, any time.
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { RefundLimitView } from '../../../../../shared/desk';
import type { Role } from '../../../../../shared/operators';
import { shortReference, type RefundReason } from '../../../../../shared/payments';
import { isRetryable, describeError } from '../../../bridge/errors';
import { moneyCurrency, useI18n } from '../../../i18n';
import { ClosableHead } from '../../../ui/ClosableHead';
import { StatusBadge } from '../../../ui/StatusBadge';
import { useReservation } from '../../call';
import { brandLabel, Receipt, useWatchPayment } from '../../payment';
import {
  AttemptSubmit,
  ConfirmRefund,
  RefundFields,
  RefundList,
  RequestList,
  useRefund,
  useRefundLimits,
  useRefundDraft,
  useRequestsFor,
} from '../../refunds';
import { useFreshPayment } from '../api';

interface Props {
  paymentId: string;
  role: Role;
  onClose: () => void;
}

/** The role's caps in this currency, as the form's hint. */
function limitHint(
  limit: RefundLimitView | undefined,
  money: (cents: number) => string,
  t: ReturnType<typeof useI18n>['t'],
): string {
  if (limit?.maxCents !== undefined && limit.maxPerDayCents !== undefined)
    return t('refund.limitDaily', { amount: money(limit.maxCents), daily: money(limit.maxPerDayCents) });
  if (limit?.maxCents !== undefined) return t('refund.limit', { amount: money(limit.maxCents) });
  if (limit?.maxPerDayCents !== undefined) return t('refund.limitDailyOnly', { daily: money(limit.maxPerDayCents) });
  return t('refund.noLimit');
}

export function PaymentDetail({ paymentId, role, onClose }: Props): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const id = useId();
  const payment = useFreshPayment(paymentId);
  const requests = useRequestsFor(paymentId);
  const limits = useRefundLimits();
  const refund = useRefund(paymentId);
  const refundDraft = useRefundDraft(payment.data);
  const [sent, setSent] = useState<string>();
  /** The refund checked and waiting for its one confirmation (the amount it names). */
  const [confirming, setConfirming] = useState<{
    reason: RefundReason;
    amountCents: number | undefined;
    expectedAmountCents: number;
  }>();
  const busy = refund.isPending;
  const error =
    refund.error === null ? undefined : { text: describeError(refund.error, t), retry: isRetryable(refund.error) };
  const pendingRefund = payment.data?.refunds.some((entry) => entry.status === 'pending') ?? false;
  // The guest and where a receipt goes, from the reservation main reads (absent when its source no longer has it).
  const reservation = useReservation(payment.data?.reservationId);
  // As messaging:sendReceipt allows: the roles that take payments.
  const sendsReceipts = role === 'agent' || role === 'supervisor';

  // A refund still pending when the payment is opened is followed too.
  useWatchPayment(paymentId, pendingRefund);

  if (payment.isError) {
    return (
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('payments.detail', { id: paymentId })}</h2>
        <p className="error" role="alert">
          {describeError(payment.error, t)}
        </p>
      </section>
    );
  }
  const current = payment.data;
  if (current === undefined) return <p aria-busy="true">{t('common.loading')}</p>;
  const currency = moneyCurrency(current.currency);
  const { check } = refundDraft;
  const refundable = current.status === 'succeeded' && current.refundableCents > 0;
  const limit = limits.data?.find((entry) => entry.role === role && entry.currency === currency);

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    refundDraft.tried();
    setSent(undefined);
    if (!check.ok || busy) return;
    refund.reset();
    setConfirming({
      reason: check.reason,
      amountCents: check.amountCents,
      expectedAmountCents: check.amountCents ?? current?.refundableCents ?? 0,
    });
  }

  function send(): void {
    if (confirming === undefined) return;
    const amount = money(confirming.expectedAmountCents, currency);
    refund.mutate(confirming, {
      onSuccess: () => {
        setSent(t('refund.sent', { amount }));
        setConfirming(undefined);
        refundDraft.reset();
      },
    });
  }

  return (
    <section className="panel payment-detail" aria-labelledby={`${id}-title`}>
      <ClosableHead id={`${id}-title`} closeLabel={t('common.close')} onClose={onClose}>
        {t('payments.detail', { id: current.id })}
      </ClosableHead>
      <dl className="facts">
        <dt>{t('payments.col.guest')}</dt>
        <dd>{reservation.data?.guestName ?? '—'}</dd>
        <dt>{t('payments.col.reservation')}</dt>
        <dd>{current.reservationId}</dd>
        <dt>{t('payments.col.card')}</dt>
        <dd className="nowrap">
          {current.brand !== undefined && current.last4 !== undefined
            ? `${brandLabel(current.brand)} •••• ${current.last4}`
            : '—'}
        </dd>
        <dt>{t('result.reference')}</dt>
        <dd className="reference">{shortReference(current.id)}</dd>
        <dt>{t('payments.col.date')}</dt>
        <dd>{dateTime(current.createdAt)}</dd>
        <dt>{t('payments.col.amount')}</dt>
        <dd>
          {money(current.amountCents, currency)}
          {current.installments && <> · {t('report.months', { count: current.installments.count })}</>}
        </dd>
        <dt>{t('payments.col.status')}</dt>
        <dd>
          <StatusBadge payment={current} />
        </dd>
        <dt>{t('refund.left')}</dt>
        <dd>
          <strong data-testid="refundable">{money(current.refundableCents, currency)}</strong>
        </dd>
      </dl>
      <RefundList payment={current} />
      <RequestList requests={requests.data ?? []} currency={current.currency} />
      <h3>{t('payments.refundTitle')}</h3>
      {sent && <p role="status">{sent}</p>}
      {!refundable ? (
        <p role="status">{current.status === 'succeeded' ? t('refund.nothingLeft') : t('refund.notRefundable')}</p>
      ) : confirming ? (
        <ConfirmRefund
          title={t('refund.confirm.title')}
          question={t('refund.confirm.question', {
            amount: money(confirming.expectedAmountCents, currency),
            reference: shortReference(current.id),
            reservation: current.reservationId,
          })}
          confirmLabel={t('refund.confirm.key', { amount: money(confirming.expectedAmountCents, currency) })}
          cancelLabel={t('refund.confirm.change')}
          busy={busy}
          error={error && `${error.text}${error.retry ? ` ${t('refund.retryHint')}` : ''}`}
          onConfirm={send}
          onCancel={() => {
            refund.reset();
            setConfirming(undefined);
          }}
        />
      ) : (
        <form className="stack" onSubmit={submit} noValidate aria-label={t('payments.refundTitle')}>
          <RefundFields {...refundDraft.fields} disabled={busy} />
          {limits.data && <p className="hint">{limitHint(limit, (cents) => money(cents, currency), t)}</p>}
          <AttemptSubmit error={error} busy={busy} label="refund.submit" />
        </form>
      )}
      {sendsReceipts && current.status === 'succeeded' && reservation.data && (
        <Receipt payment={current} reservation={reservation.data} />
      )}
    </section>
  );
}
