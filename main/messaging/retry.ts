/** Tries a delivery again with exponential backoff and jitter, for transient failures only; sleep and randomness injectable. */
import { DeliveryError } from './errors';

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface RetryDeps {
  sleep: (ms: number) => Promise<void>;
  /** In [0, 1): the jitter. */
  random: () => number;
}

export type RetryOutcome<T> = { ok: true; value: T; attempts: number } | { ok: false; error: DeliveryError; attempts: number };

/** The wait before try `attempt + 1`: base × 2^(attempt−1), capped, half of it jittered ("equal jitter"). */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/**
 * Runs `attempt` until it succeeds, fails for good, or maxAttempts is reached. A provider's Retry-After is
 * honoured when it fits within maxDelayMs; a longer one ends the tries (the agent sees "rate limited").
 * Anything not a DeliveryError is passed to `classify` first.
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  deps: RetryDeps,
  classify: (error: unknown) => DeliveryError,
): Promise<RetryOutcome<T>> {
  for (let n = 1; ; n++) {
    try {
      return { ok: true, value: await attempt(n), attempts: n };
    } catch (caught) {
      const error = caught instanceof DeliveryError ? caught : classify(caught);
      if (!error.retryable || n >= policy.maxAttempts) return { ok: false, error, attempts: n };
      const backoff = backoffDelay(n, policy, deps.random);
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxDelayMs) return { ok: false, error, attempts: n };
      await deps.sleep(Math.max(backoff, error.retryAfterMs ?? 0));
    }
  }
}
