/**
 * Sending without ever sending twice. A message is sent again automatically only when the first request certainly did
 * not reach the provider (refused connection, unresolved name, failed TLS handshake, connect timeout, 429): sending a
 * text is not idempotent. When it may have arrived (a timeout once connected, a cut connection, a 5xx), the provider is
 * asked for it first; found, it is followed like any other; not found after the provider's own 5xx (it answered, so it
 * has finished with the request), it is sent again; otherwise — a timeout, a cut, or a gateway's 502 or 504 in front of
 * the provider — the agent is told it may have been sent. A provider that drops repeats itself (the webhook's
 * Idempotency-Key) is simply sent the same message again. Backoff with jitter; sleep and randomness injectable.
 */
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

/** How long to wait before looking a second time for a message whose request timed out (it may still be on its way in). */
export const SECOND_LOOK_DELAY_MS = 2_000;

/** The wait before try `attempt + 1`: base × 2^(attempt−1), capped, half of it jittered ("equal jitter"). */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

export interface Submission<T> {
  /** One request. */
  send: (attempt: number) => Promise<T>;
  /** Looks for the message at the provider: the value when found, undefined when not there; throws when it cannot tell. */
  find?: (() => Promise<T | undefined>) | undefined;
  /** The provider drops repeats itself: sending again after an unclear failure is safe. */
  dropsRepeats?: boolean | undefined;
}

export type SubmitOutcome<T> =
  | { ok: true; value: T; attempts: number; /** Found by a look-up after an unclear failure. */ found: boolean }
  | {
      ok: false;
      error: DeliveryError;
      attempts: number;
      /** The message may have been sent (nobody could tell). */ unsure: boolean;
    };

/** Sends by the rules above. Anything thrown that is not a DeliveryError is passed to `classify` first. */
export async function submit<T>(
  submission: Submission<T>,
  policy: RetryPolicy,
  deps: RetryDeps,
  classify: (error: unknown) => DeliveryError,
): Promise<SubmitOutcome<T>> {
  const { send, find, dropsRepeats = false } = submission;
  for (let n = 1; ; n++) {
    let error: DeliveryError;
    try {
      return { ok: true, value: await send(n), attempts: n, found: false };
    } catch (caught) {
      error = caught instanceof DeliveryError ? caught : classify(caught);
    }
    /** Waits before the next try, or says there is none. */
    const another = async (): Promise<boolean> => {
      if (!error.retryable || n >= policy.maxAttempts) return false;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxDelayMs) return false;
      await deps.sleep(Math.max(backoffDelay(n, policy, deps.random), error.retryAfterMs ?? 0));
      return true;
    };

    if (!error.mayHaveSent || dropsRepeats) {
      if (await another()) continue;
      return { ok: false, error, attempts: n, unsure: error.mayHaveSent };
    }
    if (!find) return { ok: false, error, attempts: n, unsure: true };

    // It may exist: ask before anything else. A provider that answered itself (provider_unavailable: a 5xx, not a
    // gateway's 502 or 504) has finished with the request, so one look tells; a request that timed out or was cut may
    // still be arriving, so a second look follows a short wait.
    const answered = error.code === 'provider_unavailable';
    let found: T | undefined;
    try {
      found = await find();
      if (found === undefined && !answered) {
        await deps.sleep(SECOND_LOOK_DELAY_MS);
        found = await find();
      }
    } catch {
      return { ok: false, error, attempts: n, unsure: true };
    }
    if (found !== undefined) return { ok: true, value: found, attempts: n, found: true };
    if (answered && (await another())) continue;
    return { ok: false, error, attempts: n, unsure: !answered };
  }
}
