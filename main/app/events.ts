/** The stack's events for the windows: each parsed by the contract before any listener hears it. */
import { EVENTS, type EventName, type EventPayload } from '../../shared/ipc';
import type { MainStack } from './options';

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface Events {
  emit: Emit;
  onEvent: MainStack['onEvent'];
}

export function createEvents(): Events {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  return {
    emit: (event, payload) => {
      const checked: unknown = EVENTS[event].parse(payload);
      for (const listener of listeners) listener(event, checked);
    },
    onEvent(listener) {
      const wrapped = listener as (event: EventName, payload: unknown) => void;
      listeners.add(wrapped);
      return () => listeners.delete(wrapped);
    },
  };
}
