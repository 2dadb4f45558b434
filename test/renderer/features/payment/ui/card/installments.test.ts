// MSI plans in the card form: one per count, each with amount / count rounded to cents (interface-decisions §8).
import { describe, expect, it } from 'vitest';
import { installmentPlans } from '../../../../../../renderer/src/features/payment/ui/card/installments';

describe('installmentPlans', () => {
  it('divides the amount by each count, rounded to cents', () => {
    expect(installmentPlans([3, 6, 9, 12, 18, 24], 100000)).toEqual([
      { count: 3, perInstallmentCents: 33333 },
      { count: 6, perInstallmentCents: 16667 },
      { count: 9, perInstallmentCents: 11111 },
      { count: 12, perInstallmentCents: 8333 },
      { count: 18, perInstallmentCents: 5556 },
      { count: 24, perInstallmentCents: 4167 },
    ]);
  });

  it('computes in whole cents', () => {
    expect(installmentPlans([3], 90)).toEqual([{ count: 3, perInstallmentCents: 30 }]);
    expect(installmentPlans([6], 123456)).toEqual([{ count: 6, perInstallmentCents: 20576 }]);
  });

  it('lists each count once, fewest months first, and only counts a plan can have', () => {
    expect(installmentPlans([12, 3, 3, 1, 0, -6, 2.5, 49, 6], 60000).map((plan) => plan.count)).toEqual([3, 6, 12]);
  });
});
