// One payment, asked of the service again when opened: what was paid, what was refunded (followed live), what is left,
// and the supervisor's refund — full or partial, with a reason — sent with one operation id per attempt.
import { useEffect, useId, useState, type FormEvent, type JSX } from 'react';
import type { RefundLimitView } from '../../../../../shared/desk';
import type { Role } from '../../../../../shared/operators';
import { messageOf, unwrap } from '../../../bridge/client';
import { bridge, storePayment, useFreshPayment, useRefundLimits } from '../../../api/queries';
import { useCall } from '../../call/store';
import { useI18n } from '../../../i18n';
import { StatusBadge } from '../../../ui/StatusBadge';
import { isRetryable, moneyCurrency } from '../../refunds/attempt';
import { checkDraft, emptyDraft } from '../../refunds/draft';
import { RefundFields } from '../../refunds/ui/RefundFields';
import { AttemptSubmit, type AttemptError } from '../../refunds/ui/AttemptSubmit';
import { RefundList } from '../../refunds/ui/RefundList';
import { RequestList } from '../../refunds/ui/RequestRefund';
import { useRequestsFor } from '../../../api/queries';

interface Props {
  paymentId: string;
  role: Role;
  onClose: () => void;
}

/** The role's caps in this currency, as the form's hint. */
function limitHint(limit: RefundLimitView | undefined, money: (cents: number) => string, t: ReturnType<typeof useI18n>['t']): string {
  if (limit?.maxCents !== undefined && limit.maxPerDayCents !== undefined) return t('refund.limitDaily', { amount: money(limit.maxCents), daily: money(limit.maxPerDayCents) });
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
  const slot = `refund:${paymentId}`;
  const [draft, setDraft] = useState(emptyDraft);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AttemptError>();
  const [sent, setSent] = useState<string>();
  const pendingRefund = payment.data?.refunds.some((refund) => refund.status === 'pending') ?? false;

  // A refund still pending when the payment is opened is followed too.
  useEffect(() => {
    if (pendingRefund) void bridge().payments.watch({ paymentId });
  }, [pendingRefund, paymentId]);

  if (payment.isError) {
    return (
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('payments.detail', { id: paymentId })}</h2>
        <p className="error" role="alert">
          {messageOf(payment.error)}
        </p>
      </section>
    );
  }
  const current = payment.data;
  if (current === undefined) return <p aria-busy="true">{t('common.loading')}</p>;
  const currency = moneyCurrency(current.currency);
  const check = checkDraft(draft, current.refundableCents);
  const refundable = current.status === 'succeeded' && current.refundableCents > 0;
  const limit = limits.data?.find((entry) => entry.role === role && entry.currency === currency);

  async function refund(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setTried(true);
    setSent(undefined);
    if (!check.ok || busy) return;
    const call = useCall.getState();
    // The same id until main answers this attempt: a retry after a lost answer cannot refund twice.
    const operationId = call.attemptId(slot);
    setBusy(true);
    setError(undefined);
    try {
      const answer = await unwrap(
        bridge().refunds.create({ operationId, paymentId, reason: check.reason, ...(check.amountCents === undefined ? {} : { amountCents: check.amountCents }) }),
      );
      call.attemptAnswered(slot);
      storePayment(answer);
      void bridge().payments.watch({ paymentId });
      setSent(t('refund.sent', { amount: money(check.amountCents ?? current?.refundableCents ?? 0, currency) }));
      setDraft(emptyDraft());
      setTried(false);
    } catch (e) {
      const retry = isRetryable(e);
      if (!retry) call.attemptAnswered(slot);
      setError({ text: messageOf(e), retry });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel payment-detail" aria-labelledby={`${id}-title`}>
      <div className="panel__head">
        <h2 id={`${id}-title`}>{t('payments.detail', { id: current.id })}</h2>
        <button type="button" className="link" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
      <dl className="facts">
        <dt>{t('payments.col.reservation')}</dt>
        <dd>{current.reservationId}</dd>
        <dt>{t('payments.col.date')}</dt>
        <dd>{dateTime(current.createdAt)}</dd>
        <dt>{t('payments.col.amount')}</dt>
        <dd>
          {money(current.amountCents, currency)}
          {current.installments && <> · {t('report.months', { count: current.installments.count })}</>}
        </dd>
        <dt>{t('payments.col.status')}</dt>
        <dd>
          <StatusBadge status={current.status} />
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
      ) : (
        <form className="stack" onSubmit={(e) => void refund(e)} noValidate aria-label={t('payments.refundTitle')}>
          <RefundFields draft={draft} onChange={setDraft} refundableCents={current.refundableCents} currency={current.currency} check={check} showProblems={tried} disabled={busy} />
          {limits.data && (
            <p className="hint">{limitHint(limit, (cents) => money(cents, currency), t)}</p>
          )}
          <AttemptSubmit error={error} busy={busy} label="refund.submit" />
        </form>
      )}
    </section>
  );
}
