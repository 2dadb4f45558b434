/**
 * What a new charge must hold before money moves, for main (which refuses it) and the screen (which asks first): it is
 * in the reservation's currency, and a charge above what the reservation still owes carries the agent's confirmation
 * naming both amounts, the owed amount as the screen showed it and the amount charged.
 */
import { z } from 'zod';
import { Cents, CentsOrZero } from './money';

/** The agent confirmed charging `amountCents` although only `owedCents` is still owed (both in cents, as shown). */
export const OverBalance = z.strictObject({ owedCents: CentsOrZero, amountCents: Cents });
export type OverBalance = z.infer<typeof OverBalance>;

/** True when charging `amountCents` takes more than the `owedCents` still owed: it needs the agent's confirmation. */
export const isOverBalance = (amountCents: number, owedCents: number): boolean => amountCents > owedCents;

/**
 * What the reservation owes besides one of its payments in progress (an MSI payment whose amount is being changed), from
 * its balance (which counts that payment as taken): the most the payment's new amount may be without a confirmation.
 * Refunds count as the balance counts them (refund-effect.ts): only those that reopen the debt add back, and a booking a
 * cancellation closed owes nothing.
 */
export const owedBesides = (
  balance: { sourceBalanceCents: number; takenCents: number; reopenedCents: number; closed: boolean },
  paymentCents: number,
): number =>
  balance.closed
    ? 0
    : Math.max(0, balance.sourceBalanceCents - Math.max(0, balance.takenCents - paymentCents) + balance.reopenedCents);

/**
 * True when the confirmation names exactly what is owed now and the amount charged: a confirmation of another owed amount
 * (the balance changed since the screen showed it) or of another amount (the amount was edited) confirms nothing.
 */
export const confirmsOverBalance = (
  confirmation: OverBalance | undefined,
  owedCents: number,
  amountCents: number,
): boolean =>
  confirmation !== undefined && confirmation.owedCents === owedCents && confirmation.amountCents === amountCents;
