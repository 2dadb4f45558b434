// While a payment waits (the bank, the cardholder's 3-D Secure, an MSI plan): how long it has waited, how long its link
// stays valid, the line to tell the guest, and "Abandon and use another card".
import { useEffect, useState, type JSX } from 'react';
import type { LivePaymentView, PaymentView } from '../../../../../shared/ipc/views';
import { ApiError, describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { useAbandon } from '../api';
import { mmss, secondsLeft } from '../plans';
import { elapsedText, secondsSince } from '../waiting';

/** The time now, renewed every `intervalMs` while mounted (for the counters). */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Since when the payment has been waiting as it is now: main's word when it listed it, else the payment's last change. */
export const waitingSince = (payment: PaymentView, live: LivePaymentView | undefined): string =>
  live?.waitingSince ?? payment.updatedAt ?? payment.createdAt;

/**
 * The waiting bar: elapsed mm:ss, the link's remaining time (3-D Secure), and what to tell the guest meanwhile — that a
 * link was sent only once one was (`linkSent`).
 */
export function WaitingBar({
  payment,
  live,
  linkSent = false,
}: {
  payment: PaymentView;
  live: LivePaymentView | undefined;
  linkSent?: boolean;
}): JSX.Element {
  const { t } = useI18n();
  const now = useNow(1000);
  const waited = secondsSince(waitingSince(payment, live), now);
  const expiresAt = live?.expiresAt ?? payment.expiresAt;
  const linkLeft =
    payment.status === 'requires_action' && expiresAt !== undefined ? secondsLeft(expiresAt, now) : undefined;
  return (
    <div className="waiting-bar">
      <p className="waiting-bar__times">
        <span role="timer" aria-live="off" className="waiting-bar__elapsed">
          {t('wait.elapsed', { time: elapsedText(waited) })}
        </span>
        {linkLeft !== undefined && (
          <span className={linkLeft < 120 ? 'warning' : undefined}>
            {linkLeft > 0 ? t('wait.linkValid', { time: mmss(linkLeft) }) : t('wait.linkExpired')}
          </span>
        )}
      </p>
      <p className="waiting-bar__tell">
        <strong>{t('wait.tellGuest')}</strong>{' '}
        {payment.status === 'requires_action'
          ? linkSent
            ? t('wait.say.link')
            : t('wait.say.beforeLink')
          : t('wait.say.processing')}
      </p>
    </div>
  );
}

/**
 * "Abandon and use another card": main leaves the payment to expire on the service once it says it did not succeed. The
 * guest is asked to ignore a link only when one was sent (`linkSent`).
 */
export function AbandonButton({
  payment,
  expiresAt,
  linkSent = false,
}: {
  payment: PaymentView;
  expiresAt?: string | undefined;
  linkSent?: boolean;
}): JSX.Element {
  const { t, time } = useI18n();
  const abandon = useAbandon(payment.reservationId);
  const busy = abandon.isPending;
  return (
    <div className="abandon">
      {/* aria-disabled, not disabled, while main asks the service: a disabled button drops the focus, and a refusal would leave the agent nowhere. */}
      <button
        type="button"
        aria-disabled={busy}
        aria-busy={busy}
        onClick={() => busy || abandon.mutate({ paymentId: payment.id })}
      >
        {t('wait.abandon')}
      </button>
      <p className="hint">{linkSent ? t('wait.abandonHelp') : t('wait.abandonHelpNoLink')}</p>
      {abandon.error && (
        <p className="error" role="alert">
          {/* The service could not be asked: how long at most the reservation stays blocked (the link's expiry). */}
          {abandon.error instanceof ApiError &&
          abandon.error.code === 'abandon_outcome_unknown' &&
          expiresAt !== undefined
            ? t('wait.abandonUnknown', { time: time(Date.parse(expiresAt)) })
            : describeError(abandon.error, t)}
        </p>
      )}
    </div>
  );
}
