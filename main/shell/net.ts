/** Main's one fetch: Electron's net.fetch, Chromium's network stack (the OS proxy settings, PAC files and certificate store). */
import { Readable } from 'node:stream';

import { net } from 'electron';

/** Statuses whose Response must have no body (as the Fetch standard and Electron's net.fetch have it). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

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
    const client = net.request({ method: request.method, url: request.url, redirect: 'manual' });
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
      const stream = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(response as unknown as Readable) as ReadableStream<Uint8Array>);
      resolve(new Response(stream, { status, statusText: response.statusMessage, headers: toHeaders(response.headers) }));
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
 */
export const netFetch: typeof fetch = (input, init) => {
  const given = input instanceof URL ? input.href : input;
  const manual = (init?.redirect ?? (given instanceof Request ? given.redirect : 'follow')) === 'manual';
  return manual ? fetchWithoutFollowing(new Request(given, init)) : net.fetch(given, init);
};
