// Refund attempts: which failures leave the attempt open (the answer may not have arrived: retry with the same id)
// and which end it (main refused it for good: the next attempt is a new operation with a new id).
import { REFUND_REASONS, type RefundReason } from '../../../../shared/payments';
import { ApiError } from '../../bridge/client';
import type { PlainKey } from '../../i18n';

/** Codes that say "the answer is unknown or late", never "no". */
const RETRYABLE = new Set(['network_error', 'timeout', 'unexpected_response', 'rate_limited', 'idempotency_in_progress', 'internal', 'api_error', 'service_unavailable']);

/** True when the same attempt (same id) should be sent again rather than a new one started. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || RETRYABLE.has(error.code);
}

export { REFUND_REASONS };
export type { RefundReason };

export const reasonKey = (reason: string): PlainKey | undefined =>
  (REFUND_REASONS as readonly string[]).includes(reason) ? (`refund.reason.${reason as RefundReason}` as const) : undefined;

export const isRefundReason = (value: string): value is RefundReason => (REFUND_REASONS as readonly string[]).includes(value);

/** The amount a currency text means for formatting ("usd" or "mxn"; anything else is shown as pesos' code-less twin). */
export const moneyCurrency = (currency: string): 'usd' | 'mxn' => (currency === 'usd' ? 'usd' : 'mxn');
