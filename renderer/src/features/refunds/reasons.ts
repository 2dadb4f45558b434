// Refund reasons: the contract's list, their catalogue keys, and a check of what a form's select holds.
import { REFUND_REASONS, type RefundReason } from '../../../../shared/payments';
import type { PlainKey } from '../../i18n';

export { REFUND_REASONS };
export type { RefundReason };

export const reasonKey = (reason: string): PlainKey | undefined =>
  (REFUND_REASONS as readonly string[]).includes(reason)
    ? (`refund.reason.${reason as RefundReason}` as const)
    : undefined;

export const isRefundReason = (value: string): value is RefundReason =>
  (REFUND_REASONS as readonly string[]).includes(value);
