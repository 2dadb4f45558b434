/** Refund refusals written for people: the code for the screens, the message for the supervisor or agent. */
import { UserError, type UserErrorOptions } from '../errors';

export type RefundErrorCode =
  /** Above the role's largest single refund (params: amountCents, limitCents, currency, role). */
  | 'refund_limit'
  /** Above what the operator may still refund today (params: amountCents, limitCents, refundedCents, leftCents, currency, role). */
  | 'refund_daily_limit'
  | 'refund_exceeds_remaining'
  | 'payment_not_refundable'
  | 'refund_amount_unknown'
  /** What the refund would send now is not the amount the operator confirmed (params: expectedCents, amountCents, currency). */
  | 'refund_amount_changed'
  | 'request_not_found'
  | 'request_closed'
  | 'request_changed'
  | 'approver_not_allowed'
  /** Manager override refused for a while for one approver id, at every desk, after too many wrong passwords in a row (params: minutes, failures). */
  | 'override_paused'
  | 'same_person';

export class RefundError extends UserError<RefundErrorCode> {
  override readonly name = 'RefundError';
  constructor(code: RefundErrorCode, message: string, options?: UserErrorOptions) {
    super(code, message, options);
  }
}
