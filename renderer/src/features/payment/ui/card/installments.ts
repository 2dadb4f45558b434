/** Interest-free installment plans (MSI) as offered in the card form: each count with its per-installment amount. */

export interface InstallmentPlan {
  count: number;
  /** amount / count, rounded to the cent, as the service computes it (interface-decisions §8), in cents. */
  perInstallmentCents: number;
}

/** One plan per distinct whole count from 2 to 48 (the contract's limit), fewest months first. */
export function installmentPlans(counts: readonly number[], amountCents: number): InstallmentPlan[] {
  return [...new Set(counts)]
    .filter((count) => Number.isInteger(count) && count >= 2 && count <= 48)
    .sort((a, b) => a - b)
    .map((count) => ({ count, perInstallmentCents: Math.round(amountCents / count) }));
}
