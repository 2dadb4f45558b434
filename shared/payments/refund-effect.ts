/**
 * What a refund does to what a reservation still owes, by its reason: the one rule main's balance applies and every
 * screen shows. A refund returns money to the card; whether that money is owed again depends on why it was returned.
 *
 * - `cancellation` closes the booking: nothing is owed afterwards, whatever the reservation's source still says, and
 *   the refund never reopens a debt (what the hotel keeps, if anything, is its cancellation fee).
 * - `duplicate` returns money charged twice: it was extra, so it never makes anything owed. It brings an overpayment
 *   down; it does not raise what is owed.
 * - `requested_by_customer` is money the hotel agreed to give back (a goodwill gesture, a service not delivered, a
 *   difference the guest never agreed to): the supervisor who approved it settled the matter, so it does not reopen the
 *   debt either. A stay that really changed price changes in the reservation's source, not through a refund.
 * - `fraudulent` returns a charge the cardholder never authorised: it was not the guest's payment, so the stay is unpaid
 *   again and the amount is owed again (the guest pays with their own card).
 *
 * A refund whose reason this app does not know (or that the service listed without one) does not reopen the debt: what
 * is owed may read low, never high, so that no one is charged twice on an unclear record.
 */
import { countsAgainstRefundable } from './status';

/** `reopens`: owed again. `settles`: not owed again; it only brings an overpayment down. `closes`: the booking is closed. */
export type RefundEffect = 'reopens' | 'settles' | 'closes';

export const REFUND_EFFECTS = {
  cancellation: 'closes',
  duplicate: 'settles',
  requested_by_customer: 'settles',
  fraudulent: 'reopens',
} as const satisfies Record<'duplicate' | 'fraudulent' | 'requested_by_customer' | 'cancellation', RefundEffect>;

/** The effect of a refund given for `reason`; an unknown or missing reason `settles` (never reopens a debt). */
export function refundEffect(reason: string | undefined): RefundEffect {
  return reason !== undefined && Object.hasOwn(REFUND_EFFECTS, reason)
    ? REFUND_EFFECTS[reason as keyof typeof REFUND_EFFECTS]
    : 'settles';
}

/** A refund as the rule reads it: its reason, status and amount (undefined when the service listed it without one). */
export interface RefundForBalance {
  reason?: string | undefined;
  status: string;
  amountCents?: number | undefined;
}

export interface OwedAfterRefunds {
  /** Still owed: never below zero; 0 once a cancellation closed the booking. */
  owedCents: number;
  /** Paid beyond the balance by payments that succeeded, less what refunds already return of it. */
  overpaidCents: number;
  /** Refunds counted back as owed (`reopens`, succeeded, amount known). */
  reopenedCents: number;
  /** A cancellation refund (pending or made) closed the booking. */
  closed: boolean;
}

/**
 * What is owed and what was paid over, in cents, from the balance the source wrote (which does not reflect this app's
 * payments), what the payments took (`takenCents`: succeeded, in progress and unanswered), what of it succeeded
 * (`succeededCents`), and the refunds of those payments.
 *
 * A refund that reopens counts back only once it succeeded with a known amount (a pending one may still fail). Any other
 * refund brings the overpayment down as soon as it may have moved money (pending or succeeded), and one of unknown
 * amount brings it to zero: the overpayment too may read low, never high, so that it never invites a second
 * refund of the same money. A payment in progress is not an overpayment until it succeeds.
 */
export function owedAfterRefunds(input: {
  sourceBalanceCents: number;
  takenCents: number;
  succeededCents: number;
  refunds: readonly RefundForBalance[];
}): OwedAfterRefunds {
  let reopenedCents = 0;
  let returnedCents = 0;
  let closed = false;
  for (const refund of input.refunds) {
    if (!countsAgainstRefundable(refund.status)) continue;
    const effect = refundEffect(refund.reason);
    if (effect === 'reopens' && refund.status === 'succeeded' && refund.amountCents !== undefined) {
      reopenedCents += refund.amountCents;
      continue;
    }
    if (effect === 'closes') closed = true;
    // Settling, closing, or reopening but not yet made: the money is on its way back, not paid over.
    returnedCents += refund.amountCents ?? Number.POSITIVE_INFINITY;
  }
  const owedCents = closed ? 0 : Math.max(0, input.sourceBalanceCents - input.takenCents + reopenedCents);
  const overpaidCents = Math.max(0, input.succeededCents - reopenedCents - input.sourceBalanceCents - returnedCents);
  return { owedCents, overpaidCents, reopenedCents, closed };
}
