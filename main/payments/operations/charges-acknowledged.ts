/** A reservation's charges of today the agent must have been shown before another charge. */
import { isFinalPayment } from '../../../shared/payments';
import { chargeDay, dayIn } from '../balance';
import { ServiceError } from '../errors';
import type { Journal, StoredPayment } from '../journal';
import { ABANDONABLE } from './rules';

/** A charge of today the screen shows before another (listReservation): the door refuses a new charge unless named. */
export interface ChargeToday {
  paymentId: string;
  amountCents: number;
  currency: string;
  status: string;
  /** When it counts as taken (its last change, ISO). */
  at: string;
}

export const chargeToday = (p: StoredPayment): ChargeToday => ({
  paymentId: p.id,
  amountCents: p.amountCents,
  currency: p.currency,
  status: p.status,
  at: p.updatedAt ?? p.createdAt,
});

/**
 * A reservation's charges the agent must have been shown before another charge: taken today on the desk's calendar
 * day by the engine's clock (the rule of the screen's "Already charged … today": main/payments/balance.ts), succeeded
 * or still in progress (not one abandoned while it waited); and, whatever its day, one recover() completed whose notice
 * is not acknowledged yet (`recovered`): a desk restarted the morning after completes the evening's payment then.
 */
export function chargesToAcknowledge(
  payments: readonly StoredPayment[],
  recovered: ReadonlySet<string>,
  now: number,
  zone: string | undefined,
): StoredPayment[] {
  const timeZone = zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const today = dayIn(now, timeZone);
  return payments
    .filter(
      (p) =>
        p.status === 'succeeded' ||
        (!isFinalPayment(p.status) && !(p.abandonedAt !== undefined && ABANDONABLE.has(p.status))),
    )
    .filter((p) => chargeDay(p, timeZone) === today || recovered.has(p.id))
    .sort((a, b) => (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt));
}

/** The reservation's payments recover() completed whose notice its operator has not acknowledged yet. */
export async function recoveredPaymentIds(journal: Journal, reservationId: string): Promise<Set<string>> {
  return new Set(
    (await journal.recoveredNotices({ reservationId })).filter((n) => n.kind === 'payment').map((n) => n.paymentId),
  );
}

/** Refuses a new charge while a charge of today on the reservation is not among those the agent was shown. */
export async function checkChargesAcknowledged(
  journal: Journal,
  reservationId: string,
  acknowledged: readonly string[],
  now: number,
  timeZone: string | undefined,
): Promise<void> {
  const shown = new Set(acknowledged);
  const charges = chargesToAcknowledge(
    await journal.paymentsOf(reservationId),
    await recoveredPaymentIds(journal, reservationId),
    now,
    timeZone,
  );
  const unseen = charges.filter((p) => !shown.has(p.id));
  const [newest] = unseen;
  if (newest === undefined) return;
  throw new ServiceError('invalid_input', 'charges_not_acknowledged', {
    param: 'acknowledgedPaymentIds',
    params: {
      count: unseen.length,
      amountCents: newest.amountCents,
      currency: newest.currency,
      at: newest.updatedAt ?? newest.createdAt,
    },
  });
}
