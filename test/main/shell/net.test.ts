// main's one fetch (main/shell/net.ts) over Electron's net module. Electron cannot run here, so its `net` is the one thing
// faked, as Electron 45 behaves (lib/browser/api/net-fetch.ts, lib/common/api/net-client-request.ts): net.fetch builds a
// ClientRequest and never listens for its 'redirect' event, so with `redirect: 'manual'` a 3xx answer REJECTS the fetch
// ("Redirect was cancelled") instead of resolving with the 3xx response as Node's fetch does; net.request's ClientRequest
// emits 'redirect' (status, method, URL, headers) and cancels the request unless followRedirect() is called
// (test/main/support/fake-electron.ts's FakeClientRequest). The servers are real local ones.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { networkFailure } from '../../../main/messaging/errors';
import { FakeClientRequest, type FakeRequestOptions } from '../support/fake-electron';

const netFetches: string[] = [];

/** Electron's net.fetch: a ClientRequest with the fetch's redirect mode, and no 'redirect' listener. */
function electronNetFetch(input: string | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  netFetches.push(`${request.method} ${new URL(request.url).pathname} ${request.redirect}`);
  return new Promise((resolve, reject) => {
    const client = new FakeClientRequest({ method: request.method, url: request.url, redirect: request.redirect });
    request.signal.addEventListener('abort', () => {
      const reason: unknown = request.signal.reason;
      reject(reason instanceof Error ? reason : new Error('aborted'));
      client.abort();
    });
    for (const [name, value] of request.headers) client.setHeader(name, value);
    client.on('response', (response: IncomingMessage) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      const status = response.statusCode ?? 0;
      response.on('end', () => resolve(new Response([101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers })));
    });
    client.on('error', reject);
    void request.arrayBuffer().then((body) => client.end(body.byteLength === 0 ? undefined : Buffer.from(body)));
  });
}

vi.mock('electron', () => {
  const net = { fetch: electronNetFetch, request: (options: FakeRequestOptions) => new FakeClientRequest(options) };
  return { net, default: { net } };
});

const { netFetch } = await import('../../../main/shell/net');

let server: Server;
let base: string;
const received: { method: string; path: string; body: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), auth: req.headers.authorization });
      if (req.url === '/moved') res.writeHead(301, { location: 'https://elsewhere.example/reservations' }).end();
      else if (req.url === '/challenge') res.writeHead(303, { location: 'https://hotel.example/return' }).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 2_000);
      else if (req.url === '/empty') res.writeHead(204).end();
      else res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-1' }).end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  netFetches.length = 0;
});

describe("main's fetch over Electron's net (main/shell/net.ts)", () => {
  it("redirect: 'manual' answers with the 3xx itself, as Node's fetch does, and follows nothing (the reservation system's 301)", async () => {
    const response = await netFetch(new URL(`${base}/moved`), { headers: { authorization: 'Bearer key' }, redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('https://elsewhere.example/reservations');
    expect(received).toEqual([{ method: 'GET', path: '/moved', body: '', auth: 'Bearer key' }]);
  });

  it("redirect: 'manual' with a form POST: the simulator's 303 after the cardholder's answer is an answer, not a network failure", async () => {
    const response = await netFetch(`${base}/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ outcome: 'approve' }).toString(),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(received).toEqual([{ method: 'POST', path: '/challenge', body: 'outcome=approve', auth: undefined }]);
  });

  it("redirect: 'manual' without a redirect: the response, its status, headers and body", async () => {
    const response = await netFetch(`${base}/ok`, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(await response.json()).toEqual({ ok: true });
    const empty = await netFetch(`${base}/empty`, { method: 'POST', body: '{}', redirect: 'manual' });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it("redirect: 'manual' honours the caller's signal (the callers' time-outs)", async () => {
    await expect(netFetch(`${base}/slow`, { redirect: 'manual', signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it("a network failure reads as Node's fetch reports it (the system code in its cause), so messaging knows nothing was sent", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    for (const init of [{ method: 'POST', body: '{}' }, { method: 'POST', body: '{}', redirect: 'manual' as const }]) {
      const error: unknown = await netFetch(`http://127.0.0.1:${port}/messages`, init).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED', message: 'net::ERR_CONNECTION_REFUSED' } });
      // What the SMS and WhatsApp transports conclude from it: refused, nothing reached the gateway, safe to send again.
      expect(networkFailure(error, 'the gateway')).toMatchObject({ code: 'connection_refused', retryable: true, mayHaveSent: false });
    }
  });

  it('every other request is net.fetch itself (a URL passed as its text)', async () => {
    const response = await netFetch(new URL(`${base}/ok`), { method: 'POST', body: 'x' });
    expect(response.status).toBe(200);
    expect(netFetches).toEqual(['POST /ok follow']);
  });
});
