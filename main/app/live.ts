/** What the windows watch of the other desks' work: the center's LISTEN connection, held only while they do. */
import type { EventPayload, PaymentView } from '../../shared/ipc';
import { LiveFeed } from '../live';
import { reservationKey } from '../payments';
import type { Storage } from '../storage';
import type { Emit } from './events';
import type { MainStackOptions } from './options';

export interface LiveReads {
  /** A payment as the journal holds it now. */
  readPayment: (paymentId: string) => Promise<PaymentView | undefined>;
  /** A refund request another desk wrote, as the alert this desk is to show (none of this desk's: undefined). */
  readRequest: (requestId: string) => Promise<EventPayload<'payments:lateSuccess'> | undefined>;
  /** What became of a request another desk decided or settled, when it was asked here. */
  readOutcome: (requestId: string) => Promise<EventPayload<'refunds:outcome'> | undefined>;
}

export function createLive(
  storage: Storage,
  deskId: string,
  reads: LiveReads,
  emit: Emit,
  options: Pick<MainStackOptions, 'onUnexpectedError'>,
): LiveFeed {
  return new LiveFeed({
    deskId,
    listen: storage.listen?.bind(storage),
    ...reads,
    reservationKey,
    emit,
    ...(options.onUnexpectedError ? { onError: (error: unknown) => options.onUnexpectedError?.('live', error) } : {}),
  });
}
