// A refund being filled in on a form (the supervisor's refund, the agent's request): the draft, its check against what
// is left on the payment, and whether its problems are shown yet (once the operator tried to send it).
import { useState } from 'react';
import type { PaymentView } from '../../../../../shared/ipc/views';
import { checkDraft, emptyDraft, type DraftCheck } from '../draft';
import type { RefundFieldsProps } from './RefundFields';

export interface RefundDraftState {
  check: DraftCheck;
  /** The operator tried to send it: its problems are shown from now on. */
  tried: () => void;
  /** Sent: an empty draft, its problems hidden again. */
  reset: () => void;
  /** RefundFields' props for the draft (all but `disabled`). */
  fields: Omit<RefundFieldsProps, 'disabled'>;
}

/** The draft of a refund of `payment` (undefined while it is read: nothing is left to refund). */
export function useRefundDraft(
  payment: Pick<PaymentView, 'refundableCents' | 'currency'> | undefined,
): RefundDraftState {
  const [draft, setDraft] = useState(emptyDraft);
  const [tried, setTried] = useState(false);
  const refundableCents = payment?.refundableCents ?? 0;
  const check = checkDraft(draft, refundableCents);
  return {
    check,
    tried: () => setTried(true),
    reset: () => {
      setDraft(emptyDraft());
      setTried(false);
    },
    fields: {
      draft,
      onChange: setDraft,
      refundableCents,
      currency: payment?.currency ?? '',
      check,
      showProblems: tried,
    },
  };
}
