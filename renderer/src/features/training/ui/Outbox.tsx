// Training mode only: the messages the desk "sent" (captured, never delivered); the trainee plays the cardholder.
import type { JSX } from 'react';
import { describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { useOutbox, usePlayCardholder } from '../api';

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
              <div className="row">
                <button type="button" disabled={busy === message.id} onClick={() => play.mutate({ message, answer: 'approve' })}>
                  {t('outbox.approve')}
                </button>
                <button type="button" disabled={busy === message.id} onClick={() => play.mutate({ message, answer: 'decline' })}>
                  {t('outbox.decline')}
                </button>
              </div>
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
