// Builds `window.api` from the contract: one function per channel and typed event subscription — nothing generic is exposed.
// Only the names are imported as values (shared/ipc/channels.ts): the schemas stay in main, the preload stays small.
import { CHANNEL_NAMES, EVENT_NAMES } from '../shared/ipc/channels';
import type { Api, EventName, Transport } from '../shared/ipc';

type Callable = (input: unknown) => Promise<unknown>;

/** The same factory serves the preload (over ipcRenderer) and the e2e harness (over a Playwright binding). */
export function createBridge(transport: Transport): Api {
  const domains: Record<string, Record<string, Callable>> = {};
  for (const channel of CHANNEL_NAMES) {
    const [domain = '', verb = ''] = channel.split(':');
    const group = (domains[domain] ??= {});
    group[verb] = (input: unknown) => transport.invoke(channel, input);
  }
  const events = {
    on(event: EventName, listener: (payload: unknown) => void): () => void {
      if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`Unknown event: ${String(event)}`);
      return transport.subscribe(event, listener);
    },
  };
  for (const group of Object.values(domains)) Object.freeze(group);
  // The object is built from the contract's own channel list, so it has exactly the shape Api derives from it.
  return Object.freeze({ ...domains, events: Object.freeze(events) }) as unknown as Api;
}
