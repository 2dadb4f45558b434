/** The 3DS link's and the receipt's messenger over the deliveries' store, each status it follows sent to the windows. */
import type { DeskIdentity } from '../center';
import { createMessenger, MessagingAudit, type Messenger } from '../messaging';
import type { Environment } from '../../shared/environment';
import type { Storage } from '../storage';
import type { Emit } from './events';
import type { MainStackOptions } from './options';

export interface Messaging {
  messenger: Messenger;
  close(): Promise<void>;
}

export async function openMessaging(
  storage: Storage,
  identity: DeskIdentity,
  environment: Environment,
  options: MainStackOptions,
  emit: Emit,
): Promise<Messaging> {
  const deliveries = await MessagingAudit.open(storage, identity);
  const messenger = createMessenger({
    deliveries,
    config: options.messaging,
    environment,
    secrets: options.messagingSecrets ?? { read: () => Promise.resolve(undefined) },
    fetch: options.fetch,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.trainingOutbox === undefined ? {} : { trainingOutbox: options.trainingOutbox }),
  });
  // Each status of a 3DS link as main follows it with the provider.
  messenger.onDelivery((result) => emit('messaging:delivery', result));
  return {
    messenger,
    async close() {
      await messenger.close();
      await deliveries.close();
    },
  };
}
