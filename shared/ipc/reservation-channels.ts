// The channels of reservations: search, one reservation, its overview for the desk, and the admin's CSV import.
import { z } from 'zod';
import { ReservationId } from '../payments';
import { CsvImportResult, ReservationQuery, ReservationView } from '../reservations';
import { STAFF } from './access';
import { background, channel, type ChannelSpec } from './spec';
import {
  ChargeTodayView,
  LivePaymentView,
  MethodView,
  PaymentView,
  PendingPaymentView,
  RecoveredNoticeView,
  ReservationBalance,
} from './views';

export const RESERVATION_CHANNELS = {
  /** By confirmation number, guest name, phone or e-mail: at most 20, best matches first. */
  'reservations:search': background(ReservationQuery, z.object({ reservations: z.array(ReservationView) }), STAFF),
  'reservations:get': background(
    z.strictObject({ reservationId: ReservationId }),
    z.object({ reservation: ReservationView.optional() }),
    STAFF,
  ),
  /** An admin loads the hotel's reservations from a CSV export into the built-in store: all rows or none. */
  'reservations:importCsv': channel({
    input: z.strictObject({
      csv: z.string().min(1, 'The file is empty.').max(5_242_880, 'The file is larger than 5 MB.'),
    }),
    output: CsvImportResult,
    access: ['admin'],
    activity: 'operator',
    audit: {
      action: 'reservations.import',
      details: (_input, output) =>
        output === undefined
          ? {}
          : output.ok
            ? { created: output.created, updated: output.updated }
            : { rejected: true, errors: output.errors.length + output.moreErrors },
    },
  }),
  /**
   * The reservation's payments and saved cards, its payment attempts still unanswered (which block a new payment), its
   * payments in progress not abandoned (`inProgress`: the live panel, and no new charge form until each is finished or
   * abandoned), and what it still owes (`balance`, computed by main; absent when the reservation's source lacks it).
   * `chargedToday`: the charges a new charge must name as shown (`payments:pay` `acknowledgedPaymentIds`). `recovered`:
   * what main completed after a restart on this reservation, not yet acknowledged by the operator who began it.
   */
  'reservations:overview': background(
    z.strictObject({ reservationId: ReservationId }),
    z.object({
      payments: z.array(PaymentView),
      methods: z.array(MethodView),
      pendingPayments: z.array(PendingPaymentView),
      inProgress: z.array(LivePaymentView).optional(),
      balance: ReservationBalance.optional(),
      chargedToday: z.array(ChargeTodayView).optional(),
      recovered: z.array(RecoveredNoticeView).optional(),
    }),
    STAFF,
  ),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
