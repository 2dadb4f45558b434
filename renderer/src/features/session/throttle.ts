// The activity report's throttle, on its own (no window, no bridge) so that it can be tested under plain Node.

/** How often, at most, activity is reported: well under the shortest idle lock (1 minute). */
export const ACTIVITY_INTERVAL_MS = 30_000;

/** Calls `report` for the first activity, then at most once per interval; answers the function the listeners call. */
export function throttledActivity(
  report: () => void,
  now: () => number,
  intervalMs = ACTIVITY_INTERVAL_MS,
): () => void {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const at = now();
    if (at - last < intervalMs) return;
    last = at;
    report();
  };
}
