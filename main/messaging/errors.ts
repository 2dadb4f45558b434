/** Why a message did not go, as a code, a sentence for IT, who can act and whether it may have gone all the same — never a secret, a link or a provider's raw text. */
import { actorOf, type DeliveryFailure, type DeliveryFailureCode } from '../../shared/messaging';
import { SentencedRefusal } from '../errors';

export interface DeliveryErrorOptions {
  /** A wait the provider asked for (Retry-After), in ms. */
  retryAfterMs?: number | undefined;
  /**
   * The request may have reached the provider (a timeout after connecting, a connection cut, a 5xx): the message may
   * exist. Nothing is sent again before the provider has been asked about it (or drops repeats itself).
   */
  mayHaveSent?: boolean | undefined;
  /** The provider's own error number (Twilio's 21610, 30003…). */
  providerCode?: number | undefined;
  /** The provider's page about that error (Twilio's more_info), kept in the delivery audit. */
  moreInfo?: string | undefined;
}

/** A failed attempt at a provider. Its message is written here from codes and numbers, never copied from a response. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  readonly retryAfterMs: number | undefined;
  readonly mayHaveSent: boolean;
  readonly providerCode: number | undefined;
  readonly moreInfo: string | undefined;

  constructor(
    readonly code: DeliveryFailureCode,
    message: string,
    /** Sending again (later, or at once when nothing reached the provider) may work. */
    readonly retryable: boolean,
    options: DeliveryErrorOptions = {},
  ) {
    super(message);
    this.retryAfterMs = options.retryAfterMs;
    this.mayHaveSent = options.mayHaveSent ?? false;
    this.providerCode = options.providerCode;
    this.moreInfo = options.moreInfo;
  }

  toFailure(): DeliveryFailure {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      actor: actorOf(this.code),
      ...(this.providerCode === undefined ? {} : { providerCode: this.providerCode }),
    };
  }
}

export type MessagingErrorCode =
  | 'training_only'
  | 'unknown_message'
  | 'invalid_config'
  | 'invalid_request'
  | 'simulator_unreachable'
  | 'receipt_not_available';

/**
 * A call the messenger refuses (misuse, not a delivery outcome): training-only actions, unknown ids, bad settings. A
 * refusal is its code and field (the renderer words it); only `invalid_config`, read by IT when the app starts, has a
 * sentence.
 */
export class MessagingError extends SentencedRefusal<MessagingErrorCode, 'invalid_config'> {
  override readonly name = 'MessagingError';
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

/** The failed system call (connect, getaddrinfo…) in an error or its causes. */
function syscallOf(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  return stringProperty(error, 'syscall') ?? ('cause' in error ? syscallOf(error.cause, depth + 1) : undefined);
}

const TLS_CODES =
  /^(?:ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(?:GET|VERIFY)_|HOSTNAME_MISMATCH|ETLS|EPROTO)/;

/**
 * The Chromium net error in a failure of Electron's net.fetch (the app's fetch): it rejects with
 * `new Error('net::ERR_CONNECTION_REFUSED')`, a message and no code. Looked for in the error and its causes.
 */
function chromiumError(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const match = /^net::(ERR_[A-Z0-9_]+)$/.exec(stringProperty(error, 'message') ?? '');
  if (match) return match[1];
  return 'cause' in error ? chromiumError(error.cause, depth + 1) : undefined;
}

/**
 * Chromium's errors of the TLS handshake (net_error_list.h): before it completes, no request has left. Not
 * ERR_SSL_PROTOCOL_ERROR: Chromium also gives it for a bad record read after the handshake, once the request is out.
 */
const CHROMIUM_HANDSHAKE =
  /^ERR_(?:CERT_|SSL_VERSION_OR_CIPHER_MISMATCH$|SSL_HANDSHAKE_NOT_COMPLETED$|SSL_CLIENT_AUTH_|BAD_SSL_CLIENT_AUTH_CERT$|SSL_PINNED_KEY_NOT_IN_CERT_CHAIN$|SSL_SERVER_CERT_|SSL_UNRECOGNIZED_NAME_ALERT$|SSL_OBSOLETE_|CERTIFICATE_TRANSPARENCY_REQUIRED$|SSL_WEAK_SERVER_EPHEMERAL_DH_KEY$)/;

/** A Chromium net error as a DeliveryError, or undefined for one this table does not tell apart. */
function chromiumFailure(name: string, where: string): DeliveryError | undefined {
  switch (name) {
    // Nothing reached the provider: the connection was never made.
    case 'ERR_CONNECTION_REFUSED':
      return new DeliveryError(
        'connection_refused',
        `${where} refused the connection (nothing is listening there).`,
        true,
      );
    case 'ERR_NAME_NOT_RESOLVED':
      return new DeliveryError('host_not_found', `The address of ${where} could not be found (DNS).`, false);
    case 'ERR_NAME_RESOLUTION_FAILED':
    case 'ERR_DNS_TIMED_OUT':
    case 'ERR_DNS_SERVER_FAILED':
      return new DeliveryError(
        'host_not_found',
        `The address of ${where} could not be looked up right now (DNS).`,
        true,
      );
    case 'ERR_CONNECTION_TIMED_OUT':
      return new DeliveryError('timeout', `${where} could not be reached in time (connecting timed out).`, true);
    case 'ERR_ADDRESS_UNREACHABLE':
    case 'ERR_INTERNET_DISCONNECTED':
    case 'ERR_CONNECTION_FAILED':
    case 'ERR_PROXY_CONNECTION_FAILED':
    case 'ERR_TUNNEL_CONNECTION_FAILED':
      return new DeliveryError('network_error', `${where} cannot be reached from this desk's network.`, true);
    // It may have: the connection was made, then cut or left without an answer.
    case 'ERR_CONNECTION_RESET':
    case 'ERR_CONNECTION_CLOSED':
    case 'ERR_CONNECTION_ABORTED':
    case 'ERR_EMPTY_RESPONSE':
    case 'ERR_NETWORK_CHANGED':
      return new DeliveryError('network_error', `The connection to ${where} failed or was cut.`, true, {
        mayHaveSent: true,
      });
    case 'ERR_TIMED_OUT':
      return new DeliveryError('timeout', `${where} did not answer in time.`, true, { mayHaveSent: true });
    case 'ERR_SSL_PROTOCOL_ERROR':
      return new DeliveryError('tls_error', `The secure (TLS) connection to ${where} failed.`, false, {
        mayHaveSent: true,
      });
    default:
      if (CHROMIUM_HANDSHAKE.test(name)) {
        return new DeliveryError(
          'tls_error',
          `A secure (TLS) connection to ${where} could not be made: its certificate or TLS settings were not accepted.`,
          false,
        );
      }
      return undefined;
  }
}

/**
 * A network-level failure (no answer from the provider) as a DeliveryError. `where` names the server for a person
 * ("the SMTP server smtp.hotel.mx:587", "Twilio (api.twilio.com)").
 *
 * Whether the request may have reached the provider decides what may follow: nothing reached it when the connection
 * was refused, the name did not resolve, the TLS handshake failed or connecting timed out — sending again is safe.
 * A timeout once connected (the app's own deadline), a connection cut or anything unknown may have delivered the
 * request: the message may exist. Both kinds of failure are read: Node's (a system `code`, undici's causes) and
 * Chromium's net errors, which the app's fetch (Electron's net.fetch) raises as a bare `net::ERR_…` message.
 */
export function networkFailure(error: unknown, where: string): DeliveryError {
  const chromium = chromiumError(error);
  const known = chromium === undefined ? undefined : chromiumFailure(chromium, where);
  if (known) return known;
  const name = stringProperty(error, 'name');
  const codes = systemCodes(error);
  const has = (...wanted: string[]): boolean => codes.some((code) => wanted.includes(code));
  if (has('UND_ERR_CONNECT_TIMEOUT') || (has('ETIMEDOUT') && syscallOf(error) === 'connect')) {
    return new DeliveryError('timeout', `${where} could not be reached in time (connecting timed out).`, true);
  }
  if (name === 'TimeoutError' || has('ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT')) {
    return new DeliveryError('timeout', `${where} did not answer in time.`, true, { mayHaveSent: true });
  }
  if (has('ECONNREFUSED'))
    return new DeliveryError(
      'connection_refused',
      `${where} refused the connection (nothing is listening there).`,
      true,
    );
  if (has('ENOTFOUND'))
    return new DeliveryError('host_not_found', `The address of ${where} could not be found (DNS).`, false);
  if (has('EAI_AGAIN', 'EDNS'))
    return new DeliveryError('host_not_found', `The address of ${where} could not be looked up right now (DNS).`, true);
  if (codes.some((code) => TLS_CODES.test(code))) {
    return new DeliveryError(
      'tls_error',
      `A secure (TLS) connection to ${where} could not be made: its certificate or TLS settings were not accepted.`,
      false,
    );
  }
  if (has('EHOSTUNREACH', 'ENETUNREACH'))
    return new DeliveryError('network_error', `${where} cannot be reached from this desk's network.`, true);
  if (has('ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'ECONNECTION', 'ESOCKET')) {
    return new DeliveryError('network_error', `The connection to ${where} failed or was cut.`, true, {
      mayHaveSent: true,
    });
  }
  return new DeliveryError('unexpected', `Sending through ${where} failed unexpectedly.`, false, { mayHaveSent: true });
}

/** Seconds or an HTTP date from a Retry-After header, in ms. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The usual meaning of a provider's HTTP status as a DeliveryError; `detail` adds a provider's error number. A 429 was
 * refused before anything was done (safe to send again); a 5xx or a 408 may have been half done — and a 502 or 504,
 * written by a gateway in front of the provider, may still be being done.
 */
export function httpFailure(
  status: number,
  where: string,
  options: { retryAfter?: number | undefined; detail?: string; providerCode?: number; moreInfo?: string } = {},
): DeliveryError {
  const detail = options.detail ? `, ${options.detail}` : '';
  const extra = { providerCode: options.providerCode, moreInfo: options.moreInfo };
  if (status === 401)
    return new DeliveryError(
      'bad_credentials',
      `${where} refused this desk's credentials (HTTP 401${detail}). IT must check the account and the stored secret.`,
      false,
      extra,
    );
  if (status === 403)
    return new DeliveryError(
      'bad_credentials',
      `${where} does not allow this desk's account to send this message (HTTP 403${detail}). IT must check the account.`,
      false,
      extra,
    );
  if (status === 429)
    return new DeliveryError('rate_limited', `${where} is limiting the messages sent (HTTP 429${detail}).`, true, {
      ...extra,
      retryAfterMs: options.retryAfter,
    });
  // A gateway on the way answered for the provider: it got no valid answer (502) or gave up waiting (504), so the
  // provider may still be working on the request. Not an answer from the provider: a timeout or a cut, as far as the
  // message is concerned (looked for, never sent again on a guess).
  if (status === 504)
    return new DeliveryError(
      'timeout',
      `${where} did not answer in time: a gateway on the way gave up waiting (HTTP 504${detail}).`,
      true,
      { ...extra, retryAfterMs: options.retryAfter, mayHaveSent: true },
    );
  if (status === 502)
    return new DeliveryError(
      'network_error',
      `The connection to ${where} failed: a gateway on the way got no valid answer (HTTP 502${detail}).`,
      true,
      { ...extra, retryAfterMs: options.retryAfter, mayHaveSent: true },
    );
  if (status >= 500)
    return new DeliveryError(
      'provider_unavailable',
      `${where} had a problem on its side (HTTP ${status}${detail}).`,
      true,
      { ...extra, retryAfterMs: options.retryAfter, mayHaveSent: true },
    );
  if (status === 408)
    return new DeliveryError('timeout', `${where} gave up waiting for the request (HTTP 408${detail}).`, true, {
      ...extra,
      mayHaveSent: true,
    });
  return new DeliveryError(
    'provider_rejected',
    `${where} refused the message (HTTP ${status}${detail}). IT must check the messaging settings.`,
    false,
    extra,
  );
}
