// main's one fetch (main/shell/net.ts) over Electron's net module. Electron cannot run here, so its `net` is the one thing
// faked, as Electron 45 behaves (test/main/support/fake-electron.ts, its net section: lib/browser/api/net-fetch.ts,
// lib/common/api/net-client-request.ts, shell/common/api/electron_api_url_loader.cc): net.fetch is the default session's
// fetch, a ClientRequest that never listens for its 'redirect' event, so with `redirect: 'manual'` a 3xx answer REJECTS
// the fetch ("Redirect was cancelled") instead of resolving with the 3xx response as Node's fetch does; its credentials
// default to 'include', so it sends the session's cookies and keeps those it is given. net.request's ClientRequest emits
// 'redirect' (status, method, URL, headers) and cancels the request unless followRedirect() is called; by default it
// neither sends nor keeps cookies. The servers are real local ones.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { networkFailure } from '../../../main/messaging/errors';
import { FakeClientRequest, FakeCookies, fakeSessionFetch, type FakeRequestOptions } from '../support/fake-electron';

const netFetches: string[] = [];
/** The default session: its cookie store is the one Chromium keeps in the profile (Cookies in the user data folder). */
const defaultSession = {
  cookies: new FakeCookies(),
  fetch: (input: string | Request, init?: RequestInit): Promise<Response> =>
    fakeSessionFetch(defaultSession, input, init),
};

/** Electron's net.fetch: session.defaultSession.fetch (lib/browser/api/net.ts). */
function electronNetFetch(input: string | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input instanceof Request ? input.clone() : input, init);
  netFetches.push(`${request.method} ${new URL(request.url).pathname} ${request.redirect}`);
  return defaultSession.fetch(input, init);
}

vi.mock('electron', () => {
  const net = {
    fetch: electronNetFetch,
    request: (options: FakeRequestOptions) => new FakeClientRequest(options, defaultSession),
  };
  const session = { defaultSession };
  return { net, session, default: { net, session } };
});

const { netFetch } = await import('../../../main/shell/net');

let server: Server;
let base: string;
const received: { method: string; path: string; body: string; auth: string | undefined }[] = [];
/** The Cookie header of each request the server received, in order. */
const cookiesReceived: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        auth: req.headers.authorization,
      });
      cookiesReceived.push(req.headers.cookie);
      // A server that hands out a session cookie with its answer (a load balancer's affinity cookie, a web session).
      const cookie = { 'set-cookie': ['sid=s-1; Path=/; HttpOnly', 'affinity=node-2; Path=/'] };
      if (req.url === '/payments')
        res.writeHead(201, { ...cookie, 'content-type': 'application/json' }).end(JSON.stringify({ id: 'pay_1' }));
      else if (req.url === '/Messages.json') res.writeHead(303, { ...cookie, location: '/Messages/SM1.json' }).end();
      else if (req.url?.startsWith('/reservations'))
        res.writeHead(200, { ...cookie, 'content-type': 'application/json' }).end('[]');
      else if (req.url === '/moved') res.writeHead(301, { location: 'https://elsewhere.example/reservations' }).end();
      else if (req.url === '/challenge') res.writeHead(303, { location: 'https://hotel.example/return' }).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 2_000);
      else if (req.url === '/empty') res.writeHead(204).end();
      else
        res
          .writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-1' })
          .end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  received.length = 0;
  cookiesReceived.length = 0;
  netFetches.length = 0;
  for (const cookie of await defaultSession.cookies.get({}))
    await defaultSession.cookies.remove(`http://${cookie.domain}/`, cookie.name);
});

describe("main's fetch over Electron's net (main/shell/net.ts)", () => {
  it("redirect: 'manual' answers with the 3xx itself, as Node's fetch does, and follows nothing (the reservation system's 301)", async () => {
    const response = await netFetch(new URL(`${base}/moved`), {
      headers: { authorization: 'Bearer key' },
      redirect: 'manual',
    });
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
    await expect(
      netFetch(`${base}/slow`, { redirect: 'manual', signal: AbortSignal.timeout(100) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it("a network failure reads as Node's fetch reports it (the system code in its cause), so messaging knows nothing was sent", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    for (const init of [
      { method: 'POST', body: '{}' },
      { method: 'POST', body: '{}', redirect: 'manual' as const },
    ]) {
      const error: unknown = await netFetch(`http://127.0.0.1:${port}/messages`, init).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({
        message: 'fetch failed',
        cause: { code: 'ECONNREFUSED', message: 'net::ERR_CONNECTION_REFUSED' },
      });
      // What the SMS and WhatsApp transports conclude from it: refused, nothing reached the gateway, safe to send again.
      expect(networkFailure(error, 'the gateway')).toMatchObject({
        code: 'connection_refused',
        retryable: true,
        mayHaveSent: false,
      });
    }
  });

  it('every other request is net.fetch itself (a URL passed as its text)', async () => {
    const response = await netFetch(new URL(`${base}/ok`), { method: 'POST', body: 'x' });
    expect(response.status).toBe(200);
    expect(netFetches).toEqual(['POST /ok follow']);
  });

  describe('cookies: none sent to the services, none kept from them (credentials omitted on every request)', () => {
    it('the payment service (redirects followed): a Set-Cookie in its answer is not kept, and the next request carries no cookie', async () => {
      const created = await netFetch(`${base}/payments`, {
        method: 'POST',
        headers: { authorization: 'Bearer token' },
        body: '{}',
      });
      expect(created.status).toBe(201);
      await netFetch(`${base}/payments/pay_1`, { headers: { authorization: 'Bearer token' } });
      expect(cookiesReceived).toEqual([undefined, undefined]);
      // Nothing in the profile's cookie store (Chromium writes it to the Cookies file of the user data folder).
      expect(await defaultSession.cookies.get({})).toEqual([]);
    });

    it("a caller's own Request asking for credentials gets none either", async () => {
      await netFetch(new Request(`${base}/payments`, { method: 'POST', body: '{}', credentials: 'include' }));
      await netFetch(new Request(`${base}/payments`, { method: 'POST', body: '{}', credentials: 'include' }));
      expect(cookiesReceived).toEqual([undefined, undefined]);
      expect(await defaultSession.cookies.get({})).toEqual([]);
    });

    it('the messaging provider and the reservation system (redirect: manual): nothing kept from a 3xx or a 200, nothing sent back', async () => {
      const sent = await netFetch(`${base}/Messages.json`, {
        method: 'POST',
        body: 'To=%2B525512345678',
        redirect: 'manual',
      });
      expect(sent.status).toBe(303);
      await netFetch(`${base}/reservations?q=ana`, { headers: { authorization: 'Bearer key' }, redirect: 'manual' });
      await netFetch(`${base}/reservations?q=ana`, { headers: { authorization: 'Bearer key' }, redirect: 'manual' });
      expect(cookiesReceived).toEqual([undefined, undefined, undefined]);
      expect(await defaultSession.cookies.get({})).toEqual([]);
    });

    it('a cookie already in the default session for that host (stored by an earlier version or another part of the app) is never sent', async () => {
      await defaultSession.cookies.set({ url: base, name: 'sid', value: 'stored-earlier' });
      await netFetch(`${base}/payments`, { method: 'POST', body: '{}' });
      await netFetch(`${base}/reservations?q=ana`, { redirect: 'manual' });
      expect(cookiesReceived).toEqual([undefined, undefined]);
      expect(await defaultSession.cookies.get({})).toEqual([
        { name: 'sid', value: 'stored-earlier', domain: '127.0.0.1', path: '/', hostOnly: true },
      ]);
    });
  });
});
