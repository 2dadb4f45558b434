// Where a message to the guest goes, as the agent edits it (the 3DS link, a receipt): the channel, the phone or e-mail
// (filled in from the reservation when a channel is chosen), and what is wrong with it, said once the field was left or
// the form sent.
import { useState } from 'react';
import {
  checkDestination,
  MAX_EMAIL_LENGTH,
  type DestinationCheck,
  type MessageChannel,
} from '../../../../../shared/messaging';
import type { ReservationView } from '../../../../../shared/reservations';
import { useI18n } from '../../../i18n';
import type { DestinationProps } from './Destination';

/** The channel a reservation offers first: e-mail when it has only an e-mail, else SMS. */
export const guestChannel = (reservation: Pick<ReservationView, 'guestPhone' | 'guestEmail'>): 'sms' | 'email' =>
  reservation.guestPhone === undefined && reservation.guestEmail !== undefined ? 'email' : 'sms';

interface Options<C extends MessageChannel> {
  channels: readonly C[];
  /** The channel at first (asked once). */
  initial: () => C;
  /** What the field holds when a channel is chosen: the reservation's phone or e-mail, or ''. */
  prefill: (channel: C) => string;
  /** Told of each channel the agent chooses. */
  onChannel?: (channel: C) => void;
  /** What is wrong with the destination besides its channel's rule (card data in it), in words. */
  refuse?: (destination: string) => string | undefined;
}

export interface DestinationState<C extends MessageChannel> {
  channel: C;
  destination: string;
  /** The destination checked for its channel (normalized when it is right). */
  checked: DestinationCheck;
  /** True when the destination may be sent: right for its channel, and nothing else refused. */
  ready: boolean;
  /** The form was sent: what is wrong is said from now on. */
  touch: () => void;
  /** The Destination fields' props for all of the above. */
  fields: Pick<
    DestinationProps<C>,
    'channels' | 'channel' | 'onChannel' | 'destination' | 'onDestination' | 'onLeave' | 'problem'
  >;
}

export function useDestination<C extends MessageChannel>({
  channels,
  initial,
  prefill,
  onChannel,
  refuse,
}: Options<C>): DestinationState<C> {
  const { t } = useI18n();
  const [channel, setChannel] = useState(initial);
  const [destination, setDestination] = useState(() => prefill(channel));
  const [touched, setTouched] = useState(false);
  const checked = checkDestination(channel, destination);
  const refused = refuse?.(destination);
  const problem = !touched
    ? undefined
    : !checked.ok
      ? checked.code === 'email_too_long'
        ? t('destination.email_too_long', { max: MAX_EMAIL_LENGTH })
        : t(`destination.${checked.code}`)
      : refused;

  function pick(next: C): void {
    setChannel(next);
    onChannel?.(next);
    // Switching between SMS and WhatsApp keeps the phone the agent may have corrected.
    if ((next === 'email') !== (channel === 'email')) setDestination(prefill(next));
    setTouched(false);
  }

  return {
    channel,
    destination,
    checked,
    ready: checked.ok && refused === undefined,
    touch: () => setTouched(true),
    fields: {
      channels,
      channel,
      onChannel: pick,
      destination,
      onDestination: setDestination,
      onLeave: () => setTouched(true),
      problem,
    },
  };
}
