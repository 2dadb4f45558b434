// Bundled into the page by the e2e harness: `window.api` from the same bridge factory as the preload, over Playwright bindings.
import { createBridge } from '../../../preload/bridge';
import type { Channel, EventName } from '../../../shared/ipc';

interface HarnessGlobal {
  /** Exposed by the harness with page.exposeBinding: the real main-process door. */
  __cpdInvoke(channel: Channel, input: unknown): Promise<unknown>;
  /** Called by the harness to deliver main's events. */
  __cpdEmit?: (event: EventName, payload: unknown) => void;
}

const harness = globalThis as unknown as HarnessGlobal;
const listeners = new Map<EventName, Set<(payload: unknown) => void>>();

harness.__cpdEmit = (event, payload) => {
  for (const listener of listeners.get(event) ?? []) listener(payload);
};

Object.defineProperty(globalThis, 'api', {
  enumerable: true,
  value: createBridge({
    invoke: (channel, input) => harness.__cpdInvoke(channel, input),
    subscribe: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  }),
});
