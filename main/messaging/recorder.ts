/**
 * The messenger's audit, in order: each send's first row is written before anything leaves the desk, its statuses after
 * it in the order they were reached, and a read sees everything recorded before it.
 */
import type { DeliveryRecordView } from '../../shared/messaging';
import { embeddedStorage, type Storage } from '../storage';
import { MessagingAudit } from './audit';
import type { MessengerLogger } from './messenger-types';

export interface DeliveryRecorder {
  /** Written before anything leaves the desk: a failure here stops the send (nothing was sent, the error says why). */
  started(entry: Parameters<MessagingAudit['started']>[0]): Promise<void>;
  /** Recorded in order, never waited for by the agent's answer; a failure is logged. */
  reached(messageId: string, update: Parameters<MessagingAudit['reached']>[1]): void;
  /** What was recorded before is always in what is read. */
  forPayment(paymentId: string): Promise<DeliveryRecordView[]>;
  providerIds(paymentId: string): Promise<string[]>;
  /** Resolves once what was recorded is written (and the audit opened here is closed). */
  close(): Promise<void>;
}

/**
 * The deliveries the stack opened, or messaging.db in `dataDir` for `deskId` (opened here, closed with the recorder).
 * Not waited for here: a failure to open is the first send's (or history's) error.
 */
export function deliveryRecorder(
  options: { deliveries?: MessagingAudit | undefined; dataDir?: string | undefined; deskId?: string | undefined },
  logger: MessengerLogger,
): DeliveryRecorder {
  if (options.deliveries === undefined && options.dataDir === undefined)
    throw new Error('createMessenger needs deliveries or a dataDir.');
  const ownStorage = options.deliveries === undefined ? embeddedStorage(options.dataDir ?? '') : undefined;
  const opening: Promise<MessagingAudit> =
    options.deliveries !== undefined
      ? Promise.resolve(options.deliveries)
      : MessagingAudit.open(ownStorage as Storage, { deskId: options.deskId ?? 'local' });
  opening.catch(() => undefined);
  /** Statuses are written in the order they were reached, after the row the send began with. */
  let writes: Promise<unknown> = Promise.resolve();
  return {
    started: async (entry) => {
      const written = writes.then(async () => (await opening).started(entry));
      writes = written.catch(() => undefined);
      await written;
    },
    reached: (messageId, update) => {
      const written = writes.then(async () => (await opening).reached(messageId, update));
      writes = written.catch((error: unknown) => {
        logger.warn(
          { messageId, error: error instanceof Error ? error.name : 'unknown' },
          'messaging: a delivery status could not be recorded',
        );
      });
    },
    forPayment: async (paymentId) => {
      await writes;
      return (await opening).forPayment(paymentId);
    },
    providerIds: async (paymentId) => {
      await writes;
      return (await opening).providerIds(paymentId);
    },
    close: async () => {
      await writes;
      if (ownStorage !== undefined) await ownStorage.close();
    },
  };
}
