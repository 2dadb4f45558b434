// SMS and WhatsApp through Twilio's Messages API. Twilio is third-party
// SaaS, so a Twilio-shaped server on loopback stands in for it (twilio-server.ts): it checks every request against the
// CreateMessage / FetchMessage / ListMessage shapes of Twilio's OpenAPI description and answers as Twilio does.
import { afterEach, describe, expect, it } from 'vitest';
import { LINK, LINK_TOKEN, closedPort, context, makeRig, startHttp, type Rig } from './support';
import { ACCOUNT_SID, AUTH_TOKEN, startTwilio, type Script, type TwilioServer } from './twilio-server';
import { smsSegments } from '../../../main/messaging';
import { twilioTransport } from '../../../main/messaging/transports/twilio';

const SMS_FROM = '+15017122661';
const WA_FROM = '+14155238886';
const TEMPLATES = { 'es-MX': `HX${'11'.repeat(16)}`, 'en-US': `HX${'22'.repeat(16)}` };
const GUEST = '+525512345678';
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function twilio(scripts: Record<string, Script> = {}): Promise<TwilioServer> {
  const server = await startTwilio();
  for (const [to, script] of Object.entries(scripts)) server.script(to, script);
  open.push(server);
  return server;
}

function rig(
  server: { origin: string },
  twilioExtra: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Rig {
  const r = makeRig({
    environment: 'production',
    config: {
      providers: { sms: 'twilio', whatsapp: 'twilio' },
      twilio: {
        accountSid: ACCOUNT_SID,
        baseUrl: server.origin,
        smsFrom: SMS_FROM,
        whatsappFrom: WA_FROM,
        whatsappContentSids: TEMPLATES,
        ...twilioExtra,
      },
      requestTimeoutMs: 1000,
      ...extra,
    },
    secrets: { twilioAuthToken: AUTH_TOKEN },
  });
  open.push(r);
  return r;
}

const request = (
  channel: 'sms' | 'whatsapp',
  destination = '+52 55 1234 5678',
  language: 'es-MX' | 'en-US' = 'es-MX',
) => ({ paymentId: context().payment.id, channel, destination, language });
const send = (r: Rig, channel: 'sms' | 'whatsapp', destination?: string, language?: 'es-MX' | 'en-US') =>
  r.messenger.send(request(channel, destination, language), context());
const statuses = (r: Rig): string[] => r.deliveries.map((d) => `${d.status}${d.final ? '!' : ''}`);

describe('the requests, exactly as Twilio publishes them', () => {
  it('SMS: CreateMessage with To, From, Body (GSM-7, 2 segments), SmartEncoded and ValidityPeriod; Basic SID:token', async () => {
    const server = await twilio();
    const r = rig(server);
    const result = await send(r, 'sms');

    expect(result).toMatchObject({
      status: 'queued',
      final: false,
      channel: 'sms',
      provider: 'twilio',
      attempts: 1,
      to: '+52 ******5678',
    });
    const create = server.requests[0];
    expect(create).toMatchObject({
      kind: 'create',
      method: 'POST',
      path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`,
      authorized: true,
    });
    expect(create?.form).toEqual({
      To: GUEST,
      From: SMS_FROM,
      Body: `Hotel Casa Azul: para completar su pago de $1,234.50 MXN con su tarjeta Visa que termina en 3220, confirme el cargo con su banco en este enlace: ${LINK}`,
      SmartEncoded: 'true',
      // The link lives 15 minutes from now (no waitingSince given): 900 s.
      ValidityPeriod: '900',
    });
    // As Twilio counts it: GSM-7, 2 segments (the old words with the accents GSM-7 lacks: UCS-2, 4).
    expect(server.messages[0]).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    expect(
      smsSegments(
        `Hotel Casa Azul: para completar su pago de $1,234.50 MXN con su tarjeta Visa terminación 3220, confírmelo con su banco en este enlace: ${LINK}`,
      ).segments,
    ).toBe(4);
    await r.settled();
    expect(server.violations).toEqual([]);
    // The link went whole to the provider, and is nowhere in what the app keeps.
    expect(r.logs.join('\n')).not.toContain(LINK_TOKEN);
    expect(r.auditBytes()).not.toContain(LINK_TOKEN);
  });

  it('SMS in English; through a Messaging Service: MessagingServiceSid instead of From', async () => {
    const server = await twilio();
    const service = `MG${'fe'.repeat(16)}`;
    const r = rig(server, { smsFrom: undefined, messagingServiceSid: service });
    await send(r, 'sms', '+1 415 555 2671', 'en-US');
    await r.settled();
    expect(server.requests[0]?.form).toEqual({
      To: '+14155552671',
      MessagingServiceSid: service,
      Body: `Hotel Casa Azul: to complete your payment of $1,234.50 MXN with your Visa card ending in 3220, confirm it with your bank at this link: ${LINK}`,
      SmartEncoded: 'true',
      ValidityPeriod: '900',
    });
    expect(server.violations).toEqual([]);
  });

  it.each(['es-MX', 'en-US'] as const)(
    'WhatsApp (%s): the approved template of the language, ContentSid + ContentVariables, never a Body',
    async (language) => {
      const server = await twilio();
      const r = rig(server);
      const result = await send(r, 'whatsapp', '+34 612 345 678', language);
      expect(result).toMatchObject({ status: 'queued', channel: 'whatsapp', provider: 'twilio' });
      const form = server.requests[0]?.form ?? {};
      expect(form).toEqual({
        To: 'whatsapp:+34612345678',
        From: `whatsapp:${WA_FROM}`,
        ContentSid: TEMPLATES[language],
        ContentVariables: JSON.stringify({ '1': 'Hotel Casa Azul', '2': '$1,234.50 MXN', '3': LINK }),
        ValidityPeriod: '900',
      });
      expect(form).not.toHaveProperty('Body');
      await r.settled();
      // A template is delivered (a free-form body would have failed with 63016, as the server does like Twilio).
      expect(statuses(r)).toEqual(['queued', 'sent', 'delivered!']);
      expect(server.violations).toEqual([]);
    },
  );

  it('ValidityPeriod is the link’s remaining lifetime, never less than 60 s; the service’s expiry wins', async () => {
    const server = await twilio();
    const r = rig(server);
    const now = r.clock();
    const waiting = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    await r.messenger.send(request('sms'), context({ waitingSince: waiting(5) }));
    // The same payment again at once: the agent confirms each re-send.
    await r.messenger.send(
      { ...request('sms', '+52 55 1234 0001'), confirmResend: true },
      context({ waitingSince: waiting(14.5) }),
    );
    await r.messenger.send(
      { ...request('sms', '+52 55 1234 0002'), confirmResend: true },
      context({ waitingSince: waiting(1), linkExpiresAt: new Date(r.clock() + 120_000).toISOString() }),
    );
    // A service clock ahead of the desk's cannot stretch it past a whole lifetime from now.
    await r.messenger.send(
      { ...request('sms', '+52 55 1234 0003'), confirmResend: true },
      context({ waitingSince: new Date(r.clock() + 10 * 60_000).toISOString() }),
    );
    expect(server.requests.filter((q) => q.kind === 'create').map((q) => q.form.ValidityPeriod)).toEqual([
      '600',
      '60',
      '120',
      '900',
    ]);
  });
});

describe('never a free-form WhatsApp body', () => {
  it('the transport itself refuses WhatsApp without the language’s template, before anything leaves (the settings’ guard bypassed)', async () => {
    const calls: string[] = [];
    const transport = twilioTransport(
      // As if the settings had let it through: a sender, no template for en-US.
      {
        accountSid: ACCOUNT_SID,
        baseUrl: 'https://api.twilio.com',
        whatsappFrom: WA_FROM,
        whatsappContentSids: { 'es-MX': TEMPLATES['es-MX'] } as never,
      },
      {
        secrets: { read: () => Promise.resolve(AUTH_TOKEN) },
        timeoutMs: 1000,
        now: Date.now,
        fetch: (input) => {
          calls.push(input instanceof Request ? input.url : input instanceof URL ? input.href : input);
          return Promise.reject(new Error('nothing may be sent'));
        },
      },
    );
    const message = {
      id: `msg_${'0'.repeat(32)}`,
      paymentId: context().payment.id,
      channel: 'whatsapp' as const,
      to: GUEST,
      language: 'en-US' as const,
      hotelName: 'Hotel Casa Azul',
      rendered: { text: `Hotel Casa Azul: … ${LINK}` },
      link: LINK,
      variables: { '1': 'Hotel Casa Azul', '2': '$1,234.50 MXN', '3': LINK },
      validitySeconds: 900,
    };
    await expect(transport.send(message)).rejects.toMatchObject({
      name: 'DeliveryError',
      code: 'not_configured',
      retryable: false,
    });
    expect(calls).toEqual([]);
  });
});

describe('the validity never outlives the link', () => {
  it('an expiry from the service further off than a whole lifetime (its clock ahead, or a mistake) is held to 15 minutes', async () => {
    const server = await twilio();
    const r = rig(server);
    await r.messenger.send(
      request('sms'),
      context({ linkExpiresAt: new Date(r.clock() + 2 * 3_600_000).toISOString() }),
    );
    expect(server.requests.filter((q) => q.kind === 'create').map((q) => q.form.ValidityPeriod)).toEqual(['900']);
    // Followed no longer than that either.
    await r.settled();
    expect(r.polls.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(900_000);
  });
});

describe('training', () => {
  it('captures in the outbox; only with trainingOutbox: false (the end-to-end tests) does a training link go to Twilio', async () => {
    const server = await twilio();
    const config = {
      providers: { sms: 'twilio' },
      twilio: { accountSid: ACCOUNT_SID, baseUrl: server.origin, smsFrom: SMS_FROM },
    };
    const training = makeRig({ environment: 'training', config, secrets: { twilioAuthToken: AUTH_TOKEN } });
    open.push(training);
    const local = context({ nextActionUrl: 'http://127.0.0.1:9/challenge/tok_training' });
    expect(await training.messenger.send(request('sms'), local)).toMatchObject({
      status: 'sent',
      training: true,
      provider: 'training_outbox',
      final: true,
    });
    expect(server.requests).toEqual([]);

    const through = makeRig({
      environment: 'training',
      trainingOutbox: false,
      config,
      secrets: { twilioAuthToken: AUTH_TOKEN },
    });
    open.push(through);
    expect(await through.messenger.send(request('sms'), local)).toMatchObject({
      status: 'queued',
      training: false,
      provider: 'twilio',
      final: false,
    });
    await through.settled();
    expect(server.messages).toHaveLength(1);
    expect(server.violations).toEqual([]);
  });
});

describe('delivery is followed after Twilio accepts the message', () => {
  it('queued, then delivered: FetchMessage on a short backoff until final, each status published and audited', async () => {
    const server = await twilio();
    const r = rig(server);
    const result = await send(r, 'sms');
    await r.settled();
    expect(statuses(r)).toEqual(['queued', 'sent', 'delivered!']);
    expect(server.sequence()).toEqual(['create', 'fetch', 'fetch']);
    const sid = server.messages[0]?.sid ?? '';
    expect(server.requests[1]).toMatchObject({
      method: 'GET',
      path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${sid}.json`,
      query: {},
    });
    expect(r.polls).toEqual([1000, 2000]);
    const [row] = await r.messenger.history(context().payment.id);
    expect(row).toMatchObject({ messageId: result.messageId, status: 'delivered' });
    expect(row?.events.map((event) => event.status)).toEqual(['sending', 'queued', 'sent', 'delivered']);
    expect(server.violations).toEqual([]);
  });

  it('queued, then failed 63016: WhatsApp refused it, for IT, with Twilio’s more_info kept in the audit', async () => {
    const server = await twilio({
      '+34612345678': { kind: 'fail', errorCode: 63016, status: 'failed', viaSent: false },
    });
    const r = rig(server);
    const result = await send(r, 'whatsapp', '+34 612 345 678');
    expect(result.status).toBe('queued');
    await r.settled();
    expect(statuses(r)).toEqual(['queued', 'failed!']);
    expect(r.deliveries.at(-1)).toMatchObject({
      failure: { code: 'template_rejected', actor: 'it', providerCode: 63016, retryable: false },
    });
    const [row] = await r.messenger.history(context().payment.id);
    expect(row).toMatchObject({
      status: 'failed',
      failureCode: 'template_rejected',
      failureActor: 'it',
      providerCode: 63016,
      moreInfo: 'https://www.twilio.com/docs/errors/63016',
    });
    expect(row?.events.at(-1)).toMatchObject({
      status: 'failed',
      providerStatus: 'failed',
      providerCode: 63016,
      moreInfo: 'https://www.twilio.com/docs/errors/63016',
    });
    expect(server.violations).toEqual([]);
  });

  it('queued, sent, then undelivered 30003: the guest’s phone was unreachable, for the guest', async () => {
    const server = await twilio({ [GUEST]: { kind: 'fail', errorCode: 30003 } });
    const r = rig(server);
    await send(r, 'sms');
    await r.settled();
    expect(statuses(r)).toEqual(['queued', 'sent', 'failed!']);
    expect(r.deliveries.at(-1)).toMatchObject({
      failure: { code: 'unreachable', actor: 'guest', providerCode: 30003 },
    });
    expect((await r.messenger.history(context().payment.id))[0]?.events.at(-1)).toMatchObject({
      providerStatus: 'undelivered',
      providerCode: 30003,
    });
  });

  it('no handset report: followed only while the link lives, then "sent" is final', async () => {
    const server = await twilio({ [GUEST]: { kind: 'deliver', receipt: false } });
    const r = rig(server);
    await r.messenger.send(request('sms'), context({ waitingSince: new Date(r.clock() - 14 * 60_000).toISOString() }));
    await r.settled();
    expect(statuses(r)).toEqual(['queued', 'sent', 'sent!']);
    // Bounded by the link's last minute: the waits add up to 60 s.
    expect(r.polls.reduce((a, b) => a + b, 0)).toBe(60_000);
    expect(server.sequence().filter((kind) => kind === 'fetch').length).toBe(r.polls.length);
  });

  it('closing the app during a wait between tries: nothing more is sent or asked', async () => {
    const server = await twilio({
      [GUEST]: { kind: 'rateLimit', times: 1, retryAfterSeconds: 2 },
      '+525512340001': { kind: 'error500', times: 1, creates: false },
    });
    let release: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => {
      release = resolve;
    });
    const r = makeRig({
      environment: 'production',
      config: {
        providers: { sms: 'twilio' },
        twilio: { accountSid: ACCOUNT_SID, baseUrl: server.origin, smsFrom: SMS_FROM },
      },
      secrets: { twilioAuthToken: AUTH_TOKEN },
      // The wait before the next try lasts until the app has closed.
      sleep: () => waiting,
    });
    const first = r.messenger.send(request('sms'), context());
    const second = r.messenger.send(
      { ...request('sms', '+52 55 1234 0001'), paymentId: `pay_${'cd34'.repeat(8)}` },
      { ...context(), payment: { ...context().payment, id: `pay_${'cd34'.repeat(8)}` } },
    );
    // The 429's wait, and the 500's wait after its look-up found nothing.
    await expect.poll(() => [...server.sequence()].sort()).toEqual(['create', 'create', 'list']);
    await r.close();
    release();
    await Promise.allSettled([first, second]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...server.sequence()].sort()).toEqual(['create', 'create', 'list']);
    expect(server.messages).toHaveLength(0);
  });

  it('closing the app stops following', async () => {
    const server = await twilio();
    const r = makeRig({
      environment: 'production',
      config: {
        providers: { sms: 'twilio' },
        twilio: { accountSid: ACCOUNT_SID, baseUrl: server.origin, smsFrom: SMS_FROM },
      },
      secrets: { twilioAuthToken: AUTH_TOKEN },
      // The real timers: the first read would come a second later.
      followSleep: undefined,
    });
    const result = await r.messenger.send(request('sms'), context());
    expect(result).toMatchObject({ status: 'queued', final: false });
    await r.close();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(server.sequence()).toEqual(['create']);
  });
});

describe('never a duplicate text', () => {
  it('429 with Retry-After: nothing was created, so it waits as asked and sends once more', async () => {
    const server = await twilio({ [GUEST]: { kind: 'rateLimit', times: 1, retryAfterSeconds: 2 } });
    const r = rig(server);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'queued', attempts: 2 });
    expect(r.sleeps).toEqual([2000]);
    expect(server.sequence()).toEqual(['create', 'create']);
    expect(server.messages).toHaveLength(1);
  });

  it('429 asking for longer than the desk waits: "rate limited", for the desk, nothing sent', async () => {
    const server = await twilio({ [GUEST]: { kind: 'rateLimit', times: 5, retryAfterSeconds: 120 } });
    const r = rig(server);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 1,
      failure: { code: 'rate_limited', actor: 'desk', retryable: true, providerCode: 20429 },
    });
    expect(r.sleeps).toEqual([]);
    expect(server.messages).toHaveLength(0);
  });

  it.each(['hang', 'reset'] as const)(
    'the message accepted, the answer lost (%s): found by a look-up, exactly one message, followed',
    async (how) => {
      const server = await twilio({ [GUEST]: { kind: 'lostAnswer', created: true, how } });
      const r = rig(server, {}, { requestTimeoutMs: 300 });
      const result = await send(r, 'sms');
      expect(result).toMatchObject({ status: 'queued', attempts: 1, final: false });
      await r.settled();
      expect(server.messages).toHaveLength(1);
      expect(server.sequence()).toEqual(['create', 'list', 'fetch', 'fetch']);
      const list = server.requests[1];
      expect(list).toMatchObject({ method: 'GET', path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json` });
      // By number only: a DateSent filter would leave out the message still in Twilio's queue (no date_sent yet).
      expect(list?.query).toEqual({ To: GUEST, PageSize: '50' });
      expect(statuses(r)).toEqual(['queued', 'sent', 'delivered!']);
      expect((await r.messenger.history(context().payment.id))[0]?.status).toBe('delivered');
      expect(server.violations).toEqual([]);
    },
  );

  it('the answer lost and the message not found twice: "may have been sent", never sent again', async () => {
    const server = await twilio({ [GUEST]: { kind: 'lostAnswer', created: false, how: 'hang' } });
    const r = rig(server, {}, { requestTimeoutMs: 300 });
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'unknown', final: true, failure: { code: 'unconfirmed', actor: 'desk' } });
    if (result.status !== 'unknown') throw new Error('expected unknown');
    expect(result.failure.message).toMatch(/did not answer in time\. .*it may have been sent\.$/);
    // Looked twice (a request that timed out may still be arriving), a short wait between.
    expect(server.sequence()).toEqual(['create', 'list', 'list']);
    expect(r.sleeps).toEqual([2000]);
    expect(server.messages).toHaveLength(0);
    expect((await r.messenger.history(context().payment.id))[0]).toMatchObject({
      status: 'unknown',
      failureCode: 'unconfirmed',
    });
  });

  it('the stand-in filters DateSent as Twilio publishes it: on date_sent, which a message still in the queue lacks', async () => {
    const server = await twilio({ [GUEST]: { kind: 'error500', times: 1, creates: true } });
    const auth = { Authorization: `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}` };
    const messages = `${server.origin}/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`;
    await fetch(messages, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ To: GUEST, From: SMS_FROM, Body: 'x' }).toString(),
    });
    const list = async (query: Record<string, string>) =>
      (
        (await (await fetch(`${messages}?${new URLSearchParams(query).toString()}`, { headers: auth })).json()) as {
          messages: { date_sent: string | null }[];
        }
      ).messages;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    expect((await list({ To: GUEST })).map((m) => m.date_sent)).toEqual([null]);
    expect(await list({ To: GUEST, 'DateSent>': yesterday })).toEqual([]);
    expect(server.violations).toEqual([]);
  });

  it('a 500 with nothing created: a look-up first, then one more POST — exactly one message', async () => {
    const server = await twilio({ [GUEST]: { kind: 'error500', times: 1, creates: false } });
    const r = rig(server);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'queued', attempts: 2 });
    expect(server.sequence().slice(0, 3)).toEqual(['create', 'list', 'create']);
    expect(server.messages).toHaveLength(1);
  });

  it('a 500 although the message was created (still in Twilio’s queue, no date_sent yet): found by the look-up, no second POST', async () => {
    const server = await twilio({ [GUEST]: { kind: 'error500', times: 1, creates: true } });
    const r = rig(server);
    const result = await send(r, 'sms');
    // As Twilio has it: queued, so not sent yet — a look-up filtered by DateSent would not list it.
    expect(server.messages[0]?.steps[server.messages[0].step]?.status).toBe('queued');
    expect(server.messages[0]?.sentAt).toBeNull();
    expect(result).toMatchObject({ status: 'queued', attempts: 1 });
    await r.settled();
    expect(server.sequence().filter((kind) => kind === 'create')).toHaveLength(1);
    expect(server.messages).toHaveLength(1);
    expect(statuses(r).at(-1)).toBe('delivered!');
  });

  it.each([502, 504] as const)(
    'a %i from a gateway before Twilio (it may have passed the request on): looked for twice, then "may have been sent", never a second POST',
    async (status) => {
      const server = await twilio({ [GUEST]: { kind: 'gateway', status, times: 1, creates: false } });
      const r = rig(server);
      const result = await send(r, 'sms');
      expect(result).toMatchObject({
        status: 'unknown',
        attempts: 1,
        final: true,
        failure: { code: 'unconfirmed', actor: 'desk' },
      });
      expect(server.sequence()).toEqual(['create', 'list', 'list']);
      expect(r.sleeps).toEqual([2000]);
    },
  );

  it('a 504 although Twilio created the message behind the gateway: found, followed, exactly one message', async () => {
    const server = await twilio({ [GUEST]: { kind: 'gateway', status: 504, times: 1, creates: true } });
    const r = rig(server);
    expect(await send(r, 'sms')).toMatchObject({ status: 'queued', attempts: 1 });
    await r.settled();
    expect(server.messages).toHaveLength(1);
    expect(server.violations).toEqual([]);
  });

  it('500s every time: every POST after the first follows a look-up, then "provider unavailable"', async () => {
    const server = await twilio({ [GUEST]: { kind: 'error500', times: 9, creates: false } });
    const r = rig(server);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 3,
      failure: { code: 'provider_unavailable', actor: 'desk', providerCode: 20500 },
    });
    expect(server.sequence()).toEqual(['create', 'list', 'create', 'list', 'create', 'list']);
    expect(server.messages).toHaveLength(0);
  });

  it('a status word Twilio adds later (not in today’s enum) neither hides the message from a look-up nor stops it being followed', async () => {
    // A stand-in answering outside today's published enum (Twilio has added statuses before: canceled, read…).
    const sid = `SM${'ab'.repeat(16)}`;
    const message = (status: string) => ({
      sid,
      status,
      to: GUEST,
      body: `Hotel Casa Azul: … ${LINK}`,
      direction: 'outbound-api',
      date_created: new Date().toUTCString(),
      error_code: null,
    });
    const http = await startHttp(
      [{ status: 500, body: { code: 20500, status: 500 } }],
      [
        { status: 200, body: { messages: [message('pending_carrier')] } },
        { status: 200, body: message('pending_carrier') },
        { status: 200, body: message('delivered') },
      ],
    );
    open.push(http);
    const r = rig(http);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({ status: 'queued', attempts: 1 });
    await r.settled();
    expect(http.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    expect(statuses(r)).toEqual(['queued', 'delivered!']);
  });

  it('a look-up does not take an earlier message of the same payment for the lost one', async () => {
    const server = await twilio();
    const r = rig(server, {}, { requestTimeoutMs: 300 });
    await send(r, 'sms');
    await r.settled();
    // The first one carries the same link, to the same number, moments ago: only its SID tells it apart.
    server.script(GUEST, { kind: 'lostAnswer', created: false, how: 'reset' });
    const again = await send(r, 'sms');
    expect(again.status).toBe('unknown');
    expect(server.sequence().slice(-3)).toEqual(['create', 'list', 'list']);
    expect(server.messages).toHaveLength(1);
  });

  it('connection refused: certainly not sent, so tried again with growing waits', async () => {
    const port = await closedPort();
    const r = rig({ origin: `http://127.0.0.1:${port}` });
    const result = await send(r, 'sms');
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 3,
      failure: { code: 'connection_refused', retryable: true, actor: 'desk' },
    });
    expect(r.sleeps).toEqual([375, 750]);
  });
});

describe('errors told to who can act on them', () => {
  it.each([
    [21610, 'opted_out', 'guest'],
    [21211, 'invalid_destination', 'guest'],
    [21408, 'country_not_permitted', 'it'],
    [21606, 'sender_not_set_up', 'it'],
    [21659, 'sender_not_set_up', 'it'],
    [21212, 'sender_not_set_up', 'it'],
    [63007, 'sender_not_set_up', 'it'],
    [21608, 'account_restricted', 'it'],
    [21999, 'provider_rejected', 'it'],
  ] as const)('error %i at creation: %s, for %s; not retried; more_info kept', async (errorCode, code, actor) => {
    const server = await twilio({ [GUEST]: { kind: 'refuse', errorCode } });
    const r = rig(server);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({
      status: 'failed',
      final: true,
      attempts: 1,
      failure: { code, actor, providerCode: errorCode, retryable: false },
    });
    expect(server.sequence()).toEqual(['create']);
    expect((await r.messenger.history(context().payment.id))[0]).toMatchObject({
      failureCode: code,
      failureActor: actor,
      providerCode: errorCode,
      moreInfo: `https://www.twilio.com/docs/errors/${errorCode}`,
    });
    // Twilio's own text (it can repeat the guest's number) is not kept.
    expect(r.auditBytes()).not.toContain('Refused (error');
  });

  it('21610 says the guest opted out; 21408 says the account may not send to that country (not "check the number")', async () => {
    const server = await twilio({
      [GUEST]: { kind: 'refuse', errorCode: 21610 },
      '+447911123456': { kind: 'refuse', errorCode: 21408 },
    });
    const r = rig(server);
    const stop = await send(r, 'sms');
    const country = await send(r, 'sms', '+44 7911 123456');
    if (stop.status !== 'failed' || country.status !== 'failed') throw new Error('expected failures');
    expect(stop.failure.message).toMatch(
      /opted out of messages from this sender \(they replied STOP\) \(Twilio error 21610\)/,
    );
    expect(country.failure.message).toMatch(/may not send to the guest's country \(Messaging Geo Permissions/);
  });

  it('401 (error 20003): bad credentials for IT, tried once, the token nowhere in the result or logs', async () => {
    const server = await twilio();
    const r = makeRig({
      environment: 'production',
      config: {
        providers: { sms: 'twilio' },
        twilio: { accountSid: ACCOUNT_SID, baseUrl: server.origin, smsFrom: SMS_FROM },
      },
      secrets: { twilioAuthToken: 'a-wrong-token-1234' },
    });
    open.push(r);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 1,
      failure: { code: 'bad_credentials', actor: 'it', providerCode: 20003, retryable: false },
    });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(
      `Twilio (${new URL(server.origin).host}) refused this desk's credentials (HTTP 401, Twilio error 20003). IT must check the account and the stored secret.`,
    );
    for (const text of [JSON.stringify(result), r.logs.join('\n'), r.auditBytes()]) {
      expect(text).not.toContain('a-wrong-token-1234');
      expect(text).not.toContain(Buffer.from(`${ACCOUNT_SID}:a-wrong-token-1234`).toString('base64'));
    }
  });

  it('no auth token provisioned: not configured, nothing sent', async () => {
    const server = await twilio();
    const r = makeRig({
      environment: 'sandbox',
      config: {
        providers: { sms: 'twilio' },
        twilio: { accountSid: ACCOUNT_SID, baseUrl: server.origin, smsFrom: SMS_FROM },
      },
    });
    open.push(r);
    const result = await send(r, 'sms');
    expect(result).toMatchObject({
      status: 'failed',
      failure: { code: 'not_configured', actor: 'it', retryable: false },
    });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(
      'The Twilio auth token is not stored on this desk; IT must provision it (twilioAuthToken).',
    );
    expect(server.requests).toEqual([]);
  });
});

describe('a manual re-send within a minute of an unanswered link asks the agent first', () => {
  /** The message stays where it is: its follow never moves on. */
  function stalledRig(server: TwilioServer): Rig {
    const r = makeRig({
      environment: 'production',
      config: {
        providers: { sms: 'twilio' },
        twilio: { accountSid: ACCOUNT_SID, baseUrl: server.origin, smsFrom: SMS_FROM },
        requestTimeoutMs: 300,
      },
      secrets: { twilioAuthToken: AUTH_TOKEN },
      followSleep: () => new Promise<void>(() => undefined),
    });
    open.push(r);
    return r;
  }

  it('queued and not delivered yet: confirm_resend, nothing sent; confirmed, it is sent', async () => {
    const server = await twilio();
    const r = stalledRig(server);
    const first = await r.messenger.sendOutcome(request('sms'), context());
    expect(first.status).toBe('queued');
    const asked = await r.messenger.sendOutcome(request('sms'), context());
    expect(asked).toEqual({ status: 'confirm_resend', previous: first, sentAt: new Date(r.clock()).toISOString() });
    // Another channel or number for the same payment is asked about too (the guest would get two links).
    expect((await r.messenger.sendOutcome(request('sms', '+52 55 9999 0000'), context())).status).toBe(
      'confirm_resend',
    );
    expect(server.messages).toHaveLength(1);
    expect(await r.messenger.history(context().payment.id)).toHaveLength(1);
    // A refusal sends nothing, so it does not hide the unanswered message.
    expect((await r.messenger.sendOutcome(request('sms', '55 1234'), context())).status).toBe('failed');
    expect((await r.messenger.sendOutcome(request('sms'), context())).status).toBe('confirm_resend');
    const confirmed = await r.messenger.sendOutcome({ ...request('sms'), confirmResend: true }, context());
    expect(confirmed.status).toBe('queued');
    expect(server.messages).toHaveLength(2);
  });

  it('a minute later, or once the first is delivered or failed, it is sent without asking', async () => {
    const server = await twilio();
    const r = stalledRig(server);
    await r.messenger.sendOutcome(request('sms'), context());
    r.advance(60_000);
    expect((await r.messenger.sendOutcome(request('sms'), context())).status).toBe('queued');

    const other = await twilio({ [GUEST]: { kind: 'refuse', errorCode: 21610 } });
    const r2 = rig(other);
    expect((await r2.messenger.sendOutcome(request('sms'), context())).status).toBe('failed');
    expect((await r2.messenger.sendOutcome(request('sms'), context())).status).toBe('failed');
  });

  it('after a "may have been sent", a re-send asks too', async () => {
    const server = await twilio({ [GUEST]: { kind: 'lostAnswer', created: false, how: 'reset' } });
    const r = stalledRig(server);
    const first = await r.messenger.sendOutcome(request('sms'), context());
    expect(first.status).toBe('unknown');
    expect((await r.messenger.sendOutcome(request('sms'), context())).status).toBe('confirm_resend');
    expect((await r.messenger.sendOutcome({ ...request('sms'), confirmResend: true }, context())).status).toBe(
      'queued',
    );
    expect(server.messages).toHaveLength(1);
  });
});
