/** Refund refusals: a code and its params, which the renderer words in the desk's language. */
import { SentencedRefusal } from '../errors';

/**
 * The refusals a refund can meet once it is being sent (the caps, what is left to refund): a request that fails so
 * keeps the error's message as its `failure`, which the queues show as it is; so they still have a sentence.
 */
type Recorded =
  /** Above the role's largest single refund (params: amountCents, limitCents, currency, role). */
  | 'refund_limit'
  /** Above what the operator may still refund today (params: amountCents, limitCents, refundedCents, leftCents, currency, role). */
  | 'refund_daily_limit'
  | 'refund_exceeds_remaining'
  | 'payment_not_refundable'
  | 'refund_amount_unknown'
  /** What the refund would send now is not the amount the operator confirmed (params: expectedCents, amountCents, currency). */
  | 'refund_amount_changed';

export type RefundErrorCode =
  | Recorded
  | 'request_not_found'
  | 'request_closed'
  | 'request_changed'
  | 'approver_not_allowed'
  /** Manager override refused for a while for one approver id, at every desk, after too many wrong passwords in a row (params: minutes, failures). */
  | 'override_paused'
  | 'same_person';

export class RefundError extends SentencedRefusal<RefundErrorCode, Recorded> {
  override readonly name = 'RefundError';
}
