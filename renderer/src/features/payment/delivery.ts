// How the 3DS panel reads a message's delivery: its status in words, its steps to the guest, and which word about it is the latest.
import type { DeliveryResult } from '../../../../shared/messaging';
import type { I18n } from '../../i18n';

/** Where a status stands on the way to the guest, for the steps shown under a followed message. */
export const STEP_OF = { queued: 0, sent: 1, delivered: 2, read: 2 } as const;
export const STEPS = ['queued', 'sent', 'delivered'] as const;

/** A newer word about the same message replaces an older one, never the other way round. */
export function newer(current: DeliveryResult | undefined, next: DeliveryResult): boolean {
  return (
    current === undefined || (current.final ? next.final && next.at >= current.at : next.final || next.at >= current.at)
  );
}

export function statusLine(result: DeliveryResult, { t, dateTime }: I18n): string {
  const vars = { to: result.to, when: dateTime(result.at) };
  if (result.training) return t('link.sentTraining', vars);
  switch (result.status) {
    case 'queued':
      return t('link.status.queued', vars);
    case 'sent':
      // E-mail ends at "accepted by the mail server"; a text ends there only when the phone never confirmed it.
      return result.channel === 'email'
        ? t('link.sent', vars)
        : result.final
          ? t('link.status.sentUnconfirmed', vars)
          : t('link.status.sent', vars);
    case 'delivered':
      return t('link.status.delivered', vars);
    case 'read':
      return t('link.status.read', vars);
    case 'unknown':
      return t('link.status.unknown', { to: result.to });
    case 'failed':
      return result.attempts === 0
        ? t('link.failed', { to: result.to })
        : t('link.status.undelivered', { to: result.to });
  }
}
