// MSI plans in the card form: one per count, each with amount / count rounded to cents (interface-decisions §8).
import { describe, expect, it } from 'vitest';
import { installmentPlans } from '../../../renderer/src/card/installments';

describe('installmentPlans', () => {
  it('divides the amount by each count, rounded to cents', () => {
    expect(installmentPlans([3, 6, 9, 12, 18, 24], 1000)).toEqual([
      { count: 3, perInstallment: 333.33 },
      { count: 6, perInstallment: 166.67 },
      { count: 9, perInstallment: 111.11 },
      { count: 12, perInstallment: 83.33 },
      { count: 18, perInstallment: 55.56 },
      { count: 24, perInstallment: 41.67 },
    ]);
  });

  it('computes in whole cents, whatever binary floating point does to the amount', () => {
    expect(installmentPlans([3], 0.3 * 3)).toEqual([{ count: 3, perInstallment: 0.3 }]);
    expect(installmentPlans([6], 1234.56)).toEqual([{ count: 6, perInstallment: 205.76 }]);
  });

  it('lists each count once, fewest months first, and only counts a plan can have', () => {
    expect(installmentPlans([12, 3, 3, 1, 0, -6, 2.5, 49, 6], 600).map((plan) => plan.count)).toEqual([3, 6, 12]);
  });
});
