/** The service's 24-hour memory of an Idempotency-Key, and the one rule that says when a key may no longer be sent. */

/** How long the service keeps an Idempotency-Key (spec §8), by its own clock. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * A key is sent again only while its operation is younger than this, by every clock the engine has: the hour left
 * covers a whole retry sequence (a few attempts with their timeouts), so no try can reach the service after it has
 * forgotten the key and would make the payment or refund a second time. Older, it goes to a supervisor to reconcile.
 */
export const RESEND_WINDOW_MS = 23 * 60 * 60 * 1000;

/** Whether an operation begun at `startedAt` is past the resend window at `now` (both by the same clock): never sent again. */
export const isPastWindow = (startedAt: number, now: number): boolean => now - startedAt >= RESEND_WINDOW_MS;
