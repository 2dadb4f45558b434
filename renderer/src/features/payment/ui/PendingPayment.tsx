// A payment attempt whose answer never came: shown on its reservation with "Check again", in place of a new charge.
import { useState, type JSX } from 'react';
import type { PendingPaymentView } from '../../../../../shared/ipc/views';
import { messageOf, unwrap } from '../../../bridge/client';
import { bridge, keys, queryClient, storePayment } from '../../../api/queries';
import { useCall } from '../../call/store';
import { useI18n } from '../../../i18n';
import { brandLabel } from './Result';

/** Main sends the attempt again with its own key (never a new payment) and says what the service did. */
export function PendingPayment({ attempt }: { attempt: PendingPaymentView }): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const paymentStarted = useCall((state) => state.paymentStarted);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; alert: boolean }>();
  const currency = attempt.currency === 'usd' ? 'usd' : 'mxn';
  const amount = money(attempt.amountCents, currency);

  async function checkAgain(): Promise<void> {
    setBusy(true);
    setSaid(undefined);
    try {
      const check = await unwrap(bridge().payments.checkAgain({ operationId: attempt.operationId }));
      if (check.state === 'answered') {
        storePayment(check.payment);
        paymentStarted(check.payment.id);
        void bridge().payments.watch({ paymentId: check.payment.id });
      } else if (check.state === 'unanswered') {
        setSaid({ text: t('pending.stillUnanswered', { amount }), alert: false });
      } else {
        setSaid({ text: check.message, alert: true });
      }
    } catch (error) {
      setSaid({ text: messageOf(error), alert: true });
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: keys.overview(attempt.reservationId) });
    }
  }

  return (
    <section className="panel panel--warning" aria-labelledby="pending-title">
      <h2 id="pending-title">{t('pending.title')}</h2>
      <p role="alert">{t('pending.help', { amount })}</p>
      <dl className="facts">
        <dt>{t('result.amount')}</dt>
        <dd>
          {amount}
          {attempt.installments && <> · {t('pending.msi')}</>}
        </dd>
        <dt>{t('result.card')}</dt>
        <dd>{attempt.brand !== undefined && attempt.last4 !== undefined ? `${brandLabel(attempt.brand)} •••• ${attempt.last4}` : '—'}</dd>
        <dt>{t('pending.started')}</dt>
        <dd>{dateTime(attempt.startedAt)}</dd>
      </dl>
      <button type="button" className="primary" disabled={busy} aria-busy={busy} onClick={() => void checkAgain()}>
        {t('pending.checkAgain')}
      </button>
      {said && (
        <p className={said.alert ? 'error' : 'hint'} role={said.alert ? 'alert' : 'status'}>
          {said.text}
        </p>
      )}
    </section>
  );
}

/** Attempts unanswered for 24 hours: never sent again; a supervisor must find out what the service did. */
export function ReconcileNotice({ attempts }: { attempts: readonly PendingPaymentView[] }): JSX.Element {
  const { t, money, dateTime } = useI18n();
  return (
    <section className="panel panel--warning" aria-labelledby="reconcile-title">
      <h2 id="reconcile-title">{t('pending.reconcileTitle')}</h2>
      <ul>
        {attempts.map((attempt) => (
          <li key={attempt.operationId}>
            {t('pending.reconcile', { amount: money(attempt.amountCents, attempt.currency === 'usd' ? 'usd' : 'mxn'), when: dateTime(attempt.startedAt) })}
          </li>
        ))}
      </ul>
    </section>
  );
}
