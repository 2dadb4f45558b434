// A succeeded payment's receipt, from its result, the reservation's payments list or the payment detail, any time: sent to
// the guest by SMS or e-mail through the messaging module, in the guest's language, with the amount, the card's brand and
// last 4 and the short reference (main writes it from its own records).
import { useId, useRef, useState, type FormEvent, type JSX } from 'react';
import type { PaymentView } from '../../../../../shared/ipc/views';
import type { DeliveryResult } from '../../../../../shared/messaging';
import type { ReservationView } from '../../../../../shared/reservations';
import { freeText } from '../../../../../shared/text';
import { describeError, textProblem } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { formatPhone } from '../../../ui/text';
import { useCall } from '../../call';
import { useDeliveryUpdates, useSendReceipt } from '../api';
import { newer } from '../delivery';
import { Destination } from './Destination';
import { Delivery } from './SendLink';
import { guestChannel, useDestination } from './useDestination';

type ReceiptChannel = 'sms' | 'email';
const RECEIPT_CHANNELS: readonly ReceiptChannel[] = ['sms', 'email'];

/** Card data in the destination is refused here, before anything crosses to main (main refuses it again). */
const FREE_TEXT = freeText();

/**
 * The same receipt sent again within this time is a double press (a hurried Enter once the first answer came back
 * fast, as the training outbox's does), not a second receipt the guest asked for.
 */
const DOUBLE_PRESS_MS = 2_000;

/** The reservation's e-mail, or its phone as people read it, with its country code ("+52 55 1234 5678"). */
const prefill = (channel: ReceiptChannel, reservation: ReservationView): string =>
  channel === 'email'
    ? (reservation.guestEmail ?? '')
    : reservation.guestPhone === undefined
      ? ''
      : formatPhone(reservation.guestPhone);

export function Receipt({ payment, reservation }: { payment: PaymentView; reservation: ReservationView }): JSX.Element {
  const i18n = useI18n();
  const { t } = i18n;
  const id = useId();
  const draftLanguage = useCall((state) => state.draft.guestLanguage);
  const where = useDestination<ReceiptChannel>({
    channels: RECEIPT_CHANNELS,
    initial: () => guestChannel(reservation),
    prefill: (channel) => prefill(channel, reservation),
    // The sentence sits under the field: no field name before it ('' names none).
    refuse: (destination) => textProblem(FREE_TEXT, destination, '', t),
  });
  const { channel, destination, checked } = where;
  const [language, setLanguage] = useState(draftLanguage ?? reservation.guestLanguage);
  const [results, setResults] = useState<DeliveryResult[]>([]);
  const latest = useRef(new Map<string, DeliveryResult>());
  /** A send under way, known at once (before the mutation's state says so): the button stays enabled to keep the focus. */
  const sending = useRef(false);
  /** The last receipt that went: where, how, in which language, and when. */
  const lastSent = useRef<{ what: string; at: number } | undefined>(undefined);
  const send = useSendReceipt(payment.id);
  const busy = send.isPending;

  useDeliveryUpdates(payment.id, (update) => {
    if (!latest.current.has(update.messageId) || !newer(latest.current.get(update.messageId), update)) return;
    latest.current.set(update.messageId, update);
    setResults((previous) => previous.map((result) => (result.messageId === update.messageId ? update : result)));
  });

  function submit(event: FormEvent): void {
    event.preventDefault();
    where.touch();
    if (!checked.ok || !where.ready) return;
    const what = JSON.stringify([channel, checked.value, language]);
    if (sending.current || (lastSent.current?.what === what && Date.now() - lastSent.current.at < DOUBLE_PRESS_MS))
      return;
    sending.current = true;
    send.mutate(
      { channel, destination, language },
      {
        onSettled: () => {
          sending.current = false;
        },
        onSuccess: (result) => {
          lastSent.current = { what, at: Date.now() };
          latest.current.set(result.messageId, result);
          setResults((previous) => [result, ...previous.filter((r) => r.messageId !== result.messageId)]);
        },
      },
    );
  }

  return (
    <form className="subpanel receipt" aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
      <h3 id={`${id}-title`}>{t('receipt.title')}</h3>
      <Destination id={id} {...where.fields} language={language} onLanguage={setLanguage} />
      {/* aria-disabled, not disabled, while sending: a disabled button drops the focus to the page (submit ignores it meanwhile). */}
      <button type="submit" aria-disabled={busy} aria-busy={busy}>
        {results.length > 0 ? t('receipt.again') : t('receipt.send')}
      </button>
      {send.error && (
        <p className="error" role="alert">
          {describeError(send.error, t)}
        </p>
      )}
      <ul className="deliveries" aria-live="polite">
        {results.map((result) => (
          <Delivery key={result.messageId} result={result} i18n={i18n} />
        ))}
      </ul>
    </form>
  );
}
