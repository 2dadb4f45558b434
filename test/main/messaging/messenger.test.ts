// The messenger around the providers: bad destinations refused before anything is sent,
// payments without a link, channels not set up, the masked audit, the link kept out of logs and files, settings checked.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MessagingError, createMessenger, MessagingConfigSchema } from '../../../main/messaging';
import {
  LINK,
  LINK_TOKEN,
  PAYMENT_ID,
  context,
  makeRig,
  startHttp,
  startSmtp,
  type HttpHarness,
  type Rig,
} from './support';
import { ACCOUNT_SID, AUTH_TOKEN, startTwilio, type TwilioServer } from './twilio-server';

const SID = ACCOUNT_SID;
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** Every channel configured against live local servers (Twilio-shaped, a gateway, SMTP), which count what reaches them. */
async function allChannels(environment: 'sandbox' | 'production' | 'training' = 'production'): Promise<{
  r: Rig;
  http: HttpHarness;
  twilio: TwilioServer;
  reached: () => number;
  smtpMails: () => number;
  smtpConnections: () => number;
}> {
  const http = await startHttp([{ status: 201, body: {} }], [{ status: 200, body: { status: 'delivered' } }]);
  const twilio = await startTwilio();
  const smtp = await startSmtp();
  open.push(http, twilio, smtp);
  const r = makeRig({
    environment,
    config: {
      providers: { email: 'smtp', sms: 'twilio', whatsapp: 'webhook' },
      smtp: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'pagos@casa-azul.example' },
      twilio: { accountSid: SID, baseUrl: twilio.origin, smsFrom: '+15017122661' },
      webhook: { url: `${http.origin}/gateway`, statusUrl: `${http.origin}/gateway/{messageId}` },
    },
    secrets: { twilioAuthToken: AUTH_TOKEN },
  });
  open.push(r);
  return {
    r,
    http,
    twilio,
    reached: () => http.requests.length + twilio.requests.length,
    smtpMails: () => smtp.mails.length,
    smtpConnections: () => smtp.connections,
  };
}

describe('invalid destinations are refused before anything is sent', () => {
  it.each([
    ['sms', '5512345678', /country code, starting with \+/],
    ['sms', '+52 55 1234 567', /not a valid phone number/],
    ['sms', '+52 55 1234 5678 ext 9', /only digits/],
    ['sms', '+44 20 7946 0958', /landline or service number/],
    ['whatsapp', '+1 800 555 1234', /landline or service number/],
    ['whatsapp', 'maria@example.com', /only digits/],
    ['whatsapp', '', /Enter the guest’s mobile number/],
    ['email', 'maria@', /not a valid e-mail address/],
    ['email', 'maria example.com', /not a valid e-mail address/],
    ['email', '+52 55 1234 5678', /not a valid e-mail address/],
    ['email', `${'a'.repeat(250)}@example.com`, /at most 254 characters/],
  ] as const)('%s to %j', async (channel, destination, reason) => {
    const { r, reached, smtpConnections } = await allChannels();
    const result = await r.messenger.send(
      { paymentId: PAYMENT_ID, channel, destination, language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      final: true,
      attempts: 0,
      failure: { code: 'invalid_destination', retryable: false, actor: 'guest' },
    });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toMatch(reason);
    expect(result.failure.message).toMatch(/Nothing was sent\.$/);
    expect(reached()).toBe(0);
    expect(smtpConnections()).toBe(0);
    expect(r.secretReads).toEqual([]);
    // …and the refusal is audited, masked.
    const [row] = await r.messenger.history(PAYMENT_ID);
    expect(row).toMatchObject({
      status: 'failed',
      failureCode: 'invalid_destination',
      attempts: 0,
      channel,
      operatorId: 'agent.maria',
    });
    if (destination.length > 6) expect(r.auditBytes()).not.toContain(destination);
  });

  it('in training too: nothing reaches the outbox', async () => {
    const { r } = await allChannels('training');
    const result = await r.messenger.send(
      { paymentId: PAYMENT_ID, channel: 'sms', destination: '55 1234 5678', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({ status: 'failed', training: true, failure: { code: 'invalid_destination' } });
    expect(r.messenger.outbox()).toEqual([]);
  });
});

describe('what cannot be sent', () => {
  it.each([
    ['a payment that is not waiting for authentication', { status: 'processing' }, 'no_link'],
    ['a payment without a link', { nextActionUrl: undefined }, 'no_link'],
    ['a link that is not a URL', { nextActionUrl: 'not a link' }, 'invalid_link'],
    ['an http link outside training', { nextActionUrl: 'http://acs.bank.example/challenge/tok_x' }, 'invalid_link'],
    ['a javascript: link', { nextActionUrl: 'javascript:alert(1)' }, 'invalid_link'],
  ] as const)('%s', async (_name, payment, code) => {
    const { r, reached, smtpConnections } = await allChannels();
    const result = await r.messenger.send(
      { paymentId: PAYMENT_ID, channel: 'email', destination: 'guest@example.com', language: 'en-US' },
      context(payment),
    );
    expect(result).toMatchObject({ status: 'failed', attempts: 0, failure: { code, retryable: false } });
    expect(reached()).toBe(0);
    expect(smtpConnections()).toBe(0);
  });

  it('a channel with no provider: not configured, and channels() says so', async () => {
    const r = makeRig({ environment: 'production', config: { providers: { email: 'none' } } });
    open.push(r);
    expect(r.messenger.channels()).toEqual([
      { channel: 'sms', provider: 'none', available: false },
      { channel: 'whatsapp', provider: 'none', available: false },
      { channel: 'email', provider: 'none', available: false },
    ]);
    const result = await r.messenger.send(
      { paymentId: PAYMENT_ID, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      provider: 'none',
      failure: { code: 'not_configured', message: expect.stringMatching(/e-mail is not set up/) as unknown },
    });
  });

  it('channels() names the provider of each channel', async () => {
    const { r } = await allChannels();
    expect(r.messenger.channels()).toEqual([
      { channel: 'sms', provider: 'twilio', available: true },
      { channel: 'whatsapp', provider: 'webhook', available: true },
      { channel: 'email', provider: 'smtp', available: true },
    ]);
  });

  it('misuse is refused with a MessagingError, not reported as a delivery', async () => {
    const { r } = await allChannels();
    const good = { paymentId: PAYMENT_ID, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' } as const;
    await expect(r.messenger.send({ ...good, paymentId: 'pay_nope' }, context())).rejects.toBeInstanceOf(
      MessagingError,
    );
    const refused = (field: string) => ({ code: 'invalid_request', field });
    await expect(r.messenger.send({ ...good, channel: 'fax' as 'sms' }, context())).rejects.toMatchObject(
      refused('channel'),
    );
    await expect(r.messenger.send({ ...good, language: 'fr-FR' as 'es-MX' }, context())).rejects.toMatchObject(
      refused('language'),
    );
    await expect(r.messenger.send({ ...good, extra: 1 } as typeof good, context())).rejects.toMatchObject(
      refused('extra'),
    );
    await expect(r.messenger.send(good, { ...context(), operatorId: ' ' })).rejects.toMatchObject(
      refused('operatorId'),
    );
    await expect(r.messenger.send(good, context({}, '   '))).rejects.toMatchObject(refused('hotelName'));
    await expect(r.messenger.send(good, context({ id: `pay_${'cd'.repeat(16)}` }))).rejects.toMatchObject(
      refused('paymentId'),
    );
    expect(await r.messenger.history(PAYMENT_ID)).toEqual([]);
  });
});

describe('the audit', () => {
  it('who sent which payment’s link, by which channel and provider, to which masked destination, when, and every status', async () => {
    const { r, smtpMails } = await allChannels();
    const sms = await r.messenger.send(
      { paymentId: PAYMENT_ID, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' },
      context(),
    );
    await r.settled();
    const email = await r.messenger.send(
      { paymentId: PAYMENT_ID, channel: 'email', destination: 'maria.lopez@example.com', language: 'en-US' },
      { ...context(), operatorId: 'agent.juan' },
    );
    expect(smtpMails()).toBe(1);
    const rows = await r.messenger.history(PAYMENT_ID);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      messageId: sms.messageId,
      paymentId: PAYMENT_ID,
      operatorId: 'agent.maria',
      channel: 'sms',
      provider: 'twilio',
      to: '+52 ******5678',
      language: 'es-MX',
      status: 'delivered',
      attempts: 1,
      linkHost: 'acs.bank.example',
    });
    // Each status, with Twilio's own word for it.
    expect(rows[0]?.events.map((event) => [event.status, event.providerStatus])).toEqual([
      ['sending', undefined],
      ['queued', 'queued'],
      ['sent', 'sent'],
      ['delivered', 'delivered'],
    ]);
    expect(rows[1]).toMatchObject({
      messageId: email.messageId,
      operatorId: 'agent.juan',
      channel: 'email',
      provider: 'smtp',
      to: 'm***@example.com',
      status: 'sent',
    });
    for (const row of rows) {
      expect(Date.parse(row.createdAt)).not.toBeNaN();
      expect(Date.parse(row.finishedAt ?? '')).not.toBeNaN();
    }
    // Masked everywhere: the database files and the logs hold neither the full destinations nor the link.
    const bytes = r.auditBytes();
    const logs = r.logs.join('\n');
    for (const secret of ['525512345678', '5512345678', 'maria.lopez', LINK_TOKEN, LINK, AUTH_TOKEN]) {
      expect(bytes).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    expect(readdirSync(r.dir).sort()).toEqual(['messaging.db', 'messaging.db-shm', 'messaging.db-wal']);
    expect(logs).toContain('+52 ******5678');
    expect(logs).toContain('acs.bank.example');
  });

  it('a failure keeps its code and readable reason in the audit', async () => {
    const http = await startHttp([{ status: 401, body: { code: 20003 } }]);
    open.push(http);
    const r = makeRig({
      environment: 'production',
      config: {
        providers: { sms: 'twilio' },
        twilio: { accountSid: SID, baseUrl: http.origin, smsFrom: '+15017122661' },
      },
      secrets: { twilioAuthToken: 'tok' },
    });
    open.push(r);
    await r.messenger.send(
      { paymentId: PAYMENT_ID, channel: 'sms', destination: '+52 55 1234 5678', language: 'es-MX' },
      context(),
    );
    expect(await r.messenger.history(PAYMENT_ID)).toEqual([
      expect.objectContaining({
        status: 'failed',
        failureCode: 'bad_credentials',
        failureActor: 'it',
        providerCode: 20003,
        moreInfo: 'https://www.twilio.com/docs/errors/20003',
        attempts: 1,
      }),
    ]);
    expect(r.auditBytes()).toContain('refused this desk');
  });

  it('two presses of Send while the first is on its way send one message', async () => {
    const { r, twilio } = await allChannels();
    const request = {
      paymentId: PAYMENT_ID,
      channel: 'sms',
      destination: '+52 55 1234 5678',
      language: 'es-MX',
    } as const;
    const [a, b] = await Promise.all([
      r.messenger.send(request, context()),
      r.messenger.send({ ...request, destination: '+525512345678' }, context()),
    ]);
    expect(a.messageId).toBe(b.messageId);
    expect(twilio.messages).toHaveLength(1);
    // Once it has been delivered, Send sends again without asking (the agent asked for it).
    await r.settled();
    await r.messenger.send(request, context());
    expect(twilio.messages).toHaveLength(2);
  });

  it('the audit survives a restart of the app', async () => {
    const r = makeRig({ environment: 'training' });
    await r.messenger.send(
      { paymentId: PAYMENT_ID, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context({ nextActionUrl: 'http://127.0.0.1:9/challenge/x' }),
    );
    await r.messenger.close();
    const again = createMessenger({
      environment: 'training',
      dataDir: r.dir,
      fetch,
      secrets: { read: () => Promise.resolve(undefined) },
    });
    try {
      expect(await again.history(PAYMENT_ID)).toEqual([
        expect.objectContaining({ status: 'sent', provider: 'training_outbox', to: 'g***@example.com' }),
      ]);
      expect((await again.history(PAYMENT_ID))[0]?.events.map((event) => event.status)).toEqual(['sending', 'sent']);
      expect(again.outbox()).toEqual([]);
    } finally {
      await again.close();
      await r.close();
    }
  });
});

describe('settings', () => {
  const parse = (config: unknown): string => {
    const result = MessagingConfigSchema.safeParse(config);
    return result.success
      ? 'ok'
      : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  };

  it('the default is nothing configured, with retry and timeout defaults', () => {
    expect(MessagingConfigSchema.parse({})).toEqual({
      providers: { email: 'none', sms: 'none', whatsapp: 'none' },
      requestTimeoutMs: 10_000,
      retry: { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 4000 },
    });
  });

  it.each([
    [{ providers: { email: 'smtp' } }, /smtp: is required/],
    [{ providers: { sms: 'twilio' } }, /twilio: is required/],
    [{ providers: { whatsapp: 'webhook' } }, /webhook: is required/],
    [
      { providers: { email: 'smtp' }, smtp: { host: 'smtp.hotel.example', security: 'none', from: 'a@hotel.example' } },
      /security: none \(no TLS\) is allowed only for a relay on this computer/,
    ],
    [
      { providers: { email: 'smtp' }, smtp: { host: 'smtp.hotel.example', security: 'ssl', from: 'a@hotel.example' } },
      /security: must be starttls, tls or none/,
    ],
    [
      { smtp: { host: 'smtp.hotel.example', security: 'tls', from: 'not-an-address' } },
      /smtp.from: must be an e-mail address/,
    ],
    [{ twilio: { accountSid: SID, baseUrl: 'http://api.twilio.com' } }, /twilio.baseUrl: must use https/],
    [{ twilio: { accountSid: 'AC123' } }, /twilio.accountSid: must be a Twilio Account SID/],
    // Twilio's SID patterns exactly: the two letters upper-case, 32 hex digits.
    [
      { twilio: { accountSid: `ac${SID.slice(2)}` } },
      /twilio.accountSid: must be a Twilio Account SID \(AC followed by 32 hex characters\)/,
    ],
    [
      { twilio: { accountSid: SID, messagingServiceSid: `mg${'fe'.repeat(16)}` } },
      /twilio.messagingServiceSid: must be a Messaging Service SID/,
    ],
    [
      {
        twilio: {
          accountSid: SID,
          whatsappContentSids: { 'es-MX': `hx${'11'.repeat(16)}`, 'en-US': `HX${'22'.repeat(16)}` },
        },
      },
      /twilio.whatsappContentSids.es-MX: must be a Content SID/,
    ],
    [
      { twilio: { accountSid: SID, whatsappContentSids: { 'es-MX': `HX${'11'.repeat(16)}` } } },
      /twilio.whatsappContentSids.en-US/,
    ],
    // WhatsApp through Twilio only as approved templates.
    [
      { providers: { whatsapp: 'twilio' }, twilio: { accountSid: SID, whatsappFrom: '+14155238886' } },
      /twilio.whatsappContentSids: is required when WhatsApp is sent by twilio: an approved template \(Content SID\) for es-MX and for en-US/,
    ],
    // The webhook must report delivery.
    [{ webhook: { url: 'https://gw.example/hook' } }, /webhook.statusUrl/],
    [
      { webhook: { url: 'https://gw.example/hook', statusUrl: 'https://gw.example/status' } },
      /webhook.statusUrl: must contain \{messageId\}/,
    ],
    [
      { webhook: { url: 'https://gw.example/hook', statusUrl: 'http://gw.example/status/{messageId}' } },
      /webhook.statusUrl: must use https/,
    ],
    // The message's id goes in the path or the query: in the host, every message would be asked of another server.
    [
      { webhook: { url: 'https://gw.example/hook', statusUrl: 'https://{messageId}.gw.example/status' } },
      /webhook.statusUrl: must have \{messageId\} in its path or query/,
    ],
    [{ providers: { sms: 'twilio' }, twilio: { accountSid: SID } }, /twilio.smsFrom: is required/],
    [
      { providers: { whatsapp: 'twilio' }, twilio: { accountSid: SID, smsFrom: '+15017122661' } },
      /twilio.whatsappFrom: is required/,
    ],
    [
      { webhook: { url: 'https://user:pass@gw.example/hook', statusUrl: 'https://gw.example/s/{messageId}' } },
      /webhook.url: must not contain a user name or password/,
    ],
    [
      { webhook: { url: 'http://gw.example/hook', statusUrl: 'https://gw.example/s/{messageId}' } },
      /webhook.url: must use https/,
    ],
    [
      {
        webhook: {
          url: 'https://gw.example/hook',
          statusUrl: 'https://gw.example/s/{messageId}',
          authHeaderName: 'Content-Type',
        },
      },
      /authHeaderName: is a header the app sets itself/,
    ],
    [
      { smtp: { host: 'smtp.hotel.example', security: 'tls', from: 'a@hotel.example', password: 'x' } },
      /Unrecognized key.*password/,
    ],
    [{ requestTimeoutMs: 10 }, /requestTimeoutMs/],
  ])('refuses %j', (config, message) => {
    expect(parse(config)).toMatch(message);
  });

  it('accepts a full production setup', () => {
    expect(
      parse({
        providers: { email: 'smtp', sms: 'twilio', whatsapp: 'twilio' },
        smtp: {
          host: 'smtp.office365.com',
          port: 587,
          security: 'starttls',
          username: 'pagos@hotel.example',
          from: 'pagos@hotel.example',
        },
        twilio: {
          accountSid: SID,
          smsFrom: 'HotelAzul',
          whatsappFrom: '+14155238886',
          whatsappContentSids: { 'es-MX': `HX${'11'.repeat(16)}`, 'en-US': `HX${'2F'.repeat(16)}` },
        },
      }),
    ).toBe('ok');
  });

  it('createMessenger refuses bad settings with the field named', () => {
    expect(() =>
      createMessenger({
        environment: 'production',
        dataDir: '/nonexistent',
        fetch,
        secrets: { read: () => Promise.resolve(undefined) },
        config: { providers: { sms: 'twilio' } },
      }),
    ).toThrow('Messaging settings: twilio: is required when SMS or WhatsApp is sent by twilio.');
  });

  it('the link in a test is the one the assertions look for', () => {
    // Guards the leak checks above: they search for this token, which must be part of the link sent.
    expect(LINK).toContain(LINK_TOKEN);
  });
});

describe('the re-send confirmation cannot be slipped past', () => {
  const sms = (destination: string) =>
    ({ paymentId: PAYMENT_ID, channel: 'sms', destination, language: 'es-MX' }) as const;

  it('two sends of the same payment at once to different numbers or channels: the second waits for the first, then asks', async () => {
    const twilio = await startTwilio();
    const http = await startHttp([{ status: 201, body: {} }]);
    open.push(twilio, http);
    const r = makeRig({
      environment: 'production',
      config: {
        providers: { sms: 'twilio', whatsapp: 'webhook' },
        twilio: { accountSid: SID, baseUrl: twilio.origin, smsFrom: '+15017122661' },
        webhook: { url: `${http.origin}/gateway`, statusUrl: `${http.origin}/gateway/{messageId}` },
      },
      secrets: { twilioAuthToken: AUTH_TOKEN },
      // The first message stays queued: its follow never moves on.
      followSleep: () => new Promise<void>(() => undefined),
    });
    open.push(r);
    const [first, other, whatsapp] = await Promise.all([
      r.messenger.sendOutcome(sms('+52 55 1234 5678'), context()),
      r.messenger.sendOutcome(sms('+52 55 9999 0000'), context()),
      r.messenger.sendOutcome({ ...sms('+52 55 1234 5678'), channel: 'whatsapp' }, context()),
    ]);
    expect(first.status).toBe('queued');
    expect(other.status).toBe('confirm_resend');
    expect(whatsapp.status).toBe('confirm_resend');
    expect(twilio.messages).toHaveLength(1);
    expect(http.requests).toHaveLength(0);
  });

  it('the app stopped while a link was on its way (accepted, the answer never written): after a restart, a quick re-send asks', async () => {
    const twilio = await startTwilio();
    open.push(twilio);
    // Twilio creates the message and its answer never comes back: the app is closed (or crashes) meanwhile.
    twilio.script('+525512345678', { kind: 'lostAnswer', created: true, how: 'hang' });
    const config = {
      providers: { sms: 'twilio' },
      twilio: { accountSid: SID, baseUrl: twilio.origin, smsFrom: '+15017122661' },
      requestTimeoutMs: 5_000,
    };
    const r = makeRig({ environment: 'production', config, secrets: { twilioAuthToken: AUTH_TOKEN } });
    void r.messenger.sendOutcome(sms('+52 55 1234 5678'), context()).catch(() => undefined);
    await expect.poll(() => twilio.messages.length).toBe(1);
    await r.messenger.close();

    const again = createMessenger({
      environment: 'production',
      config,
      dataDir: r.dir,
      fetch,
      secrets: { read: () => Promise.resolve(AUTH_TOKEN) },
    });
    try {
      expect(await again.history(PAYMENT_ID)).toEqual([expect.objectContaining({ status: 'sending' })]);
      const asked = await again.send(sms('+52 55 1234 5678'), context());
      expect(asked).toMatchObject({
        status: 'confirm_resend',
        previous: { status: 'unknown', to: '+52 ******5678', failure: { code: 'unconfirmed', actor: 'desk' } },
      });
      expect(twilio.messages).toHaveLength(1);
      expect(await again.history(PAYMENT_ID)).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it('after a restart, a link sent more than a minute ago, or delivered, does not ask', async () => {
    const twilio = await startTwilio();
    open.push(twilio);
    const config = {
      providers: { sms: 'twilio' },
      twilio: { accountSid: SID, baseUrl: twilio.origin, smsFrom: '+15017122661' },
    };
    const r = makeRig({ environment: 'production', config, secrets: { twilioAuthToken: AUTH_TOKEN } });
    await r.messenger.send(sms('+52 55 1234 5678'), context());
    await r.settled();
    await r.messenger.close();
    const again = createMessenger({
      environment: 'production',
      config,
      dataDir: r.dir,
      fetch,
      secrets: { read: () => Promise.resolve(AUTH_TOKEN) },
    });
    try {
      // Delivered before the restart: sent without asking.
      expect((await again.send(sms('+52 55 1234 5678'), context())).status).toBe('queued');
    } finally {
      // Closed while this one is still queued.
      await again.close();
    }
    const later = createMessenger({
      environment: 'production',
      config,
      dataDir: r.dir,
      fetch,
      now: () => Date.now() + 61_000,
      secrets: { read: () => Promise.resolve(AUTH_TOKEN) },
    });
    try {
      // The second one was left queued (closed while followed): a minute on, it is no reason to ask.
      expect((await later.send(sms('+52 55 1234 5678'), context())).status).toBe('queued');
    } finally {
      await later.close();
    }
    expect(twilio.messages).toHaveLength(3);
  });
});
