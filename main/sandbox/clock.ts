/** The simulator's clock: real time plus an offset that tests move forward. */
export interface SimClock {
  /** Milliseconds since the epoch, as the simulator sees it. */
  now(): number;
  advance(ms: number): void;
  reset(): void;
}

export function createClock(realNow: () => number = Date.now): SimClock {
  let offset = 0;
  return {
    now: () => realNow() + offset,
    advance(ms) {
      offset += ms;
    },
    reset() {
      offset = 0;
    },
  };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

export const iso = (ms: number): string => new Date(ms).toISOString();
