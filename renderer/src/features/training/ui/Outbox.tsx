// Training mode only: the messages the desk "sent" (captured, never delivered); the trainee plays the cardholder.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type JSX } from 'react';
import type { OutboxMessageView } from '../../../../../shared/messaging';
import { messageOf, unwrap } from '../../../bridge/client';
import { bridge, keys, storePayment } from '../../../api/queries';
import { useI18n } from '../../../i18n';

const outboxKey = ['messaging', 'outbox'] as const;

export function Outbox(): JSX.Element {
  const { t, dateTime } = useI18n();
  const queryClient = useQueryClient();
  const outbox = useQuery({
    queryKey: outboxKey,
    queryFn: async () => (await unwrap(bridge().messaging.outbox({}))).messages,
    refetchInterval: 1500,
  });
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState<string>();

  async function play(message: OutboxMessageView, answer: 'approve' | 'decline'): Promise<void> {
    setBusy(message.id);
    setProblem(undefined);
    try {
      await unwrap(bridge().messaging.playCardholder({ messageId: message.id, answer }));
      void queryClient.invalidateQueries({ queryKey: outboxKey });
      // The payment moves on in main; read it now rather than at the next scheduled check.
      storePayment(await unwrap(bridge().payments.get({ paymentId: message.paymentId })));
      void queryClient.invalidateQueries({ queryKey: keys.payment(message.paymentId) });
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(undefined);
    }
  }

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
                <button type="button" disabled={busy === message.id} onClick={() => void play(message, 'approve')}>
                  {t('outbox.approve')}
                </button>
                <button type="button" disabled={busy === message.id} onClick={() => void play(message, 'decline')}>
                  {t('outbox.decline')}
                </button>
              </div>
            ) : (
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
