// A payment attempt whose answer never came: shown on its reservation with "Check again", in place of a new charge.
import { useEffect, useRef, useState, type JSX } from 'react';
import type { PendingPaymentView } from '../../../../../shared/ipc/views';
import { ApiError, describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { FocusHeading } from '../../../ui/PanelFocus';
import { usePanelFocus } from '../../../ui/usePanelFocus';
import { useCheckAgain, useResolveAttempt } from '../api';
import { callsSupervisor, SUPERVISOR_AFTER_CHECKS, SUPERVISOR_AFTER_SECONDS } from '../waiting';
import { brandLabel } from './card/brand';

/**
 * Main sends the attempt again with its own key (never a new payment) and says what the service did. Meanwhile the
 * agent has the sentence for the guest, and is told when to call a supervisor (after a few checks, or once main says
 * the attempt is old).
 */
export function PendingPayment({ attempt }: { attempt: PendingPaymentView }): JSX.Element {
  const { t, money, dateTime } = useI18n();
  const checkAgain = useCheckAgain(attempt.reservationId);
  const busy = checkAgain.isPending;
  /** "Check again" answered "still no answer" this many times on this panel. */
  const [checks, setChecks] = useState(0);
  // The panel replaces the card form: "Check again" takes the focus, so that Enter checks again.
  const { focusRef } = usePanelFocus<HTMLButtonElement>();
  const currency = attempt.currency === 'usd' ? 'usd' : 'mxn';
  const amount = money(attempt.amountCents, currency);
  // Answered, the payment takes this panel's place; otherwise what the service said.
  const check = checkAgain.data;
  const said: { text: string; alert: boolean } | undefined = checkAgain.error
    ? { text: describeError(checkAgain.error, t), alert: true }
    : check === undefined || check.state === 'answered'
      ? undefined
      : check.state === 'unanswered'
        ? { text: t('pending.stillUnanswered', { amount }), alert: false }
        : check.state === 'reconcile'
          ? { text: t('pending.reconcile', { amount, when: dateTime(check.attempt.startedAt) }), alert: true }
          : {
              text: `${t('pending.refused', { amount })} ${describeError(new ApiError({ code: check.code, message: '' }), t)}`,
              alert: true,
            };
  // The attempt's age as main last said it (the overview, or the last check's answer).
  const ageSeconds = Math.max(attempt.ageSeconds, check?.state === 'unanswered' ? check.attempt.ageSeconds : 0);
  const escalate = callsSupervisor(checks, ageSeconds);

  return (
    <section className="panel panel--warning" aria-labelledby="pending-title">
      <h2 id="pending-title">{t('pending.title')}</h2>
      <p role="alert">{t('pending.help', { amount })}</p>
      <p className="waiting-bar__tell">
        <strong>{t('wait.tellGuest')}</strong> {t('pending.say')}
      </p>
      {/* When to call a supervisor, above the facts: in view with the button on a 1366×768 screen. */}
      {escalate ? (
        <p className="warning" role="alert">
          {/* Its age once main says it is a minute old at least; before that, the checks made. */}
          {ageSeconds >= 60
            ? t('pending.callSupervisor', { minutes: Math.floor(ageSeconds / 60) })
            : t('pending.callSupervisorChecks', { checks })}
        </p>
      ) : (
        <p className="hint">
          {t('pending.whenSupervisor', { checks: SUPERVISOR_AFTER_CHECKS, minutes: SUPERVISOR_AFTER_SECONDS / 60 })}
        </p>
      )}
      <dl className="facts">
        <dt>{t('result.amount')}</dt>
        <dd>
          {amount}
          {attempt.installments && <> · {t('pending.msi')}</>}
        </dd>
        <dt>{t('result.card')}</dt>
        <dd>
          {attempt.brand !== undefined && attempt.last4 !== undefined
            ? `${brandLabel(attempt.brand)} •••• ${attempt.last4}`
            : '—'}
        </dd>
        <dt>{t('pending.started')}</dt>
        <dd>{dateTime(attempt.startedAt)}</dd>
      </dl>
      {/* aria-disabled, not disabled, while checking: a disabled button drops the focus, and Enter would then do nothing. */}
      <button
        ref={focusRef}
        type="button"
        className="primary"
        aria-disabled={busy}
        aria-busy={busy}
        onClick={() =>
          busy ||
          checkAgain.mutate(
            { operationId: attempt.operationId },
            {
              onSuccess: (answer) => {
                if (answer.state === 'unanswered') setChecks((n) => n + 1);
              },
            },
          )
        }
      >
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

/**
 * Attempts never answered within the service's window: never sent again, and the reservation takes no new charge
 * until a supervisor has found out with the service what each did and resolved it here.
 */
export function ReconcileNotice({
  attempts,
  resolves,
}: {
  attempts: readonly PendingPaymentView[];
  resolves: boolean;
}): JSX.Element {
  const { t, money, dateTime } = useI18n();
  // A supervisor's actions are brought into the window whole (below the reservation, they would start under the fold).
  const sectionRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (resolves) sectionRef.current?.scrollIntoView?.({ block: 'end' });
  }, [resolves]);
  return (
    <section ref={sectionRef} className="panel panel--warning" aria-labelledby="reconcile-title">
      <FocusHeading id="reconcile-title">{t('pending.reconcileTitle')}</FocusHeading>
      <p role="alert">{t('pending.reconcileNoCharge')}</p>
      <ul>
        {attempts.map((attempt) => (
          <li key={attempt.operationId}>
            {t('pending.reconcile', {
              amount: money(attempt.amountCents, attempt.currency === 'usd' ? 'usd' : 'mxn'),
              when: dateTime(attempt.startedAt),
            })}
            {resolves && <ResolveAttempt attempt={attempt} />}
          </li>
        ))}
      </ul>
      {!resolves && <p className="hint">{t('pending.reconcileCallSupervisor')}</p>}
    </section>
  );
}

/** The supervisor says what the service did: not charged (once they confirm they checked), or charged as a payment id. */
function ResolveAttempt({ attempt }: { attempt: PendingPaymentView }): JSX.Element {
  const { t } = useI18n();
  const resolve = useResolveAttempt(attempt.reservationId);
  const [checked, setChecked] = useState(false);
  const [paymentId, setPaymentId] = useState('');
  const busy = resolve.isPending;
  const idField = `resolve-payment-${attempt.operationId}`;
  return (
    <div className="stack">
      <label>
        <input type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} />{' '}
        {t('pending.resolveChecked')}
      </label>
      <button
        type="button"
        aria-disabled={!checked || busy}
        onClick={() => checked && !busy && resolve.mutate({ operationId: attempt.operationId, outcome: 'not_charged' })}
      >
        {t('pending.resolveNotCharged')}
      </button>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy && paymentId.trim() !== '')
            resolve.mutate({ operationId: attempt.operationId, outcome: 'charged', paymentId: paymentId.trim() });
        }}
      >
        <label htmlFor={idField}>{t('pending.resolvePaymentId')}</label>
        <input
          id={idField}
          value={paymentId}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setPaymentId(event.target.value)}
        />
        <button type="submit" aria-disabled={busy}>
          {t('pending.resolveCharged')}
        </button>
      </form>
      {resolve.error && (
        <p className="error" role="alert">
          {describeError(resolve.error, t)}
        </p>
      )}
    </div>
  );
}
