/**
 * What main checks of a new charge before it goes to the engine: it is in the reservation's currency, and above what the
 * reservation still owes (the overview's balance, computed now) it carries the agent's confirmation of both amounts.
 */
import { confirmsOverBalance, isOverBalance, owedBesides, type OverBalance } from '../../shared/payments/charge';
import type { ReservationBalance } from '../../shared/ipc/views';
import { reservationBalance } from './balance';
import { ServiceError } from './errors';
import type { OperationState } from './journal';

/** A charge as the door received it. */
export interface NewCharge {
  operationId: string;
  reservationId: string;
  amountCents: number;
  currency: string;
  overBalance?: OverBalance | undefined;
}

export interface ChargePolicyDeps {
  /** The reservation as its source has it now; undefined when the source does not know it. Throws when it cannot say. */
  reservation(reservationId: string): Promise<{ balanceDueCents: number; currency: string } | undefined>;
  /** What the journal holds of the reservation (the engine's listReservation). */
  journal(reservationId: string): Promise<
    Omit<Parameters<typeof reservationBalance>[1], 'pendingPayments'> & {
      pendingPayments: readonly { amountCents: number; currency: string; state: 'unanswered' | 'reconcile' }[];
    }
  >;
  /** A payment as the journal holds it; undefined when it holds none. */
  payment(paymentId: string): Promise<{ reservationId: string; amountCents: number; currency: string } | undefined>;
  /** Where the operation stands; undefined when it was never begun. */
  operationState(operationId: string): Promise<OperationState | undefined>;
  clock(): { now: number; timeZone: string };
}

/** The refusal of a charge in another currency than the reservation's: both named, the field is the currency. */
export function currencyRefusal(currency: string, reservationCurrency: string): ServiceError {
  const [charged, reserved] = [currency.toUpperCase(), reservationCurrency.toUpperCase()];
  return new ServiceError('invalid_input', 'currency_not_reservation', {
    param: 'currency',
    params: { currency: charged, reservationCurrency: reserved },
  });
}

/** The refusal of a charge on a reservation its source does not know: the field is the reservation. */
export function unknownReservation(): ServiceError {
  return new ServiceError('invalid_input', 'reservation_unknown', { param: 'reservationId' });
}

/** The refusal of a charge above what is owed that the agent did not confirm as it is now. */
export function overBalanceRefusal(
  balance: Pick<ReservationBalance, 'owedCents' | 'currency'>,
  amountCents: number,
): ServiceError {
  return new ServiceError('invalid_input', 'over_balance_not_confirmed', {
    param: 'amountCents',
    params: { owedCents: balance.owedCents, amountCents, currency: balance.currency },
  });
}

/**
 * Refuses a new charge in another currency than its reservation's, or above what the reservation owes now without the
 * agent's confirmation of that owed amount and that amount. A charge whose operation was already begun (tried again
 * after a lost answer) is not checked again: it was checked when it began, its own amount now counts as taken, and the
 * engine refuses it with other money fields. A reservation its source does not know (gone from it, or a number it does not
 * list, such as one without its dash) has no currency nor balance to check against: it is refused, nothing charged.
 */
export async function checkNewCharge(deps: ChargePolicyDeps, charge: NewCharge): Promise<void> {
  if ((await deps.operationState(charge.operationId)) !== undefined) return;
  const reservation = await deps.reservation(charge.reservationId);
  if (reservation === undefined) throw unknownReservation();
  if (charge.currency.toLowerCase() !== reservation.currency.toLowerCase())
    throw currencyRefusal(charge.currency, reservation.currency);
  const journal = await deps.journal(charge.reservationId);
  // The engine begins no new payment while an earlier attempt is unanswered: it sends that one again and gives its
  // payment, or refuses the new one as payment_unanswered. The new one begins only once the earlier took nothing, so it
  // is checked against what is owed then (the form, which offers no charge while an attempt is unanswered, showed that).
  const pendingPayments = journal.pendingPayments.filter((attempt) => attempt.state !== 'unanswered');
  const balance = reservationBalance(reservation, { ...journal, pendingPayments }, deps.clock());
  if (
    isOverBalance(charge.amountCents, balance.owedCents) &&
    !confirmsOverBalance(charge.overBalance, balance.owedCents, charge.amountCents)
  ) {
    throw overBalanceRefusal(balance, charge.amountCents);
  }
}

/**
 * Refuses an MSI payment's new amount above what its reservation owes besides it, unless the agent confirmed that owed
 * amount and the new amount. A payment the journal does not hold, or of a reservation its source does not know, is not
 * checked here (the engine answers for it).
 */
export async function checkAmountUpdate(
  deps: ChargePolicyDeps,
  update: { paymentId: string; amountCents: number; overBalance?: OverBalance | undefined },
): Promise<void> {
  const payment = await deps.payment(update.paymentId);
  if (payment === undefined) return;
  const reservation = await deps.reservation(payment.reservationId);
  if (reservation === undefined || reservation.currency.toLowerCase() !== payment.currency.toLowerCase()) return;
  const balance = reservationBalance(reservation, await deps.journal(payment.reservationId), deps.clock());
  const owedCents = owedBesides(balance, payment.amountCents);
  if (
    isOverBalance(update.amountCents, owedCents) &&
    !confirmsOverBalance(update.overBalance, owedCents, update.amountCents)
  ) {
    throw overBalanceRefusal({ owedCents, currency: balance.currency }, update.amountCents);
  }
}
