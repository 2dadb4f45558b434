/** Refund refusals written for people: the code for the screens, the message for the supervisor or agent. */
export type RefundErrorCode =
  | 'refund_limit'
  | 'refund_exceeds_remaining'
  | 'payment_not_refundable'
  | 'refund_amount_unknown'
  | 'request_not_found'
  | 'request_closed'
  | 'request_changed'
  | 'approver_not_allowed'
  | 'same_person';

export class RefundError extends Error {
  override readonly name = 'RefundError';
  constructor(
    readonly code: RefundErrorCode,
    message: string,
    /** The input field at fault, when one is. */
    readonly field?: string,
  ) {
    super(message);
  }
}
