// MSI arithmetic the agent reads to the guest: each plan's monthly amount, and the time left to confirm.

/** installments.perInstallment as the service computes it (amount / count rounded to the cent), in cents. */
export const perInstallment = (amountCents: number, count: number): number => Math.round(amountCents / count);

/** Whole seconds left until an ISO time (0 once it has passed), and mm:ss for the countdown. */
export function secondsLeft(expiresAt: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
}

export function mmss(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
