// Who may call a channel: anyone before sign-in, or the roles listed, and the lists the contract's channels share.
import type { Role } from '../operators';

/** Who may call a channel: anyone (before sign-in), or the signed-in roles listed. */
export type Access = 'public' | readonly Role[];

/** Every signed-in role. */
export const STAFF = ['agent', 'supervisor', 'admin'] as const satisfies readonly Role[];
/** The roles that take payments: an admin does not. */
export const TAKES_PAYMENTS = ['agent', 'supervisor'] as const satisfies readonly Role[];
/** The roles that refund and see the supervisors' records. */
export const REFUNDS = ['supervisor', 'admin'] as const satisfies readonly Role[];
/** The operators' accounts: the admin only. */
export const ADMIN = ['admin'] as const satisfies readonly Role[];
