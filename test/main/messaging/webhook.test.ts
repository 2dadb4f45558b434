// The generic HTTPS webhook for a call center's own gateway: a local
// node:http server checks method, path, auth header and the JSON body exactly as main/messaging/transports/webhook.ts
// documents them, and reports delivery through the status URL the way the gateway must (main/messaging/README.md).
import { afterEach, describe, expect, it } from 'vitest';
import { LINK, LINK_TOKEN, context, makeRig, startHttp, type HttpHarness, type Reply, type Rig } from './support';

const SECRET = 'Bearer gw-7c1d2e3f4a5b6c7d';
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function gateway(replies?: Reply[], statuses?: Reply[]): Promise<HttpHarness> {
  const server = await startHttp(
    replies ?? [{ status: 202, body: { id: 'gw-123' } }],
    statuses ?? [{ status: 200, body: { status: 'delivered' } }],
  );
  open.push(server);
  return server;
}

function rig(url: string, options: { authHeaderName?: string; secrets?: Record<string, string> } = {}): Rig {
  const origin = new URL(url).origin;
  const r = makeRig({
    environment: 'production',
    config: {
      providers: { email: 'webhook', sms: 'webhook', whatsapp: 'webhook' },
      webhook: {
        url,
        statusUrl: `${origin}/status/{messageId}?tenant=casa-azul`,
        ...(options.authHeaderName === undefined ? {} : { authHeaderName: options.authHeaderName }),
      },
      requestTimeoutMs: 1000,
    },
    secrets: options.secrets ?? { webhookAuthHeaderValue: SECRET },
  });
  open.push(r);
  return r;
}

describe('the webhook request', () => {
  it('SMS: POST to the URL, JSON body as documented, the auth header from the secret store, an Idempotency-Key', async () => {
    const server = await gateway();
    const r = rig(`${server.origin}/hooks/3ds-link?tenant=casa-azul`, { authHeaderName: 'Authorization' });
    const result = await r.messenger.send(
      { paymentId: context().payment.id, channel: 'sms', destination: '+52 (55) 1234-5678', language: 'en-US' },
      context(),
    );

    // Accepted by the gateway: queued, and followed.
    expect(result).toMatchObject({
      status: 'queued',
      final: false,
      provider: 'webhook',
      attempts: 1,
      to: '+52 ******5678',
    });
    await r.settled();
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    const request = server.requests[0];
    if (!request) throw new Error('no request');
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/3ds-link?tenant=casa-azul');
    expect(request.headers.authorization).toBe(SECRET);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['idempotency-key']).toBe(result.messageId);
    expect(JSON.parse(request.body)).toEqual({
      version: 2,
      messageId: result.messageId,
      paymentId: context().payment.id,
      channel: 'sms',
      to: '+525512345678',
      language: 'en-US',
      text: `Hotel Casa Azul: to complete your payment of $1,234.50 MXN with your Visa card ending in 3220, confirm it with your bank at this link: ${LINK}`,
      link: LINK,
      variables: { '1': 'Hotel Casa Azul', '2': '$1,234.50 MXN', '3': LINK },
      // The link's remaining lifetime: the gateway must not deliver the message after it.
      validitySeconds: 900,
    });
    expect(r.logs.join('\n')).not.toContain(LINK_TOKEN);
    expect(r.auditBytes()).not.toContain(LINK_TOKEN);
    expect(r.logs.join('\n')).not.toContain(SECRET);
  });

  it('e-mail: subject, text and HTML in the body; a custom auth header name', async () => {
    const server = await gateway();
    const r = rig(server.origin, { authHeaderName: 'X-Gateway-Key' });
    const result = await r.messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result.status).toBe('queued');
    const request = server.requests[0];
    expect(request?.headers['x-gateway-key']).toBe(SECRET);
    expect(request?.headers.authorization).toBeUndefined();
    const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'channel',
      'html',
      'language',
      'link',
      'messageId',
      'paymentId',
      'subject',
      'text',
      'to',
      'validitySeconds',
      'variables',
      'version',
    ]);
    expect(body.subject).toBe('Hotel Casa Azul: confirme su pago con su banco');
    expect(body.to).toBe('guest@example.com');
    expect(body.text).toContain(LINK);
    expect(body.html).toContain(LINK.replaceAll('&', '&amp;'));
  });

  it('without an auth header name, no credential is read or sent', async () => {
    const server = await gateway();
    const r = rig(server.origin);
    await r.messenger.send(
      { paymentId: context().payment.id, channel: 'whatsapp', destination: '+525512345678', language: 'es-MX' },
      context(),
    );
    await r.settled();
    expect(r.secretReads).toEqual([]);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('every retry carries the same Idempotency-Key and body', async () => {
    const server = await gateway([{ status: 502 }, { status: 504 }, { status: 200 }]);
    const r = rig(server.origin, { authHeaderName: 'Authorization' });
    const result = await r.messenger.send(
      { paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({ status: 'queued', attempts: 3 });
    const posts = server.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.headers['idempotency-key'])).toEqual([
      result.messageId,
      result.messageId,
      result.messageId,
    ]);
    expect(new Set(posts.map((request) => request.body)).size).toBe(1);
    expect(r.sleeps).toEqual([375, 750]);
  });
});

describe('delivery reported by the gateway', () => {
  const send = (r: Rig) =>
    r.messenger.send(
      { paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' },
      context(),
    );

  it('followed through the status URL until final: queued → sent → delivered, each in the audit', async () => {
    const server = await gateway(undefined, [
      { status: 200, body: { status: 'queued' } },
      { status: 200, body: { status: 'sent' } },
      { status: 200, body: { status: 'delivered' } },
    ]);
    const r = rig(server.origin, { authHeaderName: 'Authorization' });
    const result = await send(r);
    await r.settled();
    const gets = server.requests.filter((request) => request.method === 'GET');
    expect(gets.map((request) => request.url)).toEqual(Array(3).fill(`/status/${result.messageId}?tenant=casa-azul`));
    expect(gets.every((request) => request.headers.authorization === SECRET)).toBe(true);
    expect(r.deliveries.map((d) => `${d.status}${d.final ? '!' : ''}`)).toEqual(['queued', 'sent', 'delivered!']);
    expect(r.polls).toEqual([1000, 2000, 3000]);
    const [row] = await r.messenger.history(context().payment.id);
    expect(row?.status).toBe('delivered');
    expect(row?.events.map((event) => event.status)).toEqual(['sending', 'queued', 'sent', 'delivered']);
  });

  it.each([
    [{ status: 'undelivered', failure: 'opted_out' }, 'opted_out', 'guest'],
    [{ status: 'failed', failure: 'template_rejected' }, 'template_rejected', 'it'],
    [{ status: 'failed', failure: 'something else' }, 'undelivered', 'desk'],
    [{ status: 'failed' }, 'undelivered', 'desk'],
  ] as const)('a failure reported as %j: %s, for the %s', async (body, code, actor) => {
    const server = await gateway(undefined, [{ status: 200, body }]);
    const r = rig(server.origin);
    await send(r);
    await r.settled();
    expect(r.deliveries.at(-1)).toMatchObject({ status: 'failed', final: true, failure: { code, actor } });
  });

  it('a gateway that answers the POST with a final status is not asked again', async () => {
    const server = await gateway([{ status: 200, body: { id: 'gw-9', status: 'delivered' } }]);
    const r = rig(server.origin);
    const result = await send(r);
    await r.settled();
    expect(result).toMatchObject({ status: 'delivered', final: true });
    expect(server.requests.filter((request) => request.method === 'GET')).toEqual([]);
  });

  it('a status URL that fails is asked again at the next step', async () => {
    const server = await gateway(undefined, [{ status: 503 }, { status: 200, body: { status: 'delivered' } }]);
    const r = rig(server.origin);
    await send(r);
    await r.settled();
    expect(r.deliveries.map((d) => d.status)).toEqual(['queued', 'delivered']);
    expect(r.logs.join('\n')).toContain('delivery status not read');
  });
});

describe('webhook failures', () => {
  it.each([401, 403])('%s: bad credentials, tried once, the secret nowhere in the result', async (status) => {
    const server = await gateway([{ status, body: { error: 'nope' } }]);
    const r = rig(server.origin, { authHeaderName: 'Authorization' });
    const result = await r.messenger.send(
      { paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 1,
      failure: { code: 'bad_credentials', retryable: false },
    });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(r.auditBytes()).not.toContain(SECRET);
    expect(server.requests).toHaveLength(1);
  });

  it('422: refused, not retried', async () => {
    const server = await gateway([{ status: 422 }]);
    const r = rig(server.origin);
    const result = await r.messenger.send(
      { paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 1,
      failure: { code: 'provider_rejected', retryable: false },
    });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(
      `the messaging gateway (${new URL(server.origin).host}) refused the message (HTTP 422). IT must check the messaging settings.`,
    );
    expect(result.failure.actor).toBe('it');
  });

  it('auth header configured but its secret missing: not configured, nothing sent', async () => {
    const server = await gateway();
    const r = rig(server.origin, { authHeaderName: 'Authorization', secrets: {} });
    const result = await r.messenger.send(
      { paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({ status: 'failed', failure: { code: 'not_configured', retryable: false } });
    expect(server.requests).toEqual([]);
  });
});
