// The shape of `window.api`, derived from the contract: one function per channel, grouped by domain, plus typed events.
import type { Channel, EventName, EventPayload, Input, Output, Result } from './contract';

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type VerbOf<C extends string> = C extends `${string}:${infer V}` ? V : never;

export type Api = {
  [D in DomainOf<Channel>]: {
    [C in Channel as DomainOf<C> extends D ? VerbOf<C> : never]: (input: Input<C>) => Promise<Result<Output<C>>>;
  };
} & {
  events: { on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void };
};

/** What a bridge needs underneath: Electron's IPC in the preload, a Playwright binding in the e2e harness. */
export interface Transport {
  invoke(channel: Channel, input: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}
