// The events main sends to the renderer, each with the schema its payload is parsed with before it is sent.
import { z } from 'zod';
import { DeliveryResult } from '../messaging';
import { PaymentId, ReservationId } from '../payments';
import { RefundRequestId } from '../desk';
import { UpdateStatus } from './app-channels';
import { LiveState } from './live-channels';
import { LateSuccessView } from './payment-channels';
import { RefundOutcomeView } from './refund-channels';
import { PaymentView, StartupStatus } from './views';

/** Main → renderer: each event's payload, parsed in main before it is sent. */
export const EVENTS = {
  'payments:changed': PaymentView,
  /**
   * The idle lock fired: the renderer wipes card data and shows the lock screen. `endedElsewhere`: the session ended
   * instead, its operator having signed in at another desk of the center (which, and since when, when known): the
   * renderer shows the plain sign-in, saying why.
   */
  'session:locked': z.object({
    endedElsewhere: z
      .object({ deskId: z.string().max(64).optional(), sinceAt: z.string().max(40).optional() })
      .optional(),
  }),
  /**
   * The idle lock comes in a minute (half the timeout when that is shorter) unless the operator acts: `locksAt` (ISO).
   * Any activity postpones it; a later warning says the new time.
   */
  'session:idleWarning': z.object({ locksAt: z.string() }),
  /** The desk's start moved on (a phase, an operation completed): the start-up screen shows it; `ready` once every channel is served. */
  'app:startup': StartupStatus,
  /** An update's state changed (downloaded, failed): the workspace shows it. */
  'updates:changed': UpdateStatus,
  /** A 3DS link's delivery moved on (sent, delivered, failed…) as main follows it with the provider. */
  'messaging:delivery': DeliveryResult,
  /** A refund request was asked for, decided or settled, at this desk or another of the center: queues read again. */
  'refunds:changed': z.object({ requestId: RefundRequestId, paymentId: PaymentId }),
  /** A refund request asked at this desk was approved, made, rejected or failed (at this desk or another of the center). */
  'refunds:outcome': RefundOutcomeView,
  /** A late success found now, told to the windows open at the desk that abandoned the payment (`payments:lateSuccesses` reads them later). */
  'payments:lateSuccess': LateSuccessView,
  /** A watched reservation's payment attempts changed at another desk (begun, answered): its overview is read again. */
  'reservations:changed': z.object({ reservationId: ReservationId }),
  /** The center's live feed was lost (`reconnecting`) or is back (`live`): see `live:watch`. */
  'live:status': z.object({ state: LiveState }),
  /** The live feed is (again) in place: what changed while it was not may have been missed; open views read again. */
  'live:resync': z.object({}),
} as const satisfies Record<`${string}:${string}`, z.ZodType>;
