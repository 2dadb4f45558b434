// The shared checks the 3DS panel and main both apply (shared/messaging): E.164 phones with libphonenumber-js, e-mail
// with zod, masks, the send request schema, who acts on each failure — and the templates' amounts, escaping, card
// details and SMS segments.
import { describe, expect, it } from 'vitest';
import {
  DeliveryResult,
  FAILURE_ACTORS,
  SendLinkOutcome,
  SendLinkRequest,
  checkEmail,
  checkPhone,
  maskDestination,
  DELIVERY_FAILURE_CODES,
} from '../../../shared/messaging';
import { backoffDelay, formatAmount, gsmFriendly, renderMessage, smsSegments } from '../../../main/messaging';

describe('phones', () => {
  it.each([
    ['+52 55 1234 5678', '+525512345678'],
    ['+525512345678', '+525512345678'],
    ['  +52 (55) 1234-5678 ', '+525512345678'],
    ['+1 415 555 2671', '+14155552671'],
    ['+34 612 345 678', '+34612345678'],
  ])('accepts %j as %s', (typed, e164) => {
    expect(checkPhone(typed)).toEqual({ ok: true, value: e164 });
  });

  it.each([
    ['', /Enter the guest’s mobile number/],
    ['55 1234 5678', /country code/],
    ['+52 55 1234 567', /not a valid phone number/],
    ['+52 1 55 1234 5678', /not a valid phone number/],
    ['+999 1234 5678', /not a valid phone number/],
    ['+52 55 CALL ME', /only digits/],
    ['+44 20 7946 0958', /landline/],
    ['+1 800 555 1234', /landline or service/],
  ])('refuses %j', (typed, message) => {
    const result = checkPhone(typed);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('e-mail addresses', () => {
  it('trims and lower-cases the domain only', () => {
    expect(checkEmail('  Maria.Lopez@Example.COM ')).toEqual({ ok: true, value: 'Maria.Lopez@example.com' });
  });
  it.each([
    'maria',
    'maria@',
    '@example.com',
    'maria@example',
    'ma ria@example.com',
    'maria@@example.com',
    'maria@example.com\nBcc: x@y.z',
  ])('refuses %j', (typed) => {
    expect(checkEmail(typed).ok).toBe(false);
  });
});

describe('masks', () => {
  it.each([
    ['sms', '+525512345678', '+52 ******5678'],
    ['whatsapp', '+14155552671', '+1 ******2671'],
    ['email', 'maria.lopez@example.com', 'm***@example.com'],
    ['email', 'x@example.com', 'x***@example.com'],
    ['email', 'nonsense', '***'],
    ['sms', '1234', '****'],
  ] as const)('%s %s → %s', (channel, destination, masked) => {
    expect(maskDestination(channel, destination)).toBe(masked);
  });
});

describe('the send request', () => {
  it('normalizes the destination for its channel', () => {
    expect(
      SendLinkRequest.parse({
        paymentId: `pay_${'a'.repeat(32)}`,
        channel: 'whatsapp',
        destination: '+52 55 1234 5678',
        language: 'en-US',
      }),
    ).toEqual({
      paymentId: `pay_${'a'.repeat(32)}`,
      channel: 'whatsapp',
      destination: '+525512345678',
      language: 'en-US',
    });
  });

  it('puts a bad destination’s reason at `destination`, and refuses unknown keys', () => {
    const bad = SendLinkRequest.safeParse({
      paymentId: `pay_${'a'.repeat(32)}`,
      channel: 'email',
      destination: '+52 55 1234 5678',
      language: 'es-MX',
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['destination', expect.stringMatching(/not a valid e-mail address/) as unknown],
    ]);
    expect(
      SendLinkRequest.safeParse({
        paymentId: `pay_${'a'.repeat(32)}`,
        channel: 'sms',
        destination: '+525512345678',
        language: 'es-MX',
        link: 'x',
      }).success,
    ).toBe(false);
  });

  it('a delivery result carries a failure exactly when it failed or may have been sent', () => {
    const base = {
      messageId: `msg_${'0'.repeat(32)}`,
      paymentId: `pay_${'a'.repeat(32)}`,
      channel: 'sms',
      to: '+52 ******5678',
      provider: 'twilio',
      training: false,
      attempts: 1,
      at: new Date().toISOString(),
      final: false,
    };
    const failure = { code: 'timeout', message: 'x', retryable: true, actor: 'desk' };
    for (const status of ['queued', 'sent', 'delivered', 'read'])
      expect(DeliveryResult.safeParse({ ...base, status }).success).toBe(true);
    expect(DeliveryResult.safeParse({ ...base, status: 'failed' }).success).toBe(false);
    expect(DeliveryResult.safeParse({ ...base, status: 'unknown' }).success).toBe(false);
    expect(DeliveryResult.safeParse({ ...base, status: 'failed', failure }).success).toBe(true);
    expect(
      DeliveryResult.safeParse({ ...base, status: 'unknown', failure: { ...failure, code: 'unconfirmed' } }).success,
    ).toBe(true);
    expect(
      DeliveryResult.safeParse({ ...base, status: 'failed', failure: { ...failure, actor: 'nobody' } }).success,
    ).toBe(false);
    // An output parse drops what the schema does not name (a link, for one).
    expect(DeliveryResult.parse({ ...base, status: 'sent', link: 'https://x' })).not.toHaveProperty('link');
    // The answer to a quick re-send: the earlier message, nothing sent.
    expect(
      SendLinkOutcome.safeParse({ status: 'confirm_resend', previous: { ...base, status: 'queued' }, sentAt: base.at })
        .success,
    ).toBe(true);
    expect(SendLinkOutcome.safeParse({ status: 'confirm_resend' }).success).toBe(false);
  });

  it('the send request takes confirmResend, and nothing else new', () => {
    const request = {
      paymentId: `pay_${'a'.repeat(32)}`,
      channel: 'sms',
      destination: '+525512345678',
      language: 'es-MX',
    };
    expect(SendLinkRequest.parse({ ...request, confirmResend: true })).toMatchObject({ confirmResend: true });
    expect(SendLinkRequest.safeParse({ ...request, confirmResend: 'yes' }).success).toBe(false);
  });

  it('every failure has who can act on it: the guest, the desk or IT', () => {
    expect(Object.keys(FAILURE_ACTORS).sort()).toEqual([...DELIVERY_FAILURE_CODES].sort());
    // The guest: another number or channel (a bad number, STOP, not on WhatsApp, a phone switched off).
    for (const code of ['invalid_destination', 'opted_out', 'not_on_whatsapp', 'unreachable'] as const)
      expect(FAILURE_ACTORS[code]).toBe('guest');
    // The desk: wait and try again, or check with the guest.
    for (const code of ['rate_limited', 'provider_unavailable', 'timeout', 'unconfirmed'] as const)
      expect(FAILURE_ACTORS[code]).toBe('desk');
    // IT: the account, the sender, the country permissions, the templates.
    for (const code of [
      'country_not_permitted',
      'sender_not_set_up',
      'account_restricted',
      'template_rejected',
      'bad_credentials',
      'filtered',
    ] as const) {
      expect(FAILURE_ACTORS[code]).toBe('it');
    }
  });
});

describe('templates', () => {
  it.each([
    [1234.5, 'mxn', 'es-MX', '$1,234.50 MXN'],
    [1234.5, 'mxn', 'en-US', '$1,234.50 MXN'],
    [89.9, 'usd', 'es-MX', '$89.90 USD'],
    [1_000_000, 'usd', 'en-US', '$1,000,000.00 USD'],
  ] as const)('%s %s in %s → %s', (amount, currency, language, text) => {
    expect(formatAmount(amount, currency, language)).toBe(text);
  });

  it('SMS and WhatsApp get one short text, e-mail a subject, text and HTML', () => {
    const data = {
      hotelName: 'Hotel Casa Azul',
      amount: 10,
      currency: 'usd',
      brand: 'mastercard',
      last4: '4444',
      link: 'https://acs.example/c/t?a=1&b=2',
    };
    const sms = renderMessage('sms', 'en-US', data);
    expect(Object.keys(sms)).toEqual(['text']);
    expect(sms.text).toBe(
      'Hotel Casa Azul: to complete your payment of $10.00 USD with your Mastercard card ending in 4444, confirm it with your bank at this link: https://acs.example/c/t?a=1&b=2',
    );
    const email = renderMessage('email', 'es-MX', data);
    expect(email.subject).toBe('Hotel Casa Azul: confirme su pago con su banco');
    expect(email.html).toContain('href="https://acs.example/c/t?a=1&amp;b=2"');
    expect(email.text).toContain('\nhttps://acs.example/c/t?a=1&b=2\n');
  });

  it('without brand and last 4 the card is not mentioned; an unknown brand is not shown', () => {
    const data = { hotelName: 'H', amount: 10, currency: 'usd', link: 'https://a.example/x' };
    expect(renderMessage('sms', 'es-MX', data).text).toBe(
      'H: para completar su pago de $10.00 USD, confirme el cargo con su banco en este enlace: https://a.example/x',
    );
    expect(renderMessage('sms', 'es-MX', { ...data, brand: 'Acme <script>', last4: '1234' }).text).toContain(
      'con su tarjeta que termina en 1234,',
    );
  });
});

describe('SMS segments', () => {
  // A link as long as the simulator's challenge links (origin, path and a 32-character base64url token).
  const data = {
    hotelName: 'Hotel Casa Azul',
    amount: 1234.5,
    currency: 'mxn',
    brand: 'visa',
    last4: '3220',
    link: 'https://acs.bank.example/challenge/5f1Qm2Zb8rJ0yT7kW4xV9cN3hL6dP1sA',
  };

  it('Spanish goes as GSM-7 (2 segments, not 4 as UCS-2); gsmFriendly drops the accents GSM-7 lacks, é ñ ü ¿ ¡ kept', () => {
    const spanish = renderMessage('sms', 'es-MX', data).text;
    expect(smsSegments(spanish)).toEqual({ encoding: 'GSM-7', segments: 2 });
    // The same message with one accent GSM-7 lacks would be billed as UCS-2.
    expect(smsSegments(spanish.replace('confirme el cargo', 'confírmelo'))).toEqual({ encoding: 'UCS-2', segments: 4 });
    expect(gsmFriendly('Sí, ¿qué pasó? Año, pingüino, ¡Ándale! “Casa” — Ú')).toBe(
      'Si, ¿qué paso? Año, pingüino, ¡Andale! "Casa" - U',
    );
    expect(smsSegments(renderMessage('sms', 'en-US', data).text)).toEqual({ encoding: 'GSM-7', segments: 2 });
  });

  it('the link is never rewritten, and a name with no GSM-7 twin keeps its characters (then UCS-2)', () => {
    const odd = { ...data, link: 'https://acs.example/c/Á?x=“1”' };
    expect(renderMessage('sms', 'es-MX', odd).text.endsWith(odd.link)).toBe(true);
    const tokyo = renderMessage('sms', 'en-US', { ...data, hotelName: 'ホテル東京' }).text;
    expect(tokyo.startsWith('ホテル東京:')).toBe(true);
    expect(smsSegments(tokyo).encoding).toBe('UCS-2');
  });

  it('WhatsApp and e-mail keep their accents', () => {
    expect(renderMessage('whatsapp', 'es-MX', data).text).toContain('confírmelo');
    expect(renderMessage('email', 'es-MX', data).text).toContain('confírmelo');
  });
});

describe('backoff', () => {
  it('doubles from the base, is capped, and jitters within its upper half', () => {
    const policy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 4000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, () => 0))).toEqual([250, 500, 1000, 2000, 2000]);
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, () => 0.999999))).toEqual([500, 1000, 2000, 4000, 4000]);
  });
});
