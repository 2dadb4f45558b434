// Training mode only: the messages the desk "sent" (captured, never delivered); the trainee plays the cardholder.
import type { JSX } from 'react';
import type { OutboxMessageView } from '../../../../../shared/messaging';
import { isFinalPayment, isKnownPaymentStatus } from '../../../../../shared/payments/status';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { usePayment } from '../../payment';
import { useOutbox, usePlayCardholder, type PlayVariables } from '../api';

export function Outbox(): JSX.Element {
  const { t, dateTime } = useI18n();
  const outbox = useOutbox();
  const play = usePlayCardholder();
  const busy = play.isPending ? play.variables.message.id : undefined;
  const problem = play.error === null ? undefined : describeError(play.error, t);

  const messages = outbox.data ?? [];
  return (
    <section className="panel outbox" aria-labelledby="outbox-title">
      <h2 id="outbox-title">{t('outbox.title')}</h2>
      <p className="hint">{t('outbox.help')}</p>
      {messages.length === 0 && <p className="muted">{t('outbox.empty')}</p>}
      <ul className="results">
        {messages.map((message) => (
          <li key={message.id} className="outbox__message">
            <p>
              <strong>{t(`link.channel.${message.channel}`)}</strong> · {message.to} · {dateTime(message.createdAt)}
            </p>
            {message.subject !== undefined && <p>{message.subject}</p>}
            <p className="outbox__text">{message.text}</p>
            {message.cardholder === 'waiting' ? (
              <CardholderAnswer
                message={message}
                busy={busy === message.id}
                play={(answer) => play.mutate({ message, answer })}
              />
            ) : message.cardholder === 'none' ? null : (
              <p className="muted">{t(`outbox.state.${message.cardholder}`)}</p>
            )}
          </li>
        ))}
      </ul>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

/**
 * The cardholder's two answers while the payment waits for them; once the payment is settled (paid, declined, expired)
 * there is nothing left to answer, and the outbox says how it ended instead. A payment the agent abandoned still waits:
 * the guest holds the link and may approve it after all (a late success), so the trainee may still answer.
 */
function CardholderAnswer({
  message,
  busy,
  play,
}: {
  message: OutboxMessageView;
  busy: boolean;
  play: (answer: PlayVariables['answer']) => void;
}): JSX.Element {
  const { t } = useI18n();
  const payment = usePayment(message.paymentId).data;
  if (payment !== undefined && isFinalPayment(payment.status)) {
    const status = isKnownPaymentStatus(payment.status) ? t(`status.${payment.status}`) : payment.status;
    return <p className="muted">{t('outbox.state.settled', { status })}</p>;
  }
  return (
    <div className="row">
      <button type="button" disabled={busy} onClick={() => play('approve')}>
        {t('outbox.approve')}
      </button>
      <button type="button" disabled={busy} onClick={() => play('decline')}>
        {t('outbox.decline')}
      </button>
    </div>
  );
}
