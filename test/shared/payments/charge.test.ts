// What a new charge or an MSI amount update may be without the agent's confirmation: the owed amount counts refunds as
// the balance does (shared/payments/refund-effect.ts), so a refund never makes an amount update look owed when it is not.
import { describe, expect, it } from 'vitest';
import { confirmsOverBalance, isOverBalance, owedBesides } from '../../../shared/payments/charge';

const balance = (
  over: Partial<{ sourceBalanceCents: number; takenCents: number; reopenedCents: number; closed: boolean }>,
) => ({
  sourceBalanceCents: 120_000,
  takenCents: 120_000,
  reopenedCents: 0,
  closed: false,
  ...over,
});

describe('owedBesides', () => {
  it('is what the source owes less the other payments, this one set aside', () => {
    expect(owedBesides(balance({ takenCents: 150_000 }), 100_000)).toBe(70_000);
    expect(owedBesides(balance({}), 120_000)).toBe(120_000);
  });

  it('adds back only refunds that reopen the debt (a fraudulent charge refunded), never a goodwill or duplicate refund', () => {
    // A goodwill refund of 20,000 on another payment: it settles, so nothing more is owed besides this payment.
    expect(owedBesides(balance({ takenCents: 150_000, reopenedCents: 0 }), 100_000)).toBe(70_000);
    expect(owedBesides(balance({ takenCents: 150_000, reopenedCents: 20_000 }), 100_000)).toBe(90_000);
  });

  it('is nothing once a cancellation refund closed the booking', () => {
    expect(owedBesides(balance({ takenCents: 100_000, closed: true }), 100_000)).toBe(0);
  });
});

describe('the confirmation of a charge above what is owed', () => {
  it('is needed only above the owed amount, and holds only for both amounts as they are now', () => {
    expect(isOverBalance(119_999, 119_999)).toBe(false);
    expect(isOverBalance(1_199_990, 119_999)).toBe(true);
    expect(confirmsOverBalance({ owedCents: 119_999, amountCents: 1_199_990 }, 119_999, 1_199_990)).toBe(true);
    expect(confirmsOverBalance({ owedCents: 119_999, amountCents: 1_199_990 }, 100_000, 1_199_990)).toBe(false);
    expect(confirmsOverBalance({ owedCents: 119_999, amountCents: 1_199_990 }, 119_999, 1_199_900)).toBe(false);
    expect(confirmsOverBalance(undefined, 119_999, 1_199_990)).toBe(false);
  });
});
