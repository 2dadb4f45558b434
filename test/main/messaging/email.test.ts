// E-mail over SMTP: delivered to a real SMTP server, parsed back with mailparser.
import { afterEach, describe, expect, it } from 'vitest';
import {
  LINK,
  LINK_TOKEN,
  TEST_CERT,
  TEST_KEY,
  closedPort,
  context,
  longDigitRuns,
  makeRig,
  smtpReply,
  startSilent,
  startSmtp,
  type Rig,
  type SmtpHarness,
} from './support';

const PASSWORD = 'smtp-pass-Zq81-never-shown';
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function smtp(options: Parameters<typeof startSmtp>[0] = {}): Promise<SmtpHarness> {
  const harness = await startSmtp(options);
  open.push(harness);
  return harness;
}

function rig(smtpSettings: Record<string, unknown>, extra: Partial<Parameters<typeof makeRig>[0]> = {}): Rig {
  const r = makeRig({
    environment: 'production',
    config: {
      providers: { email: 'smtp' },
      smtp: { from: 'pagos@casa-azul.example', ...smtpSettings },
      requestTimeoutMs: 2000,
    },
    secrets: { smtpPassword: PASSWORD },
    ...extra,
  });
  open.push(r);
  return r;
}

const hrefs = (html: string): string[] =>
  [...html.matchAll(/href="([^"]*)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));

describe('e-mail delivered over SMTP', () => {
  it.each([
    [
      'es-MX',
      /confirme su pago/,
      'Para completar su pago de $1,234.50 MXN a Hotel Casa Azul con su tarjeta Visa terminación 3220',
    ],
    [
      'en-US',
      /confirm your payment/,
      'To complete your payment of $1,234.50 MXN to Hotel Casa Azul with your Visa card ending in 3220',
    ],
  ] as const)(
    '%s: subject, text and HTML in the language, the link intact, brand and last 4 only',
    async (language, subject, sentence) => {
      const server = await smtp();
      const { messenger, logs, auditBytes } = rig({ host: '127.0.0.1', port: server.port, security: 'none' });

      const result = await messenger.send(
        { paymentId: context().payment.id, channel: 'email', destination: ' Maria.Lopez@Example.COM ', language },
        context(),
      );

      // Accepted by the mail server is as far as e-mail can be followed: "sent", and final.
      expect(result).toMatchObject({
        status: 'sent',
        final: true,
        channel: 'email',
        provider: 'smtp',
        training: false,
        attempts: 1,
        to: 'M***@example.com',
      });
      expect(server.mails).toHaveLength(1);
      const mail = server.mails[0];
      if (!mail) throw new Error('no mail');
      expect(mail.to).toEqual(['Maria.Lopez@example.com']);
      expect(mail.from).toBe('pagos@casa-azul.example');
      expect(mail.parsed.from?.value[0]).toMatchObject({ name: 'Hotel Casa Azul', address: 'pagos@casa-azul.example' });
      expect(mail.parsed.subject).toMatch(subject);
      expect(mail.parsed.subject).toContain('Hotel Casa Azul');
      expect(mail.parsed.messageId).toBe(`<${result.messageId}@casa-azul.example>`);
      expect(mail.parsed.headers.get('content-language')).toBe(language);

      const text = mail.parsed.text ?? '';
      const html = typeof mail.parsed.html === 'string' ? mail.parsed.html : '';
      expect(text).toContain(sentence);
      expect(html).toContain(sentence);
      expect(html).toContain(`lang="${language}"`);
      // The link, whole, on its own line of the text and as every href of the HTML.
      expect(text.split('\n')).toContain(LINK);
      expect(hrefs(html)).toEqual([LINK, LINK]);
      expect(html).toContain(LINK.replaceAll('&', '&amp;'));

      // Nothing of the card but brand and last 4: no long digit run in what the guest reads (headers carry random
      // hex, so the raw source is only searched for the card number itself).
      expect(longDigitRuns(text)).toEqual([]);
      expect(longDigitRuns(html)).toEqual([]);
      expect(longDigitRuns(mail.parsed.subject ?? '')).toEqual([]);
      expect(text.match(/\d+/g)).toEqual(['1', '234', '50', '3220', ...(LINK.match(/\d+/g) ?? [])]);
      expect(mail.raw).not.toContain('4000000000003220');

      // The link is in the mail, and nowhere in what the app keeps.
      expect(logs.join('\n')).not.toContain(LINK_TOKEN);
      expect(auditBytes()).not.toContain(LINK_TOKEN);
      expect(auditBytes()).not.toContain('Maria.Lopez');
    },
  );

  it('escapes the hotel name in HTML and keeps it on one line in the subject', async () => {
    const server = await smtp();
    const { messenger } = rig({ host: 'localhost', port: server.port, security: 'none' });
    const hotel = 'Casa <b>"Azul"</b> & Spa\r\nBcc: evil@example.com';
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'en-US' },
      context({}, hotel),
    );
    expect(result.status).toBe('sent');
    const mail = server.mails[0];
    const html = typeof mail?.parsed.html === 'string' ? mail.parsed.html : '';
    expect(html).toContain('Casa &lt;b&gt;&quot;Azul&quot;&lt;/b&gt; &amp; Spa Bcc: evil@example.com');
    expect(html).not.toContain('<b>"Azul"</b>');
    expect(mail?.parsed.subject).toBe(
      'Casa <b>"Azul"</b> & Spa Bcc: evil@example.com: confirm your payment with your bank',
    );
    expect(mail?.to).toEqual(['guest@example.com']);
    expect(mail?.parsed.bcc).toBeUndefined();
  });

  it('USD in Spanish, and no brand or last 4 when the payment has none that can be shown', async () => {
    const server = await smtp();
    const { messenger } = rig({ host: '127.0.0.1', port: server.port, security: 'none' });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context({ amount: 89.9, currency: 'usd', brand: '<img src=x>', last4: '42424242' }),
    );
    expect(result.status).toBe('sent');
    const text = server.mails[0]?.parsed.text ?? '';
    expect(text).toContain('Para completar su pago de $89.90 USD a Hotel Casa Azul, ábralo');
    expect(text).not.toContain('42424242');
    expect(server.mails[0]?.raw).not.toContain('<img src=x>');
  });

  it('signs in with the user name and the password from the secret store', async () => {
    const logins: string[] = [];
    const server = await smtp({
      authOptional: false,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username}:${auth.password ?? ''}`);
        if (auth.username === 'desk01' && auth.password === PASSWORD) callback(null, { user: 'desk01' });
        else callback(new Error('Invalid username or password'));
      },
    });
    const { messenger, secretReads } = rig({
      host: '127.0.0.1',
      port: server.port,
      security: 'none',
      username: 'desk01',
    });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'en-US' },
      context(),
    );
    expect(result.status).toBe('sent');
    expect(secretReads).toEqual(['smtpPassword']);
    expect(logins).toEqual([`desk01:${PASSWORD}`]);
    expect(server.mails[0]?.user).toBe('desk01');
  });

  it('bad credentials: failed with a reason, tried once, the password nowhere in it', async () => {
    const server = await smtp({
      authOptional: false,
      onAuth: (_auth, _session, callback) => callback(smtpReply(535, 'Authentication credentials invalid')),
    });
    const { messenger, logs, sleeps, auditBytes } = rig({
      host: '127.0.0.1',
      port: server.port,
      security: 'none',
      username: 'desk01',
    });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'en-US' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 1,
      failure: { code: 'bad_credentials', retryable: false },
    });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(
      `the SMTP server 127.0.0.1:${server.port} refused this desk's sign-in (SMTP 535). IT must check the SMTP user name and the stored password.`,
    );
    expect(server.connections).toBe(1);
    expect(sleeps).toEqual([]);
    expect(server.mails).toEqual([]);
    for (const text of [JSON.stringify(result), logs.join('\n'), auditBytes()]) expect(text).not.toContain(PASSWORD);
  });

  it('no password provisioned: not configured, nothing sent', async () => {
    const server = await smtp();
    const { messenger } = rig(
      { host: '127.0.0.1', port: server.port, security: 'none', username: 'desk01' },
      { secrets: {} },
    );
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'en-US' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 1,
      failure: { code: 'not_configured', retryable: false },
    });
    expect(server.connections).toBe(0);
  });

  it('STARTTLS: upgraded with the configured CA before anything is sent', async () => {
    const server = await smtp({ disabledCommands: [], key: TEST_KEY, cert: TEST_CERT });
    const { messenger } = rig({
      host: 'localhost',
      port: server.port,
      security: 'starttls',
      caCertificatePem: TEST_CERT,
    });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result.status).toBe('sent');
    expect(server.mails[0]?.secure).toBe(true);
  });

  it('implicit TLS', async () => {
    const server = await smtp({ secure: true, disabledCommands: [], key: TEST_KEY, cert: TEST_CERT });
    const { messenger } = rig({ host: 'localhost', port: server.port, security: 'tls', caCertificatePem: TEST_CERT });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result.status).toBe('sent');
    expect(server.mails[0]?.secure).toBe(true);
  });

  it('STARTTLS required but not offered: a TLS failure, nothing sent in clear', async () => {
    const server = await smtp({ disabledCommands: ['STARTTLS'] });
    const { messenger } = rig({ host: 'localhost', port: server.port, security: 'starttls' });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'tls_error', retryable: false } });
    expect(server.mails).toEqual([]);
  });

  it('a certificate the desk does not trust: a TLS failure, not retried', async () => {
    const server = await smtp({ secure: true, disabledCommands: [], key: TEST_KEY, cert: TEST_CERT });
    const { messenger, sleeps } = rig({ host: 'localhost', port: server.port, security: 'tls' });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'tls_error', retryable: false } });
    expect(sleeps).toEqual([]);
    expect(server.mails).toEqual([]);
  });
});

describe('SMTP failures', () => {
  it('connection refused: tried 3 times with growing waits, then reported', async () => {
    const port = await closedPort();
    const { messenger, sleeps } = rig({ host: '127.0.0.1', port, security: 'none' });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 3,
      failure: { code: 'connection_refused', retryable: true },
    });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toBe(
      `the SMTP server 127.0.0.1:${port} refused the connection (nothing is listening there).`,
    );
    // random() = 0.5 → 3/4 of base × 2^(n−1): 375 ms, then 750 ms.
    expect(sleeps).toEqual([375, 750]);
  });

  it('no greeting in time: a timeout, tried again', async () => {
    const silent = await startSilent();
    open.push(silent);
    const { messenger, sleeps } = rig(
      { host: '127.0.0.1', port: silent.port, security: 'none' },
      {
        config: {
          providers: { email: 'smtp' },
          smtp: { host: '127.0.0.1', port: silent.port, security: 'none', from: 'pagos@casa-azul.example' },
          requestTimeoutMs: 200,
          retry: { maxAttempts: 2 },
        },
      },
    );
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({ status: 'failed', attempts: 2, failure: { code: 'timeout', retryable: true } });
    expect(silent.connections()).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it('a transient 4xx reply (451) is tried again and the mail goes through', async () => {
    let rcpt = 0;
    const server = await smtp({
      onRcptTo(_address, _session, callback) {
        rcpt++;
        callback(rcpt === 1 ? smtpReply(451, 'Try again later') : null);
      },
    });
    const { messenger, sleeps } = rig({ host: '127.0.0.1', port: server.port, security: 'none' });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({ status: 'sent', attempts: 2 });
    expect(sleeps).toEqual([375]);
    expect(server.mails).toHaveLength(1);
  });

  it('a permanent 5xx reply (550) is reported at once', async () => {
    const server = await smtp({
      onRcptTo: (_address, _session, callback) => callback(smtpReply(550, 'No such user here')),
    });
    const { messenger, sleeps } = rig({ host: '127.0.0.1', port: server.port, security: 'none' });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'nobody@example.com', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 1,
      failure: { code: 'provider_rejected', retryable: false },
    });
    if (result.status !== 'failed') throw new Error('expected a failure');
    expect(result.failure.message).toMatch(/refused the recipient address \(SMTP 550\)/);
    expect(sleeps).toEqual([]);
  });

  it('a server error on DATA (554) is reported, a 421 is tried again', async () => {
    let data = 0;
    const server = await smtp({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          data++;
          callback(data === 1 ? smtpReply(421, 'Service not available') : smtpReply(554, 'Transaction failed'));
        });
      },
    });
    const { messenger, sleeps } = rig({ host: '127.0.0.1', port: server.port, security: 'none' });
    const result = await messenger.send(
      { paymentId: context().payment.id, channel: 'email', destination: 'guest@example.com', language: 'es-MX' },
      context(),
    );
    expect(result).toMatchObject({
      status: 'failed',
      attempts: 2,
      failure: { code: 'provider_rejected', retryable: false },
    });
    expect(sleeps).toEqual([375]);
    expect(data).toBe(2);
  });
});
