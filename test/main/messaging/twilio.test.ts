// SMS and WhatsApp through Twilio's Messages API (issue 6 "Build" 2, "Show" 2 and 3). Twilio is third-party SaaS,
// so a local node:http server stands in for it and checks each request as Twilio documents it:
// POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic (Account SID : Auth Token), form-encoded To/From/Body.
import { afterEach, describe, expect, it } from 'vitest';
import { LINK, LINK_TOKEN, closedPort, context, makeRig, startHttp, type HttpHarness, type Reply, type Rig } from './support';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'twilio-auth-token-9f8e7d6c5b4a';
const SMS_FROM = '+15017122661';
const WA_FROM = '+14155238886';
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function twilio(replies?: Reply[]): Promise<HttpHarness> {
  const server = await startHttp(replies ?? [{ status: 201, body: { sid: `SM${'a1'.repeat(16)}`, status: 'queued' } }]);
  open.push(server);
  return server;
}

function rig(baseUrl: string, twilioExtra: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Rig {
  const r = makeRig({
    environment: 'production',
    config: {
      providers: { sms: 'twilio', whatsapp: 'twilio' },
      twilio: { accountSid: SID, baseUrl, smsFrom: SMS_FROM, whatsappFrom: WA_FROM, ...twilioExtra },
      requestTimeoutMs: 1000,
      ...extra,
    },
    secrets: { twilioAuthToken: TOKEN },
  });
  open.push(r);
  return r;
}

const send = (r: Rig, channel: 'sms' | 'whatsapp', destination = '+52 55 1234 5678', language: 'es-MX' | 'en-US' = 'es-MX') =>
  r.messenger.send({ paymentId: context().payment.id, channel, destination, language }, context());

function form(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

describe('the request, as Twilio documents it', () => {
  it('SMS: POST …/Accounts/{AccountSid}/Messages.json, Basic SID:token, form To, From, Body', async () => {
    const server = await twilio();
    const r = rig(server.origin);
    const result = await send(r, 'sms');

    expect(result).toMatchObject({ status: 'sent', channel: 'sms', provider: 'twilio', attempts: 1, to: '+52 ******5678' });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    if (!request) throw new Error('no request');
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form(request.body)).toEqual({
      To: '+525512345678',
      From: SMS_FROM,
      Body: `Hotel Casa Azul: para completar su pago de $1,234.50 MXN con su tarjeta Visa terminación 3220, confírmelo con su banco en este enlace: ${LINK}`,
    });
    // The link went whole to the provider, and is nowhere in what the app keeps.
    expect(request.body).toContain(encodeURIComponent(LINK));
    expect(r.logs.join('\n')).not.toContain(LINK_TOKEN);
    expect(r.auditBytes()).not.toContain(LINK_TOKEN);
  });

  it('SMS in English', async () => {
    const server = await twilio();
    const r = rig(server.origin);
    await send(r, 'sms', '+1 415 555 2671', 'en-US');
    expect(form(server.requests[0]?.body ?? '')).toEqual({
      To: '+14155552671',
      From: SMS_FROM,
      Body: `Hotel Casa Azul: to complete your payment of $1,234.50 MXN with your Visa card ending in 3220, confirm it with your bank at this link: ${LINK}`,
    });
  });

  it('SMS through a Messaging Service: MessagingServiceSid instead of From', async () => {
    const server = await twilio();
    const service = `MG${'fe'.repeat(16)}`;
    const r = rig(server.origin, { smsFrom: undefined, messagingServiceSid: service });
    await send(r, 'sms');
    const params = form(server.requests[0]?.body ?? '');
    expect(Object.keys(params).sort()).toEqual(['Body', 'MessagingServiceSid', 'To']);
    expect(params.MessagingServiceSid).toBe(service);
  });

  it('WhatsApp: To and From as whatsapp:+E.164, free-form Body', async () => {
    const server = await twilio();
    const r = rig(server.origin);
    const result = await send(r, 'whatsapp', '+34 612 345 678', 'en-US');
    expect(result).toMatchObject({ status: 'sent', channel: 'whatsapp', provider: 'twilio' });
    const request = server.requests[0];
    expect(request?.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(form(request?.body ?? '')).toEqual({
      To: 'whatsapp:+34612345678',
      From: `whatsapp:${WA_FROM}`,
      Body: `Hotel Casa Azul: to complete your payment of $1,234.50 MXN with your Visa card ending in 3220, confirm it with your bank at this link: ${LINK}`,
    });
  });

  it('WhatsApp with approved templates: ContentSid of the language and ContentVariables, no Body', async () => {
    const server = await twilio();
    const es = `HX${'11'.repeat(16)}`;
    const en = `HX${'22'.repeat(16)}`;
    const r = rig(server.origin, { whatsappContentSids: { 'es-MX': es, 'en-US': en } });
    await send(r, 'whatsapp', '+52 55 1234 5678', 'es-MX');
    const params = form(server.requests[0]?.body ?? '');
    expect(params).toEqual({
      To: 'whatsapp:+525512345678',
      From: `whatsapp:${WA_FROM}`,
      ContentSid: es,
      ContentVariables: JSON.stringify({ '1': 'Hotel Casa Azul', '2': '$1,234.50 MXN', '3': LINK }),
    });
    expect(JSON.parse(params.ContentVariables ?? '{}')).toEqual({ '1': 'Hotel Casa Azul', '2': '$1,234.50 MXN', '3': LINK });
  });
});

describe('Twilio failures', () => {
  it('401 (error 20003): bad credentials, tried once, the token nowhere in the result or logs', async () => {
    const server = await twilio([{ status: 401, body: { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 } }]);
    const r = rig(server.origin);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'bad_credentials', retryable: false } });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(
      `Twilio (${new URL(server.origin).host}) refused this desk's credentials (HTTP 401, Twilio error 20003). IT must check the account and the stored secret.`,
    );
    expect(server.requests).toHaveLength(1);
    expect(r.sleeps).toEqual([]);
    for (const text of [JSON.stringify(result), r.logs.join('\n'), r.auditBytes()]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(Buffer.from(`${SID}:${TOKEN}`).toString('base64'));
    }
  });

  it('5xx: tried 3 times with backoff, then "provider unavailable"', async () => {
    const server = await twilio([{ status: 500, body: { code: 20500, message: 'Internal Server Error', status: 500 } }]);
    const r = rig(server.origin);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'failed', attempts: 3, failure: { code: 'provider_unavailable', retryable: true } });
    expect(server.requests).toHaveLength(3);
    expect(r.sleeps).toEqual([375, 750]);
    // Every try is the same message.
    expect(new Set(server.requests.map((request) => request.body)).size).toBe(1);
  });

  it('a 503 then a 201: sent on the second try', async () => {
    const server = await twilio([{ status: 503 }, { status: 201, body: { sid: `SM${'b2'.repeat(16)}`, status: 'queued' } }]);
    const r = rig(server.origin);
    const result = await send(r, 'whatsapp');
    expect(result).toMatchObject({ status: 'sent', attempts: 2 });
    expect(r.sleeps).toEqual([375]);
  });

  it('429 with Retry-After: waits as asked, then sends', async () => {
    const server = await twilio([{ status: 429, headers: { 'Retry-After': '2' }, body: { code: 20429, status: 429 } }, { status: 201, body: {} }]);
    const r = rig(server.origin);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'sent', attempts: 2 });
    expect(r.sleeps).toEqual([2000]);
  });

  it('429 asking for longer than the desk waits: reported as rate limited without waiting', async () => {
    const server = await twilio([{ status: 429, headers: { 'Retry-After': '120' }, body: { code: 20429, status: 429 } }]);
    const r = rig(server.origin);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'rate_limited', retryable: true } });
    expect(r.sleeps).toEqual([]);
  });

  it("400 error 21211 (invalid 'To'): the destination, not retried, Twilio's text (which repeats the number) not kept", async () => {
    const server = await twilio([{ status: 400, body: { code: 21211, message: "The 'To' number +525512345678 is not a valid phone number.", status: 400 } }]);
    const r = rig(server.origin);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'invalid_destination', retryable: false } });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toContain('Twilio error 21211');
    expect(JSON.stringify(result)).not.toContain('525512345678');
    expect(r.auditBytes()).not.toContain('525512345678');
    expect(r.logs.join('\n')).not.toContain('525512345678');
  });

  it('another 4xx: refused, not retried', async () => {
    const server = await twilio([{ status: 400, body: { code: 21606, message: 'The From phone number is not a valid, SMS-capable inbound phone number', status: 400 } }]);
    const r = rig(server.origin);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'provider_rejected', retryable: false } });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(`Twilio (${new URL(server.origin).host}) refused the message (HTTP 400, Twilio error 21606).`);
  });

  it('no answer in time: a timeout, tried again', async () => {
    const server = await twilio([{ status: 0, hang: true }]);
    const r = rig(server.origin, {}, { requestTimeoutMs: 150, retry: { maxAttempts: 2 } });
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'failed', attempts: 2, failure: { code: 'timeout', retryable: true } });
    expect(server.requests).toHaveLength(2);
  });

  it('connection refused: tried again, then reported', async () => {
    const port = await closedPort();
    const r = rig(`http://127.0.0.1:${port}`);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'failed', attempts: 3, failure: { code: 'connection_refused', retryable: true } });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(`Twilio (127.0.0.1:${port}) refused the connection (nothing is listening there).`);
  });

  it('no auth token provisioned: not configured, nothing sent', async () => {
    const server = await twilio();
    const r = makeRig({
      environment: 'sandbox',
      config: { providers: { sms: 'twilio' }, twilio: { accountSid: SID, baseUrl: server.origin, smsFrom: SMS_FROM } },
    });
    open.push(r);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'failed', failure: { code: 'not_configured', retryable: false } });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe('The Twilio auth token is not stored on this desk; IT must provision it (twilioAuthToken).');
    expect(server.requests).toEqual([]);
  });
});
