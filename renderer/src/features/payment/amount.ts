// The amount as the agent types it ("1,234.50", "1234.5", "$ 980"): to cents from the text itself, or the reason it is not one.
import { formatCents, parseCents, type AmountProblem, type ParsedCents } from '../../../../shared/payments/money';

export type { AmountProblem };
export type ParsedAmount = ParsedCents;

/** Accepts digits with thousands commas and a decimal point (the desk's es-MX and en-US both write 1,234.50). */
export const parseAmount = (typed: string): ParsedAmount => parseCents(typed);

/** How an amount field starts: two decimals and no grouping (easy to edit), from cents. */
export const amountText = (cents: number): string => formatCents(cents, { grouping: false });
