/** Main's one fetch: Electron's net.fetch, Chromium's network stack (the OS proxy settings, PAC files and certificate store). */
import { Readable } from 'node:stream';

import { net } from 'electron';

/** Statuses whose Response must have no body (as the Fetch standard and Electron's net.fetch have it). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * Chromium's network errors (Error('net::ERR_…'), no code: net/base/net_error_list.h) as the system codes Node's fetch
 * reports in its error's cause. The callers read them to tell "nothing reached the server" (refused, not resolved, no
 * route, connecting timed out, certificate refused) from "it may have" (reset, closed, timed out once connected): without
 * them every failure is "unexpected, may have been sent" (a text that never left counted as possibly sent).
 */
const NODE_CODES: Record<string, { code: string; syscall?: string }> = {
  ERR_CONNECTION_REFUSED: { code: 'ECONNREFUSED', syscall: 'connect' },
  ERR_NAME_NOT_RESOLVED: { code: 'ENOTFOUND', syscall: 'getaddrinfo' },
  ERR_NAME_RESOLUTION_FAILED: { code: 'EAI_AGAIN', syscall: 'getaddrinfo' },
  ERR_CONNECTION_TIMED_OUT: { code: 'ETIMEDOUT', syscall: 'connect' },
  ERR_ADDRESS_UNREACHABLE: { code: 'EHOSTUNREACH', syscall: 'connect' },
  ERR_INTERNET_DISCONNECTED: { code: 'ENETUNREACH', syscall: 'connect' },
  ERR_CONNECTION_RESET: { code: 'ECONNRESET' },
  ERR_CONNECTION_CLOSED: { code: 'ECONNRESET' },
  ERR_EMPTY_RESPONSE: { code: 'ECONNRESET' },
  ERR_CONNECTION_ABORTED: { code: 'ECONNABORTED' },
  ERR_TIMED_OUT: { code: 'ETIMEDOUT' },
};

/** A rejection of Electron's net as Node's fetch rejects: TypeError('fetch failed') whose cause carries the code. */
function asNodeFetchError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const name = /^net::(ERR_[A-Z0-9_]+)$/.exec(error.message)?.[1];
  if (name === undefined) return error;
  // Certificates and TLS: OpenSSL-style codes (CERT_…, ERR_SSL_…), as Node reports a refused certificate.
  const known =
    NODE_CODES[name] ??
    (name.startsWith('ERR_CERT_')
      ? { code: name.slice('ERR_'.length) }
      : name.startsWith('ERR_SSL_')
        ? { code: name }
        : undefined);
  return new TypeError('fetch failed', { cause: Object.assign(error, known === undefined ? { code: name } : known) });
}

function toHeaders(raw: Record<string, string | string[]>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return headers;
}

/**
 * `redirect: 'manual'` as Node's fetch has it (the stack's callers rely on it: a redirect would carry a credential to
 * another address, and its status is the answer): the 3xx response itself, nothing followed. Electron's net.fetch
 * cannot: it never listens for its request's 'redirect' event, so a 3xx rejects the fetch ("Redirect was cancelled"),
 * which the callers would take for a network failure (a message "may have been sent", a reservation system "not
 * reachable"). Electron's net.request reports the redirect; not following it cancels the request.
 */
async function fetchWithoutFollowing(request: Request): Promise<Response> {
  request.signal.throwIfAborted();
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  return new Promise<Response>((resolve, reject) => {
    const client = net.request({ method: request.method, url: request.url, redirect: 'manual', credentials: 'omit' });
    // Also after the response: the callers' time-outs cover reading the body.
    request.signal.addEventListener(
      'abort',
      () => {
        const reason: unknown = request.signal.reason;
        reject(reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError'));
        client.abort();
      },
      { once: true },
    );
    for (const [name, value] of request.headers) client.setHeader(name, value);
    client.on('redirect', (status, _method, _url, headers) => {
      resolve(new Response(null, { status, headers: toHeaders(headers) }));
    });
    client.on('response', (response) => {
      const status = response.statusCode;
      const stream = NULL_BODY_STATUSES.has(status)
        ? null
        : (Readable.toWeb(response as unknown as Readable) as ReadableStream<Uint8Array>);
      resolve(
        new Response(stream, { status, statusText: response.statusMessage, headers: toHeaders(response.headers) }),
      );
    });
    // After a redirect, the cancelled request reports "Redirect was cancelled": the promise is settled already.
    client.on('error', reject);
    client.end(body);
  });
}

/**
 * What the stack is given as its `fetch` (payments, tokens, messaging, the partner's reservation system). Node's global
 * fetch ignores the OS proxy and certificates; electron-updater already goes through `net`, and now so does every request.
 * net.fetch takes a string or a Request: a URL object is passed as its text.
 *
 * No request carries or keeps a cookie: the services authenticate by their own headers, and a cookie kept in the Chromium
 * profile (the Cookies file in the user data folder) would outlive the session and ride along on the next request. Every
 * request has `credentials: 'omit'`, whatever the caller asked. net.fetch's own default is the Request's 'same-origin',
 * which Electron turns into 'include' when there is no Origin header (lib/browser/api/net-fetch.ts, fetchWithSession):
 * the default session's cookies sent, every Set-Cookie kept. net.request without `credentials` blocks cookies but still
 * sends the session's HTTP authentication data (docs/api/client-request.md). 'omit' is Chromium's
 * set_allow_credentials(false) (services/network/url_loader.cc): no Cookie header and LOAD_DO_NOT_SAVE_COOKIES, so no
 * Set-Cookie is stored either, and no cached HTTP authentication or 'login' event.
 */
export const netFetch: typeof fetch = (input, init) => {
  const given = input instanceof URL ? input.href : input;
  const manual = (init?.redirect ?? (given instanceof Request ? given.redirect : 'follow')) === 'manual';
  const withoutCookies: RequestInit = { ...init, credentials: 'omit' };
  const sent = manual ? fetchWithoutFollowing(new Request(given, withoutCookies)) : net.fetch(given, withoutCookies);
  return sent.catch((error: unknown) => {
    throw asNodeFetchError(error);
  });
};
