// 3DS: the agent sends the authentication link to the guest's own device by SMS, WhatsApp or e-mail — never opens it.
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { PaymentView } from '../../../shared/ipc/views';
import { checkDestination, describeDeliveryFailure, type DeliveryResult, type MessageChannel } from '../../../shared/messaging';
import type { ReservationView } from '../../../shared/reservations';
import { unwrap } from '../api/client';
import { describeError } from '../api/refusal';
import { bridge } from '../api/queries';
import { useI18n } from '../i18n';

const prefill = (channel: MessageChannel, reservation: ReservationView): string =>
  (channel === 'email' ? reservation.guestEmail : reservation.guestPhone) ?? '';

export function SendLink({ payment, reservation }: { payment: PaymentView; reservation: ReservationView }): JSX.Element {
  const { t, language, dateTime } = useI18n();
  const initial: MessageChannel = reservation.guestPhone === undefined && reservation.guestEmail !== undefined ? 'email' : 'sms';
  const [channel, setChannel] = useState<MessageChannel>(initial);
  const [destination, setDestination] = useState(prefill(initial, reservation));
  const [guestLanguage, setGuestLanguage] = useState(language);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<DeliveryResult[]>([]);
  const [problem, setProblem] = useState<string>();
  const id = useId();

  const checked = checkDestination(channel, destination);
  const destinationProblem = touched && !checked.ok ? checked.message : undefined;

  function pick(next: MessageChannel): void {
    setChannel(next);
    // Switching between SMS and WhatsApp keeps the phone the agent may have corrected.
    if ((next === 'email') !== (channel === 'email')) setDestination(prefill(next, reservation));
    setTouched(false);
  }

  async function send(event: FormEvent): Promise<void> {
    event.preventDefault();
    setTouched(true);
    if (!checked.ok) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const result = await unwrap(bridge().messaging.sendLink({ paymentId: payment.id, channel, destination, language: guestLanguage }));
      setResults((previous) => [result, ...previous]);
    } catch (error) {
      setProblem(describeError(error, t));
    } finally {
      setBusy(false);
    }
  }

  const sentOnce = results.some((result) => result.status === 'sent');
  return (
    <form className="subpanel" aria-labelledby={`${id}-title`} onSubmit={(event) => void send(event)} noValidate>
      <h3 id={`${id}-title`}>{t('link.title')}</h3>
      <p className="hint">{t('link.help')}</p>
      <fieldset className="channels">
        <legend>{t('link.channel')}</legend>
        {(['sms', 'whatsapp', 'email'] as const).map((option) => (
          <label key={option} className="check">
            <input type="radio" name={`${id}-channel`} value={option} checked={channel === option} onChange={() => pick(option)} />
            {t(`link.channel.${option}`)}
          </label>
        ))}
      </fieldset>
      <div className="row">
        <div className="field field--grow">
          <label htmlFor={`${id}-to`}>{channel === 'email' ? t('link.field.email') : t('link.field.phone')}</label>
          <input
            id={`${id}-to`}
            type={channel === 'email' ? 'email' : 'tel'}
            autoComplete="off"
            value={destination}
            aria-invalid={destinationProblem !== undefined}
            aria-describedby={`${id}-to-help`}
            onChange={(event) => setDestination(event.target.value)}
            onBlur={() => setTouched(true)}
          />
          <p id={`${id}-to-help`} className={destinationProblem ? 'error' : 'hint'}>
            {destinationProblem ?? (channel === 'email' ? t('link.emailHint') : t('link.phoneHint'))}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-lang`}>{t('link.language')}</label>
          <select id={`${id}-lang`} value={guestLanguage} onChange={(event) => setGuestLanguage(event.target.value === 'en-US' ? 'en-US' : 'es-MX')}>
            <option value="es-MX">Español</option>
            <option value="en-US">English</option>
          </select>
        </div>
      </div>
      <button type="submit" className="primary" disabled={busy}>
        {sentOnce ? t('link.resend') : t('link.send')}
      </button>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <ul className="deliveries" aria-live="polite">
        {results.map((result) => (
          <li key={result.messageId} className={result.status === 'sent' ? 'ok' : 'error'}>
            {result.status === 'sent'
              ? t(result.training ? 'link.sentTraining' : 'link.sent', { to: result.to, when: dateTime(result.at) })
              : t('link.failed', { to: result.to, reason: describeDeliveryFailure(result.failure.code, language) })}
          </li>
        ))}
      </ul>
    </form>
  );
}
