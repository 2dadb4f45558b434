// The channel of the live feed: what a window watches that other desks' work changes, and where the feed stands.
import { z } from 'zod';
import { ReservationId } from '../payments';
import { background, type ChannelSpec } from './spec';

/**
 * The center's live feed: `local` (the embedded files: every change is this desk's own), `connecting` (opening its
 * connection), `live`, or `reconnecting` (lost: what windows show may be out of date until `live:resync`).
 */
export const LiveState = z.enum(['local', 'connecting', 'live', 'reconnecting']);
export type LiveState = z.infer<typeof LiveState>;

export const LIVE_CHANNELS = {
  /**
   * What this window shows that others' work changes: the approvals queue, the reservations open on it, and (`requests`)
   * word of the refunds its operator asked for. Each call says the whole set (it replaces the last); an empty set, or no
   * operator signed in, stops it. On the center main listens for the other desks' changes only while some window watches
   * something, and pushes them as `payments:changed`, `reservations:changed`, `refunds:changed` and `refunds:outcome`;
   * `live:status` and `live:resync` say when the feed was lost and is back. On the embedded files every writer is this
   * desk: the events are its own (`local`).
   */
  'live:watch': background(
    z.strictObject({
      queue: z.boolean(),
      reservations: z.array(ReservationId).max(20),
      requests: z.boolean().optional(),
    }),
    z.object({ state: LiveState }),
    'public',
  ),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
