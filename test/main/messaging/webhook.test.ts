// The generic HTTPS webhook for a call center's own gateway (issue 6 "Build" 2, "Show" 2): a local node:http server
// checks method, path, auth header and the JSON body exactly as main/messaging/transports/webhook.ts documents them.
import { afterEach, describe, expect, it } from 'vitest';
import { LINK, LINK_TOKEN, context, makeRig, startHttp, type HttpHarness, type Reply, type Rig } from './support';

const SECRET = 'Bearer gw-7c1d2e3f4a5b6c7d';
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function gateway(replies?: Reply[]): Promise<HttpHarness> {
  const server = await startHttp(replies ?? [{ status: 202, body: { id: 'gw-123' } }]);
  open.push(server);
  return server;
}

function rig(url: string, options: { authHeaderName?: string; secrets?: Record<string, string> } = {}): Rig {
  const r = makeRig({
    environment: 'production',
    config: {
      providers: { email: 'webhook', sms: 'webhook', whatsapp: 'webhook' },
      webhook: { url, ...(options.authHeaderName === undefined ? {} : { authHeaderName: options.authHeaderName }) },
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
    const result = await r.messenger.send({ paymentId: context().payment.id, channel: 'sms', destination: '+52 (55) 1234-5678', language: 'en-US' }, context());

    expect(result).toMatchObject({ status: 'sent', provider: 'webhook', attempts: 1, to: '+52 ******5678' });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    if (!request) throw new Error('no request');
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/3ds-link?tenant=casa-azul');
    expect(request.headers.authorization).toBe(SECRET);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['idempotency-key']).toBe(result.messageId);
    expect(JSON.parse(request.body)).toEqual({
      version: 1,
      messageId: result.messageId,
      paymentId: context().payment.id,
      channel: 'sms',
      to: '+525512345678',
      language: 'en-US',
      text: `Hotel Casa Azul: to complete your payment of $1,234.50 MXN with your Visa card ending in 3220, confirm it with your bank at this link: ${LINK}`,
      link: LINK,
      variables: { '1': 'Hotel Casa Azul', '2': '$1,234.50 MXN', '3': LINK },
    });
    expect(r.logs.join('\n')).not.toContain(LINK_TOKEN);
    expect(r.auditBytes()).not.toContain(LINK_TOKEN);
    expect(r.logs.join('\n')).not.toContain(SECRET);
  });

  it('e-mail: subject, text and HTML in the body; a custom auth header name', async () => {
    const server = await gateway();
    const r = rig(server.origin, { authHeaderName: 'X-Gateway-Key' });
    const result = await r.messenger.send({ paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' }, context());
    expect(result.status).toBe('sent');
    const request = server.requests[0];
    expect(request?.headers['x-gateway-key']).toBe(SECRET);
    expect(request?.headers.authorization).toBeUndefined();
    const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['channel', 'html', 'language', 'link', 'messageId', 'paymentId', 'subject', 'text', 'to', 'variables', 'version']);
    expect(body.subject).toBe('Hotel Casa Azul: confirme su pago con su banco');
    expect(body.to).toBe('guest@example.com');
    expect(body.text).toContain(LINK);
    expect(body.html).toContain(LINK.replaceAll('&', '&amp;'));
  });

  it('without an auth header name, no credential is read or sent', async () => {
    const server = await gateway();
    const r = rig(server.origin);
    await r.messenger.send({ paymentId: context().payment.id, channel: 'whatsapp', destination: '+525512345678', language: 'es-MX' }, context());
    expect(r.secretReads).toEqual([]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('every retry carries the same Idempotency-Key and body', async () => {
    const server = await gateway([{ status: 502 }, { status: 504 }, { status: 200 }]);
    const r = rig(server.origin, { authHeaderName: 'Authorization' });
    const result = await r.messenger.send({ paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' }, context());
    expect(result).toMatchObject({ status: 'sent', attempts: 3 });
    expect(server.requests.map((request) => request.headers['idempotency-key'])).toEqual([result.messageId, result.messageId, result.messageId]);
    expect(new Set(server.requests.map((request) => request.body)).size).toBe(1);
    expect(r.sleeps).toEqual([375, 750]);
  });
});

describe('webhook failures', () => {
  it.each([401, 403])('%s: bad credentials, tried once, the secret nowhere in the result', async (status) => {
    const server = await gateway([{ status, body: { error: 'nope' } }]);
    const r = rig(server.origin, { authHeaderName: 'Authorization' });
    const result = await r.messenger.send({ paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' }, context());
    expect(result).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'bad_credentials', retryable: false } });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(r.auditBytes()).not.toContain(SECRET);
    expect(server.requests).toHaveLength(1);
  });

  it('422: refused, not retried', async () => {
    const server = await gateway([{ status: 422 }]);
    const r = rig(server.origin);
    const result = await r.messenger.send({ paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' }, context());
    expect(result).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'provider_rejected', retryable: false } });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(`the messaging gateway (${new URL(server.origin).host}) refused the message (HTTP 422).`);
  });

  it('auth header configured but its secret missing: not configured, nothing sent', async () => {
    const server = await gateway();
    const r = rig(server.origin, { authHeaderName: 'Authorization', secrets: {} });
    const result = await r.messenger.send({ paymentId: context().payment.id, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' }, context());
    expect(result).toMatchObject({ status: 'failed', failure: { code: 'not_configured', retryable: false } });
    expect(server.requests).toEqual([]);
  });
});
