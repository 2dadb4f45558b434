/** Injected faults (simulator.md control contract) and the per-client rate limit. */
import { SECOND, type SimClock } from './clock';

export const FAULT_KINDS = [
  'error_500',
  'error_503',
  'error_429',
  'delay',
  'drop_before_commit',
  'drop_after_commit',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export interface Fault {
  kind: FaultKind;
  delayMs: number;
}

/** Faults waiting for the next requests of each operation, first in first out. */
export class FaultQueue {
  private queues = new Map<string, Fault[]>();

  add(operation: string, fault: Fault, count: number): void {
    const queue = this.queues.get(operation) ?? [];
    for (let i = 0; i < count; i++) queue.push(fault);
    this.queues.set(operation, queue);
  }

  take(operation: string): Fault | undefined {
    const queue = this.queues.get(operation);
    const fault = queue?.shift();
    if (queue?.length === 0) this.queues.delete(operation);
    return fault;
  }

  clear(): void {
    this.queues.clear();
  }
}

/** Fixed one-second windows per client, on the simulator clock. */
export class RateLimiter {
  private windows = new Map<string, { second: number; count: number }>();

  constructor(
    private readonly perSecond: number | undefined,
    private readonly clock: SimClock,
  ) {}

  /** Counts a request; answers the seconds to wait when it is over the limit. */
  hit(clientId: string): { ok: true } | { ok: false; retryAfterS: number } {
    if (this.perSecond === undefined) return { ok: true };
    const now = this.clock.now();
    const second = Math.floor(now / SECOND);
    const window = this.windows.get(clientId);
    if (!window || window.second !== second) {
      this.windows.set(clientId, { second, count: 1 });
      return { ok: true };
    }
    window.count += 1;
    if (window.count <= this.perSecond) return { ok: true };
    return { ok: false, retryAfterS: Math.max(1, Math.ceil(((second + 1) * SECOND - now) / SECOND)) };
  }

  clear(): void {
    this.windows.clear();
  }
}
