/** Interest-free installment plans (MSI) as offered in the card form: each count with its per-installment amount. */

export interface InstallmentPlan {
  count: number;
  /** amount / count, rounded to cents, as the service computes it (interface-decisions §8). */
  perInstallment: number;
}

/** One plan per distinct whole count from 2 to 48 (the contract's limit), fewest months first. */
export function installmentPlans(counts: readonly number[], amount: number): InstallmentPlan[] {
  const cents = Math.round(amount * 100);
  return [...new Set(counts)]
    .filter((count) => Number.isInteger(count) && count >= 2 && count <= 48)
    .sort((a, b) => a - b)
    .map((count) => ({ count, perInstallment: Math.round(cents / count) / 100 }));
}
