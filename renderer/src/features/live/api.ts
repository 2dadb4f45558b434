// The center's live feed through the bridge: what this window's open screens watch of the other desks' work (the
// approvals queue, the reservations on screen, word of the operator's refund requests), sent to main as one set whenever
// it changes; main's events about it (what became of the refunds this operator asked for);
// and where the feed stands (a short note while the center is being reconnected). On the embedded files every change is
// this desk's own: the events still come, and the feed is always `local`.
import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { create } from 'zustand';
import type { EventName, EventPayload, LiveState } from '../../../../shared/ipc';
import { bridge, hasBridge, unwrap } from '../../bridge/client';
import { ApiError } from '../../bridge/errors';

interface LiveStore {
  state: LiveState;
}

/** Where the feed stands, as main last said (its answer to the watch, then `live:status`). */
export const useLiveStore = create<LiveStore>(() => ({ state: 'local' }));

/** How many mounted screens watch the queue, word of refund requests, and each reservation (by the number they show). */
const watching = { queue: 0, requests: 0, reservations: new Map<string, number>() };
let sending: Promise<void> | undefined;
let sendAgain = false;

/**
 * How long a refused watch (the center unreachable, restarting, failing over) waits before it is sent again (each retry
 * waits the next, then the last, ±25%): a screen opened during a center restart gets its feed when the center is back,
 * without a storm.
 */
export const WATCH_RETRY_MS: readonly number[] = [1000, 2000, 5000, 10_000];
/** Refusals that mean this window may not watch (sent again, it would be refused again): every other one is retried. */
const FOR_GOOD = new Set(['forbidden_sender', 'invalid_input', 'unknown_channel']);
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retries = 0;
/** Where the feed stood before the first refused watch of a run of retries (put back if they end for good). */
let beforeRetries: LiveState | undefined;
/** Screens' own resync: run when a watch is taken after the center could not be reached (what they show may be stale). */
const resyncs = new Set<() => void>();

const watchesSomething = (): boolean => watching.queue > 0 || watching.requests > 0 || watching.reservations.size > 0;

/** Main gets the whole set, one call at a time; changes made meanwhile go in the next call. */
function sendWatch(): void {
  if (!hasBridge) return;
  if (sending !== undefined) {
    sendAgain = true;
    return;
  }
  if (retryTimer !== undefined) clearTimeout(retryTimer);
  retryTimer = undefined;
  const reservations = [...watching.reservations.keys()].slice(0, 20);
  const wanted = watchesSomething();
  sending = unwrap(
    bridge().live.watch({
      queue: watching.queue > 0,
      reservations,
      ...(watching.requests > 0 ? { requests: true } : {}),
    }),
  )
    .then(({ state }) => {
      useLiveStore.setState({ state });
      const missed = retries > 0;
      retries = 0;
      beforeRetries = undefined;
      if (missed && wanted) for (const resync of [...resyncs]) resync();
    })
    .catch((error: unknown) => {
      // Refused while the center restarts or fails over (unreachable, read-only for a moment, not ready): the screens say
      // so and the watch is sent again until main takes it. A refusal for good leaves main watching nothing for this
      // window, and the feed as it stood before.
      if (!(error instanceof ApiError) || !wanted) return;
      if (FOR_GOOD.has(error.code)) {
        if (beforeRetries !== undefined) useLiveStore.setState({ state: beforeRetries });
        beforeRetries = undefined;
        retries = 0;
        return;
      }
      beforeRetries ??= useLiveStore.getState().state;
      useLiveStore.setState({ state: 'reconnecting' });
      const base = WATCH_RETRY_MS[Math.min(retries, WATCH_RETRY_MS.length - 1)] ?? 1000;
      retries += 1;
      retryTimer = setTimeout(
        () => {
          retryTimer = undefined;
          if (watchesSomething()) sendWatch();
        },
        Math.round(base * (0.75 + Math.random() * 0.5)),
      );
    })
    .finally(() => {
      sending = undefined;
      if (sendAgain) {
        sendAgain = false;
        sendWatch();
      }
    });
}

/** While mounted (and `reservation` given), this screen watches the approvals queue, word of refund requests, or a reservation. */
export function useLiveWatch(watch: { queue?: boolean; requests?: boolean; reservation?: string | undefined }): void {
  const queue = watch.queue === true;
  const requests = watch.requests === true;
  const reservation = watch.reservation;
  useEffect(() => {
    if (!queue && !requests && reservation === undefined) return;
    if (queue) watching.queue += 1;
    if (requests) watching.requests += 1;
    if (reservation !== undefined)
      watching.reservations.set(reservation, (watching.reservations.get(reservation) ?? 0) + 1);
    sendWatch();
    return () => {
      if (queue) watching.queue -= 1;
      if (requests) watching.requests -= 1;
      if (reservation !== undefined) {
        const left = (watching.reservations.get(reservation) ?? 1) - 1;
        if (left > 0) watching.reservations.set(reservation, left);
        else watching.reservations.delete(reservation);
      }
      sendWatch();
    };
  }, [queue, requests, reservation]);
}

/** Runs `handler` on each of main's `event` while mounted (the handler's latest version). */
export function useLiveEvent<
  E extends Extract<EventName, 'refunds:changed' | 'refunds:outcome' | 'reservations:changed' | 'live:resync'>,
>(event: E, handler: (payload: EventPayload<E>) => void): void {
  const onEvent = useEffectEvent(handler);
  useEffect(() => {
    if (!hasBridge) return;
    const stop = bridge().events.on(event, (payload) => onEvent(payload));
    if (event !== 'live:resync') return stop;
    // A watch taken after the center could not be reached is a resync too: nothing was pushed meanwhile.
    const resync = (): void => onEvent({} as EventPayload<E>);
    resyncs.add(resync);
    return () => {
      stop();
      resyncs.delete(resync);
    };
  }, [event]);
}

/** The feed's state as main reports it, kept while the workspace is up (mounted once). */
export function useLiveStatus(): LiveState {
  useEffect(() => {
    if (!hasBridge) return;
    return bridge().events.on('live:status', ({ state }) => useLiveStore.setState({ state }));
  }, []);
  return useLiveStore((store) => store.state);
}

/** What became of a refund request this desk's operator asked for, as main told it. */
export type RefundOutcome = EventPayload<'refunds:outcome'>;

/**
 * The outcomes of the refunds `operatorId` asked for, told while the workspace is up (the center's feed is watched for
 * them while mounted), one per request (its latest word: approved, then made), until the operator dismisses it. Those of
 * another operator who asked at this desk are not theirs to see.
 */
export function useRefundOutcomes(operatorId: string): {
  outcomes: RefundOutcome[];
  dismiss: (requestId: string) => void;
} {
  const [outcomes, setOutcomes] = useState<RefundOutcome[]>([]);
  useLiveWatch({ requests: true });
  useLiveEvent('refunds:outcome', (outcome) => {
    if (outcome.requestedBy !== operatorId) return;
    setOutcomes((now) => {
      const known = now.findIndex((o) => o.requestId === outcome.requestId);
      if (known === -1) return [...now, outcome];
      // A later word replaces the earlier one ("made" after "approved"); an older one never comes back over it.
      if (RANK[outcome.outcome] < RANK[now[known]?.outcome ?? 'approved']) return now;
      return now.map((o, i) => (i === known ? outcome : o));
    });
  });
  const dismiss = useCallback(
    (requestId: string) => setOutcomes((now) => now.filter((o) => o.requestId !== requestId)),
    [],
  );
  return { outcomes, dismiss };
}

const RANK: Record<RefundOutcome['outcome'], number> = { approved: 0, made: 1, rejected: 1, failed: 1 };
