// A refund being filled in (full or partial, amount, reason) and what is wrong with it, checked before anything is sent.
import { parseAmount, type AmountProblem } from '../payment/amount';
import { isRefundReason, type RefundReason } from './reasons';

export interface RefundDraft {
  scope: 'full' | 'partial';
  /** As typed; ignored for a full refund. */
  amount: string;
  reason: RefundReason | '';
}

export const emptyDraft = (): RefundDraft => ({ scope: 'full', amount: '', reason: '' });

export type AmountCheck = AmountProblem | 'refund.overLeft';

/** `amountCents` undefined: all that is left. */
export type DraftCheck =
  | { ok: true; amountCents: number | undefined; reason: RefundReason }
  | { ok: false; amount?: AmountCheck | undefined; reason?: 'refund.reason.missing' | undefined };

/**
 * The refund to send: undefined amount for "all that is left"; an amount above what is left is refused here, before
 * any request (main checks again).
 */
export function checkDraft(draft: RefundDraft, refundableCents: number): DraftCheck {
  let amountProblem: AmountCheck | undefined;
  let amountCents: number | undefined;
  if (draft.scope === 'partial') {
    const parsed = parseAmount(draft.amount);
    if (!parsed.ok) amountProblem = parsed.problem;
    else if (parsed.cents > refundableCents) amountProblem = 'refund.overLeft';
    else amountCents = parsed.cents;
  } else if (refundableCents <= 0) {
    amountProblem = 'refund.overLeft';
  }
  const reasonProblem =
    draft.reason !== '' && isRefundReason(draft.reason) ? undefined : ('refund.reason.missing' as const);
  if (amountProblem !== undefined || reasonProblem !== undefined)
    return { ok: false, amount: amountProblem, reason: reasonProblem };
  return { ok: true, amountCents, reason: draft.reason as RefundReason };
}
