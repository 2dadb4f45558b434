// A fake of main for component tests: `window.api` made by the preload's own bridge factory over a transport that
// answers here (Electron's IPC cannot run in a unit test). Install it before the renderer's modules are imported: the
// bridge client reads `window.api` when it loads.
import { createBridge } from '../../../preload/bridge';
import type { Channel, EventName, EventPayload, IpcError, Output, Result } from '../../../shared/ipc';

export interface FakeMain {
  /** What the page asked of main, in order. */
  readonly sent: { channel: Channel; input: unknown }[];
  /** How main answers a channel from now on (unset channels answer `{}`); a promise answers when it settles (main still working). */
  answer<C extends Channel>(
    channel: C,
    reply: (input: unknown) => Output<C> | IpcError | Promise<Output<C> | IpcError>,
  ): void;
  /** Main sends an event to the page (to every listener subscribed now). */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Forget what was sent and how to answer. */
  reset(): void;
}

export function installFakeMain(): FakeMain {
  const sent: { channel: Channel; input: unknown }[] = [];
  const replies = new Map<Channel, (input: unknown) => unknown>();
  const listeners = new Set<{ event: EventName; listener: (payload: unknown) => void }>();
  const isError = (value: unknown): value is IpcError =>
    typeof value === 'object' && value !== null && 'code' in value && 'message' in value;
  (window as { api?: unknown }).api = createBridge({
    invoke: (channel, input) => {
      sent.push({ channel, input });
      const reply = replies.get(channel)?.(input) ?? {};
      const toResult = (value: unknown): Result<unknown> =>
        isError(value) ? { ok: false, error: value } : { ok: true, value };
      return reply instanceof Promise ? reply.then(toResult) : Promise.resolve(toResult(reply));
    },
    subscribe: (event, listener) => {
      const entry = { event, listener };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
  });
  return {
    sent,
    answer: (channel, reply) => void replies.set(channel, reply),
    emit: (event, payload) => {
      for (const entry of [...listeners]) if (entry.event === event) entry.listener(payload);
    },
    reset: () => {
      sent.length = 0;
      replies.clear();
    },
  };
}
