/** Why a message did not go, as a code, a sentence for a person and whether to try again — never a secret, a link or a provider's raw text. */
import type { DeliveryFailure, DeliveryFailureCode } from '../../shared/messaging';
import { UserError } from '../errors';

/** A failed attempt at a provider. Its message is written here from codes and numbers, never copied from a response. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(
    readonly code: DeliveryFailureCode,
    message: string,
    readonly retryable: boolean,
    /** A wait the provider asked for (Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  toFailure(): DeliveryFailure {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

export type MessagingErrorCode = 'training_only' | 'unknown_message' | 'invalid_config' | 'invalid_request' | 'simulator_unreachable';

/** A call the messenger refuses (misuse, not a delivery outcome): training-only actions, unknown ids, bad settings. */
export class MessagingError extends UserError<MessagingErrorCode> {
  override readonly name = 'MessagingError';
  constructor(code: MessagingErrorCode, message: string) {
    super(code, message);
  }
}

function stringProperty(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null || !(key in value)) return undefined;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === 'string' ? found : undefined;
}

/** The system error codes in an error, its cause, and an AggregateError's members (fetch to "localhost" tries ::1 and 127.0.0.1). */
export function systemCodes(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 4) return [];
  const codes: string[] = [];
  for (const key of ['originalCode', 'code']) {
    const code = stringProperty(error, key);
    if (code !== undefined) codes.push(code);
  }
  if ('cause' in error) codes.push(...systemCodes(error.cause, depth + 1));
  if (error instanceof AggregateError) for (const inner of error.errors) codes.push(...systemCodes(inner, depth + 1));
  return codes;
}

const TLS_CODES = /^(?:ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(?:GET|VERIFY)_|HOSTNAME_MISMATCH|ETLS|EPROTO)/;

/**
 * A network-level failure (no answer from the provider) as a DeliveryError. `where` names the server for a person
 * ("the SMTP server smtp.hotel.mx:587", "Twilio (api.twilio.com)").
 */
export function networkFailure(error: unknown, where: string): DeliveryError {
  const name = stringProperty(error, 'name');
  const codes = systemCodes(error);
  const has = (...wanted: string[]): boolean => codes.some((code) => wanted.includes(code));
  if (name === 'TimeoutError' || has('ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT')) {
    return new DeliveryError('timeout', `${where} did not answer in time.`, true);
  }
  if (has('ECONNREFUSED')) return new DeliveryError('connection_refused', `${where} refused the connection (nothing is listening there).`, true);
  if (has('ENOTFOUND')) return new DeliveryError('host_not_found', `The address of ${where} could not be found (DNS).`, false);
  if (has('EAI_AGAIN', 'EDNS')) return new DeliveryError('host_not_found', `The address of ${where} could not be looked up right now (DNS).`, true);
  if (codes.some((code) => TLS_CODES.test(code))) {
    return new DeliveryError('tls_error', `A secure (TLS) connection to ${where} could not be made: its certificate or TLS settings were not accepted.`, false);
  }
  if (has('ECONNRESET', 'EPIPE', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'ECONNECTION', 'ESOCKET')) {
    return new DeliveryError('network_error', `The connection to ${where} failed or was cut.`, true);
  }
  return new DeliveryError('unexpected', `Sending through ${where} failed unexpectedly.`, false);
}

/** Seconds or an HTTP date from a Retry-After header, in ms. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The usual meaning of a provider's HTTP status as a DeliveryError; `detail` adds a provider's error number. */
export function httpFailure(status: number, where: string, options: { retryAfter?: number; detail?: string } = {}): DeliveryError {
  const detail = options.detail ? `, ${options.detail}` : '';
  if (status === 401) return new DeliveryError('bad_credentials', `${where} refused this desk's credentials (HTTP 401${detail}). IT must check the account and the stored secret.`, false);
  if (status === 403) return new DeliveryError('bad_credentials', `${where} does not allow this desk's account to send this message (HTTP 403${detail}).`, false);
  if (status === 429) return new DeliveryError('rate_limited', `${where} is limiting the messages sent (HTTP 429${detail}).`, true, options.retryAfter);
  if (status >= 500) return new DeliveryError('provider_unavailable', `${where} had a problem on its side (HTTP ${status}${detail}).`, true, options.retryAfter);
  if (status === 408) return new DeliveryError('timeout', `${where} gave up waiting for the request (HTTP 408${detail}).`, true);
  return new DeliveryError('provider_rejected', `${where} refused the message (HTTP ${status}${detail}).`, false);
}
