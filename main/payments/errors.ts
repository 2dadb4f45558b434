/** The engine's one error type: what went wrong as a code with its params, never a secret or a body. */
import { UserError, type ErrorParams } from '../errors';

/** invalid_input: refused by the engine itself, before any request or journal write. */
export type FailureKind = 'invalid_input' | 'network' | 'timeout' | 'http' | 'unexpected_response' | 'configuration';

export interface ServiceErrorDetails {
  status?: number;
  param?: string;
  requestId?: string;
  /** The amounts and names the message is made of, for the renderer to say it again in the desk's language. */
  params?: ErrorParams;
}

export class ServiceError extends UserError {
  override readonly name = 'ServiceError';
  readonly kind: FailureKind;
  readonly details: ServiceErrorDetails;

  /**
   * The engine's own refusals carry no sentence (the renderer words the code and its params); the service's refusals
   * keep the service's words, and a refusal a refund request records as its failure keeps a sentence for the queues.
   */
  constructor(kind: FailureKind, code: string, details?: ServiceErrorDetails);
  constructor(kind: FailureKind, code: string, message: string, details?: ServiceErrorDetails);
  constructor(
    kind: FailureKind,
    /** The service's error code (§3), or the engine's own for network, timeout and shape failures. */
    code: string,
    messageOrDetails: string | ServiceErrorDetails = {},
    maybeDetails: ServiceErrorDetails = {},
  ) {
    const details = typeof messageOrDetails === 'string' ? maybeDetails : messageOrDetails;
    const options = { field: details.param, params: details.params };
    if (typeof messageOrDetails === 'string') super(code, messageOrDetails, options);
    else super(code, options);
    this.kind = kind;
    this.details = details;
  }
}

/** No answer from the payment service to request `requestId`: its time ran out (AbortSignal.timeout), or it was not reached. */
export function noAnswer(error: unknown, requestId: string): ServiceError {
  return error instanceof Error && error.name === 'TimeoutError'
    ? new ServiceError('timeout', 'timeout', 'The payment service did not answer in time.', { requestId })
    : new ServiceError('network', 'network_error', 'Cannot reach the payment service. Check the network.', {
        requestId,
      });
}

/** The payment service answered request `requestId` (HTTP `status`) in a form this app does not read. */
export function unreadableAnswer(status: number, requestId: string): ServiceError {
  return new ServiceError(
    'unexpected_response',
    'unexpected_response',
    'The payment service answered in a form this app does not understand.',
    { status, requestId },
  );
}

/** Fallback messages when the service sends none: by code first, then by HTTP status. */
const BY_CODE: Record<string, string> = {
  idempotency_conflict: 'This operation was already sent with different details. Start it again.',
  idempotency_in_progress: 'The service is still working on this request.',
  invalid_state: 'The payment is no longer in a state that allows this.',
  rate_limited: 'The payment service is busy. Try again in a moment.',
  not_found: 'The payment service does not know this payment or card.',
};

export function messageFor(code: string, status: number, sent: string | undefined): string {
  if (sent !== undefined && sent.trim() !== '') return sent;
  const byCode = BY_CODE[code];
  if (byCode) return byCode;
  if (status >= 500) return 'The payment service had a problem. Try again in a moment.';
  return `The payment service refused the request (HTTP ${status}).`;
}
