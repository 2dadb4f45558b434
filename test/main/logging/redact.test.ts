// The scrubbing rules on their own: which digit runs are cards (Luhn, 12–19 digits), which keys and phrases are credentials.
import { describe, expect, it } from 'vitest';
import {
  CARD_PLACEHOLDER,
  isSensitiveKey,
  REDACTED,
  redact,
  redactLine,
  redactLogArguments,
  redactText,
} from '../../../main/logging';
import {
  ALL_CARD_SPELLINGS,
  ALL_CVV_PHRASES,
  CARD_SPELLINGS,
  CVV_PHRASES,
  DAILY_LOOK_ALIKES,
  holdsCard,
  NEAR_MISSES,
} from '../../shared/text/spellings';

/** The card's digits, or a CVV's, in the text however spelled: the shared detector's own folding is not used to check it. */
const stillHolds = (text: string, digits: string): boolean =>
  text
    .normalize('NFKC')
    .replace(/[^0-9]/g, '')
    .includes(digits);

describe('redactText: card numbers', () => {
  it.each([
    ['4242424242424242', '[card]'],
    ['4242 4242 4242 4242', '[card]'],
    ['4242-4242-4242-4242', '[card]'],
    ['378282246310005', '[card]'],
    ['3782 822463 10005', '[card]'],
    ['pan=4000000000003220;', 'pan=[card];'],
    ['card4242424242424242x', 'card[card]x'],
    ['6759649826438453', '[card]'], // Maestro, 16
    ['675964982643', '675964982643'], // 12 digits failing Luhn stays
    ['4242 4242 4242 4242 12 28', '[card] 12 28'], // the card inside a longer run of groups
    ['4242 4242 4242 4242 12 30', '[card]'], // …where "4242 4242 4242 12 30" passes Luhn too: overlapping windows go together
    ['call 55 1234 5678 about 4242 4242 4242 4242', 'call 55 1234 5678 about [card]'],
  ])('%s → %s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    ['an amount', 'amount 123456 and 1234.56'],
    ['a 10-digit phone', 'phone 5512345678 / 55 1234 5678 / 55-1234-5678'],
    ['a 16-digit number failing Luhn', 'order 4242424242424241'],
    ['a UUID request id', 'req 7c9e6679-7425-40de-944b-e07fc1f90ae7'],
    ['a date and time', '2026-03-01T12:30:45.123Z'],
    ['a 20-digit run (no card is that long)', '42424242424242424242'],
  ])('keeps %s', (_case, text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText: the shared detector, every spelling', () => {
  it.each(CARD_SPELLINGS)('a card number with $name is scrubbed', ({ text, digits }) => {
    const out = redactText(`note: ${text} (guest)`);
    expect(out).toBe('note: [card] (guest)');
    expect(stillHolds(out, digits)).toBe(false);
  });

  it.each(CVV_PHRASES)('a CVV in "$text" is scrubbed, with or without a colon', ({ text, value }) => {
    expect(redactText(`guest said ${text} ok`)).toBe(`guest said ${text.replace(value, '[redacted]')} ok`);
  });

  it.each(NEAR_MISSES)('keeps $name', ({ text }) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('the table of spellings, everywhere a log line is scrubbed', () => {
  /** A spelling as it reaches the log: in a message, in a log call's object, in a finished JSON line, as a key. */
  const scrubbed = (text: string): string[] => [
    redactText(`note: ${text} (guest)`),
    JSON.stringify(redact({ input: { note: text, list: [text], [text]: 1 } })),
    JSON.stringify(
      redactLogArguments([{ channel: 'payments:pay', input: { note: `Pagó con ${text}` } }, `call ${text}`]),
    ),
    redactLine(`${JSON.stringify({ level: 30, msg: `call ${text}`, input: { note: text } })}\n`),
  ];

  it.each(ALL_CARD_SPELLINGS)('a card number with $name is scrubbed', ({ text, digits }) => {
    for (const out of scrubbed(text)) {
      expect(out).toContain(CARD_PLACEHOLDER);
      expect(holdsCard(out, digits)).toBe(false);
    }
  });

  it.each(ALL_CVV_PHRASES)('a CVV in "$text" is scrubbed', ({ text, value }) => {
    for (const out of scrubbed(text)) {
      expect(out).toContain(REDACTED);
      expect(out).not.toContain(value);
    }
  });

  it.each([...DAILY_LOOK_ALIKES, ...NEAR_MISSES])('keeps $name', ({ text }) => {
    expect(redactText(text)).toBe(text);
    expect(redact({ note: text })).toEqual({ note: text });
  });
});

describe('redactText: credentials in text', () => {
  it.each([
    ['Authorization: Bearer abc.def-ghi', 'Authorization: [redacted]'],
    ['sent Bearer abc.def_ghi~x+y/z== to host', 'sent Bearer [redacted] to host'],
    [
      '{"access_token":"at_123","token_type":"Bearer","expires_in":3600}',
      '{"access_token":"[redacted]","token_type":"Bearer","expires_in":3600}',
    ],
    [
      'client_id=desk&client_secret=s3cr3t&grant_type=client_credentials',
      'client_id=desk&client_secret=[redacted]&grant_type=client_credentials',
    ],
    ['{\\"clientSecret\\":\\"s3cr3t\\"}', '{\\"clientSecret\\":\\"[redacted]\\"}'],
    ['cvv: 123, password = hunter2', 'cvv: [redacted], password = [redacted]'],
  ])('%s → %s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('isSensitiveKey', () => {
  it.each([
    'cvv',
    'CVC',
    'cvv2',
    'securityCode',
    'security_code',
    'password',
    'secret',
    'clientSecret',
    'client_secret',
    'token',
    'accessToken',
    'access_token',
    'authorization',
    'Authorization',
    'cardCvv',
    'webhookSecret',
    'refresh_token',
  ])('%s is sensitive', (key) => {
    expect(isSensitiveKey(key)).toBe(true);
  });
  it.each([
    'amount',
    'requestId',
    'tokenType',
    'token_type',
    'status',
    'last4',
    'brand',
    'idempotencyKey',
    'publishableKey',
  ])('%s is not', (key) => {
    expect(isSensitiveKey(key)).toBe(false);
  });
});

describe('redact: deep values', () => {
  it('walks objects and arrays at any depth, leaves the input untouched', () => {
    const input = { a: [{ b: { c: ['x 4242424242424242', { cvv: 123 }] } }], amount: 123456, ok: true, none: null };
    const copy = structuredClone(input);
    expect(redact(input)).toEqual({
      a: [{ b: { c: ['x [card]', { cvv: '[redacted]' }] } }],
      amount: 123456,
      ok: true,
      none: null,
    });
    expect(input).toEqual(copy);
  });

  it('card numbers given as numbers or bigints, not other numbers', () => {
    expect(redact({ n: 4242424242424242, b: 378282246310005n, amount: 123456, phone: 5512345678, ms: 1_000 })).toEqual({
      n: '[card]',
      b: '[card]',
      amount: 123456,
      phone: 5512345678,
      ms: 1_000,
    });
  });

  it('errors anywhere: serialized, message and stack scrubbed, causes included', () => {
    const error = Object.assign(new Error('card 4242424242424242', { cause: new Error('token=abc123') }), {
      code: 'E_PAY',
      secret: 'x',
    });
    const out = redact({ context: { error } }) as { context: { error: Record<string, unknown> } };
    expect(out.context.error).toMatchObject({
      type: 'Error',
      message: 'card [card]: token=[redacted]',
      code: 'E_PAY',
      secret: '[redacted]',
    });
    expect(String(out.context.error['stack'])).toMatch(/^Error: card \[card\]\n/);
    expect(String(out.context.error['stack'])).toMatch(/caused by: Error: token=\[redacted\]/);
  });

  it('bytes are never dumped; Maps and Sets are shown; cycles and depth are bounded', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    let deep: Record<string, unknown> = { leaf: '4242424242424242' };
    for (let i = 0; i < 20; i++) deep = { deep };
    const out = redact({
      bytes: Buffer.from('4242424242424242'),
      map: new Map<string, unknown>([
        ['pan', '4242424242424242'],
        ['x', 1],
      ]),
      set: new Set(['4242424242424242']),
      cyclic,
      deep,
      when: new Date(0),
    });
    expect(out).toMatchObject({
      bytes: '[binary, 16 bytes]',
      map: { pan: '[redacted]', x: 1 },
      set: ['[card]'],
      cyclic: { name: 'loop', self: '[Circular]' },
      when: new Date(0),
    });
    expect(JSON.stringify(out)).not.toContain('4242424242424242');
    expect(JSON.stringify(out)).toContain('[Too deep]');
  });

  it('the same object twice (not a cycle) is shown both times', () => {
    const shared = { id: 'x' };
    expect(redact({ a: shared, b: shared })).toEqual({ a: { id: 'x' }, b: { id: 'x' } });
  });
});

describe('redactLogArguments and redactLine', () => {
  it('an Error first becomes { err } so pino takes the scrubbed message from it', () => {
    const [first, ...rest] = redactLogArguments([new Error('pan 4242424242424242'), 'extra 4242 4242 4242 4242']);
    expect(first).toMatchObject({ err: { type: 'Error', message: 'pan [card]' } });
    expect(rest).toEqual(['extra [card]']);
  });

  it('a finished JSON line is scrubbed again, keeping it valid JSON', () => {
    const line = `${JSON.stringify({ level: 30, time: '2026-01-01T00:00:00.000Z', card: '4242424242424242', token: 'x', n: 4242424242424242 })}\n`;
    const out = redactLine(line);
    expect(out.endsWith('\n')).toBe(true);
    expect(JSON.parse(out)).toEqual({
      level: 30,
      time: '2026-01-01T00:00:00.000Z',
      card: '[card]',
      token: '[redacted]',
      n: '[card]',
    });
    expect(redactLine('not json 4242424242424242\n')).toBe('not json [card]\n');
  });
});
