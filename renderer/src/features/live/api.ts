// The center's live feed through the bridge: what this window's open screens watch of the other desks' work (the
// approvals queue, the reservations on screen), sent to main as one set whenever it changes; main's events about it;
// and where the feed stands (a short note while the center is being reconnected). On the embedded files every change is
// this desk's own: the events still come, and the feed is always `local`.
import { useEffect, useEffectEvent } from 'react';
import { create } from 'zustand';
import type { EventName, EventPayload, LiveState } from '../../../../shared/ipc';
import { bridge, hasBridge, unwrap } from '../../bridge/client';

interface LiveStore {
  state: LiveState;
}

/** Where the feed stands, as main last said (its answer to the watch, then `live:status`). */
export const useLiveStore = create<LiveStore>(() => ({ state: 'local' }));

/** How many mounted screens watch the queue, and each reservation (by the number they show). */
const watching = { queue: 0, reservations: new Map<string, number>() };
let sending: Promise<void> | undefined;
let sendAgain = false;

/** Main gets the whole set, one call at a time; changes made meanwhile go in the next call. */
function sendWatch(): void {
  if (!hasBridge) return;
  if (sending !== undefined) {
    sendAgain = true;
    return;
  }
  const reservations = [...watching.reservations.keys()].slice(0, 20);
  sending = unwrap(bridge().live.watch({ queue: watching.queue > 0, reservations }))
    .then(({ state }) => useLiveStore.setState({ state }))
    // Refused (signed out meanwhile): main watches nothing for this window then; the note stays as it was.
    .catch(() => undefined)
    .finally(() => {
      sending = undefined;
      if (sendAgain) {
        sendAgain = false;
        sendWatch();
      }
    });
}

/** While mounted (and `reservation` given), this screen watches the approvals queue or a reservation. */
export function useLiveWatch(watch: { queue?: boolean; reservation?: string | undefined }): void {
  const queue = watch.queue === true;
  const reservation = watch.reservation;
  useEffect(() => {
    if (!queue && reservation === undefined) return;
    if (queue) watching.queue += 1;
    if (reservation !== undefined) watching.reservations.set(reservation, (watching.reservations.get(reservation) ?? 0) + 1);
    sendWatch();
    return () => {
      if (queue) watching.queue -= 1;
      if (reservation !== undefined) {
        const left = (watching.reservations.get(reservation) ?? 1) - 1;
        if (left > 0) watching.reservations.set(reservation, left);
        else watching.reservations.delete(reservation);
      }
      sendWatch();
    };
  }, [queue, reservation]);
}

/** Runs `handler` on each of main's `event` while mounted (the handler's latest version). */
export function useLiveEvent<E extends Extract<EventName, 'refunds:changed' | 'reservations:changed' | 'live:resync'>>(event: E, handler: (payload: EventPayload<E>) => void): void {
  const onEvent = useEffectEvent(handler);
  useEffect(() => {
    if (!hasBridge) return;
    return bridge().events.on(event, (payload) => onEvent(payload));
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
