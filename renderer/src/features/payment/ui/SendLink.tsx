// 3DS: the agent sends the authentication link to the guest's own device by SMS, WhatsApp or e-mail — never opens it —
// and watches it go: queued → sent → delivered, or why not and who can put it right. The message is in the guest's
// language (the reservation's), which the agent may change; channel and language are kept in the call's draft.
import { useEffect, useId, useRef, useState, type FormEvent, type JSX, type ReactNode } from 'react';
import type { LivePaymentView, PaymentView } from '../../../../../shared/ipc/views';
import type { DeliveryResult, MessageChannel } from '../../../../../shared/messaging';
import type { ReservationView } from '../../../../../shared/reservations';
import { describeError } from '../../../bridge/errors';
import { useI18n, type I18n } from '../../../i18n';
import { usePanelFocus } from '../../../ui/usePanelFocus';
import { useCall } from '../../call';
import { useDeliveryUpdates, useSendLink } from '../api';
import { STEP_OF, STEPS, newer, statusLine } from '../delivery';
import { Destination } from './Destination';
import { guestChannel, useDestination } from './useDestination';
import './SendLink.css';

const LINK_CHANNELS: readonly MessageChannel[] = ['sms', 'whatsapp', 'email'];

const prefill = (channel: MessageChannel, reservation: ReservationView): string =>
  (channel === 'email' ? reservation.guestEmail : reservation.guestPhone) ?? '';

/** One message's delivery: its status in words, its steps to the guest, or why it failed and who can put it right. */
export function Delivery({ result, i18n }: { result: DeliveryResult; i18n: I18n }): JSX.Element {
  const { t } = i18n;
  const failed = result.status === 'failed' || result.status === 'unknown';
  const followed =
    !result.training &&
    result.channel !== 'email' &&
    result.status !== 'unknown' &&
    !(result.status === 'failed' && result.attempts === 0);
  const reached = result.status === 'failed' ? -1 : result.status === 'unknown' ? -1 : STEP_OF[result.status];
  return (
    <li className={`delivery delivery--${result.status}`} data-message-id={result.messageId}>
      <span className="delivery__line">{statusLine(result, i18n)}</span>
      {followed && !failed && (
        <ol className="delivery__steps" aria-label={t('link.steps')}>
          {STEPS.map((step, index) => (
            <li
              key={step}
              className={index <= reached ? 'delivery__step delivery__step--done' : 'delivery__step'}
              aria-current={index === reached ? 'step' : undefined}
            >
              {t(`link.step.${step}`)}
            </li>
          ))}
        </ol>
      )}
      {failed && (
        <span className="delivery__next">
          <strong>{t(`link.actor.${result.failure.actor}`)}</strong> {t(`delivery.failure.${result.failure.code}`)}
        </span>
      )}
    </li>
  );
}

interface Props {
  payment: PaymentView;
  reservation: ReservationView;
  /** The last message that carried the link (a payment that came back): its channel is offered again. */
  lastLink?: LivePaymentView['lastLink'] | undefined;
  /** A message with the link went (or was captured in training): what the guest is told may now say so. */
  onSent?: (() => void) | undefined;
  /** The panel's other actions ("Abandon and use another card"), beside the send button: all in view together. */
  actions?: ReactNode;
}

export function SendLink({ payment, reservation, lastLink, onSent, actions }: Props): JSX.Element {
  const i18n = useI18n();
  const { t, dateTime } = i18n;
  const draft = useCall((state) => state.draft);
  const editDraft = useCall((state) => state.editDraft);
  const where = useDestination<MessageChannel>({
    channels: LINK_CHANNELS,
    initial: () => draft.channel ?? lastLink?.channel ?? guestChannel(reservation),
    prefill: (channel) => prefill(channel, reservation),
    onChannel: (channel) => editDraft({ channel }),
  });
  const { channel, destination } = where;
  const guestLanguage = draft.guestLanguage ?? reservation.guestLanguage;
  const sendLink = useSendLink(payment.id);
  const busy = sendLink.isPending;
  const problem = sendLink.error === null ? undefined : describeError(sendLink.error, t);
  const [results, setResults] = useState<DeliveryResult[]>([]);
  /** A quick re-send main asked the agent to confirm: the earlier, unanswered message, and how long ago it went. */
  const [confirming, setConfirming] = useState<{ previous: DeliveryResult; seconds: number }>();
  /** The latest word on each message, also for events that arrive before sendLink's own answer. */
  const latest = useRef(new Map<string, DeliveryResult>());
  const confirmButton = useRef<HTMLButtonElement>(null);
  const id = useId();

  // main follows each message with the provider and reports every new status.
  useDeliveryUpdates(payment.id, (update) => {
    if (!newer(latest.current.get(update.messageId), update)) return;
    latest.current.set(update.messageId, update);
    setResults((previous) => previous.map((result) => (result.messageId === update.messageId ? update : result)));
  });

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  // The 3DS panel replaces the card form: the focus goes to where the link is sent (Enter sends it), the send button is
  // scrolled into view. A panel that comes back with a link already sent focuses its title instead: a reflex Enter
  // must not send the guest the link again.
  const [reopened] = useState(lastLink !== undefined);
  const { focusRef, scrollRef } = usePanelFocus<HTMLInputElement, HTMLDivElement>();
  const { focusRef: titleRef } = usePanelFocus<HTMLHeadingElement>();
  // What a send answered (or asks) comes just above the actions: both are kept in view as it comes.
  useEffect(() => {
    if (results.length > 0 || confirming) scrollRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [results.length, confirming, scrollRef]);

  function deliver(confirmResend: boolean): void {
    setConfirming(undefined);
    sendLink.mutate(
      { channel, destination, language: guestLanguage, ...(confirmResend ? { confirmResend: true } : {}) },
      {
        onSuccess: (outcome) => {
          if (outcome.status === 'confirm_resend') {
            setConfirming({
              previous: outcome.previous,
              seconds: Math.max(1, Math.round((Date.now() - Date.parse(outcome.sentAt)) / 1000)),
            });
            return;
          }
          onSent?.();
          const known = latest.current.get(outcome.messageId);
          const result = known && newer(outcome, known) ? known : outcome;
          latest.current.set(result.messageId, result);
          setResults((previous) => [result, ...previous.filter((r) => r.messageId !== result.messageId)]);
        },
      },
    );
  }

  function send(event: FormEvent): void {
    event.preventDefault();
    where.touch();
    if (!where.ready) return;
    deliver(false);
  }

  const sentOnce = lastLink !== undefined || results.some((result) => result.attempts > 0 || result.training);
  return (
    <form
      className="subpanel link-form"
      aria-labelledby={`${id}-title`}
      onSubmit={send}
      noValidate
      onKeyDown={(event) => {
        // Enter on a channel chooses it and goes to where the link is sent: a radio never sends the guest a message.
        if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type === 'radio') {
          event.preventDefault();
          event.target.click();
          document.getElementById(`${id}-to`)?.focus();
        }
      }}
    >
      <h3 ref={reopened ? titleRef : undefined} id={`${id}-title`} tabIndex={-1}>
        {t('link.title')}
      </h3>
      <p className="hint">{t('link.help')}</p>
      {lastLink !== undefined && results.length === 0 && (
        <p className="muted">
          {t('link.lastSent', {
            channel: t(`link.channelInText.${lastLink.channel}`),
            to: lastLink.to,
            when: dateTime(lastLink.sentAt),
          })}
        </p>
      )}
      <Destination
        id={id}
        {...where.fields}
        language={guestLanguage}
        onLanguage={(next) => editDraft({ guestLanguage: next })}
        inputRef={reopened ? undefined : focusRef}
      />
      <ul className="deliveries" aria-live="polite">
        {results.map((result) => (
          <Delivery key={result.messageId} result={result} i18n={i18n} />
        ))}
      </ul>
      {confirming && (
        <div
          className="resend-confirm"
          role="alertdialog"
          aria-labelledby={`${id}-confirm-title`}
          aria-describedby={`${id}-confirm-text`}
        >
          <p id={`${id}-confirm-title`} className="resend-confirm__title">
            {t('link.confirm.title')}
          </p>
          <p id={`${id}-confirm-text`}>
            {t('link.confirm.text', { to: confirming.previous.to, seconds: confirming.seconds })}
          </p>
          <div className="resend-confirm__actions">
            <button type="button" ref={confirmButton} onClick={() => setConfirming(undefined)}>
              {t('link.confirm.wait')}
            </button>
            <button type="button" disabled={busy} onClick={() => deliver(true)}>
              {t('link.confirm.send')}
            </button>
          </div>
        </div>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div ref={scrollRef} className="link-actions">
        <button type="submit" className="primary" disabled={busy}>
          {sentOnce ? t('link.resend') : t('link.send')}
        </button>
        {actions}
      </div>
    </form>
  );
}
