// The REST adapter against a real local HTTP server: paths, query, field mapping, the auth header, timeouts, and each error kind.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_SEARCH_RESULTS, ReservationView } from '../../../shared/reservations';
import {
  MAX_RESPONSE_BYTES,
  MIN_TIMEOUT_MS,
  RestReservationSource,
  type RestSourceConfig,
} from '../../../main/reservations';
import type { z } from 'zod';
import { expectCode, plain, reservation } from './helpers';
import { closedPort, json, startPartner, type PartnerServer } from './partner-server';
import { SecretError } from '../../../main/secrets';

type Config = Omit<z.input<typeof RestSourceConfig>, 'kind' | 'baseUrl'>;

const SECRET = 'Bearer sk_partner_7Hq2-Zx9/PLk+vW==';

let partner: PartnerServer;
const sources: RestReservationSource[] = [];

beforeEach(async () => {
  partner = await startPartner('/pms/api/v2');
});
afterEach(async () => {
  for (const source of sources.splice(0)) await source.close();
  await partner.close();
  vi.restoreAllMocks();
});

/** `secret` null: no getter at all. */
function source(
  config: Config = {},
  secret: (() => string | undefined | Promise<string | undefined>) | null = () => SECRET,
  baseUrl = partner.baseUrl,
): RestReservationSource {
  const made = new RestReservationSource(
    { kind: 'rest', baseUrl, ...config },
    secret === null ? { fetch } : { secret, fetch },
  );
  sources.push(made);
  return made;
}

/** The partner's own shape, as a real PMS might send it. */
const partnerRecord = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  ref: 'CUN-7F3K2A',
  guest: { fullName: 'Sofía Núñez Ortega', contact: { phone: '+52 998 123 4567', mail: 'Sofia.Nunez@example.mx' } },
  stay: { arrival: '2027-01-10T15:00:00-06:00', departure: '2027-01-14' },
  property: { name: 'Hotel Costa Turquesa Cancún' },
  folio: { balance: '12450.50', currency: 'MXN' },
  ...overrides,
});

const PARTNER_MAPPING: Config = {
  searchPath: '/reservations/search',
  queryParam: 'term',
  getPath: '/reservations/{id}/summary',
  resultsPath: 'data.items',
  recordPath: 'data',
  authHeader: 'X-Api-Key',
  mapping: {
    confirmationNumber: 'ref',
    guestName: 'guest.fullName',
    guestPhone: 'guest.contact.phone',
    guestEmail: 'guest.contact.mail',
    checkIn: 'stay.arrival',
    checkOut: 'stay.departure',
    hotelName: 'property.name',
    balanceDue: 'folio.balance',
    currency: 'folio.currency',
  },
};

const SOFIA: ReservationView = {
  confirmationNumber: 'CUN-7F3K2A',
  guestName: 'Sofía Núñez Ortega',
  checkIn: '2027-01-10',
  checkOut: '2027-01-14',
  hotelName: 'Hotel Costa Turquesa Cancún',
  balanceDueCents: 1_245_050,
  currency: 'mxn',
  guestPhone: '+529981234567',
  guestEmail: 'Sofia.Nunez@example.mx',
  guestLanguage: 'es-MX',
  guestLanguageFrom: 'phone',
};

describe('search', () => {
  it('sends the text to the search path under the base path, and maps the partner fields', async () => {
    partner.handle((_req, res) => json(res, 200, { data: { items: [partnerRecord()] } }));
    expect(await source(PARTNER_MAPPING).search({ text: '  Núñez & Co ' })).toEqual([SOFIA]);
    expect(partner.requests).toHaveLength(1);
    const [request] = partner.requests;
    expect(request?.method).toBe('GET');
    const url = new URL(request?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/pms/api/v2/reservations/search');
    expect(url.searchParams.get('term')).toBe('Núñez & Co');
    expect(request?.headers.accept).toBe('application/json');
  });

  it('reads our own field names when no mapping is given, from a plain list', async () => {
    partner.handle((_req, res) => json(res, 200, [plain(reservation())]));
    expect(await source().search({ text: 'ana' })).toEqual([reservation()]);
    expect(new URL(partner.requests[0]?.url ?? '', 'http://x').pathname).toBe('/pms/api/v2/reservations');
    expect(new URL(partner.requests[0]?.url ?? '', 'http://x').searchParams.get('q')).toBe('ana');
  });

  it('reads balances in cents when told so', async () => {
    partner.handle((_req, res) => json(res, 200, [{ ...plain(reservation()), balanceDue: 1_245_050 }]));
    expect((await source({ amountsInMinorUnits: true }).search({ text: 'ana' }))[0]?.balanceDueCents).toBe(1_245_050);
  });

  it('keeps the balance in cents, converted once from the major units the partner writes', async () => {
    partner.handle((_req, res) =>
      json(res, 200, { data: { items: [partnerRecord({ folio: { balance: 0.3, currency: 'usd' } })] } }),
    );
    expect((await source(PARTNER_MAPPING).search({ text: 'sofia' }))[0]).toMatchObject({
      balanceDueCents: 30,
      currency: 'usd',
    });
  });

  it('skips a record whose balance has more than two decimals, naming the field', async () => {
    partner.handle((_req, res) =>
      json(res, 200, { data: { items: [partnerRecord({ folio: { balance: 10.005, currency: 'mxn' } })] } }),
    );
    const error = await expectCode(() => source(PARTNER_MAPPING).search({ text: 'sofia' }), 'bad_response');
    expect(error.message).toMatch(
      /the balance due \(their field "folio.balance"\) is not in a form the app understands/,
    );
  });

  it.each([
    ['en', 'en-US', 'reservation'],
    ['ES-mx', 'es-MX', 'reservation'],
    ['English', 'en-US', 'reservation'],
    ['fr', 'es-MX', 'phone'],
    [undefined, 'es-MX', 'phone'],
  ])(
    "reads the guest's language %s from the mapped field, else from the phone's country",
    async (language, guestLanguage, from) => {
      partner.handle((_req, res) =>
        json(res, 200, {
          data: { items: [partnerRecord(language === undefined ? {} : { prefs: { lang: language } })] },
        }),
      );
      const found = await source({
        ...PARTNER_MAPPING,
        mapping: { ...PARTNER_MAPPING.mapping, guestLanguage: 'prefs.lang' },
      }).search({ text: 'sofia' });
      expect(found[0]).toMatchObject({ guestLanguage, guestLanguageFrom: from });
    },
  );

  it('ranks the partner answer by our rules, drops duplicates, and keeps at most 20', async () => {
    const others = Array.from({ length: 30 }, (_, i) =>
      plain(reservation({ confirmationNumber: `OTHER-${i}`, guestName: `Carlos Villalópez ${i}` })),
    );
    partner.handle((_req, res) =>
      json(res, 200, [
        ...others,
        plain(reservation({ confirmationNumber: 'WORD', guestName: 'Ana López Ruiz' })),
        plain(reservation({ confirmationNumber: 'lopez', guestName: 'Mario Díaz' })),
        plain(reservation({ confirmationNumber: 'LOPEZ', guestName: 'Mario Díaz' })),
      ]),
    );
    const found = await source().search({ text: 'lopez' });
    expect(found).toHaveLength(MAX_SEARCH_RESULTS);
    expect(found.slice(0, 3).map((r) => r.confirmationNumber)).toEqual(['LOPEZ', 'WORD', 'OTHER-0']);
  });

  it('leaves out a phone or e-mail it cannot use, and skips one unreadable record among good ones', async () => {
    partner.handle((_req, res) =>
      json(res, 200, {
        data: {
          items: [
            partnerRecord({
              guest: { fullName: 'Ana Díaz', contact: { phone: '998 123 4567', mail: 'not-an-email' } },
            }),
            partnerRecord({ ref: 'X-2', property: {} }),
          ],
        },
      }),
    );
    const found = await source(PARTNER_MAPPING).search({ text: 'ana' });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ guestName: 'Ana Díaz' });
    expect(found[0]).not.toHaveProperty('guestPhone');
    expect(found[0]).not.toHaveProperty('guestEmail');
  });

  it('returns [] for an empty answer', async () => {
    partner.handle((_req, res) => json(res, 200, { data: { items: [] } }));
    expect(await source(PARTNER_MAPPING).search({ text: 'nadie' })).toEqual([]);
  });

  it('refuses a bad search text before sending anything', async () => {
    await expectCode(() => source().search({ text: 'a' }), 'invalid_query');
    expect(partner.requests).toHaveLength(0);
  });
});

describe('get', () => {
  it('asks the get path with the number URL-encoded, and reads the record where the mapping says', async () => {
    partner.handle((_req, res) => json(res, 200, { data: partnerRecord({ ref: 'CUN/7F 3K#2A' }) }));
    expect(await source(PARTNER_MAPPING).get('cun/7f 3k#2a')).toEqual({ ...SOFIA, confirmationNumber: 'CUN/7F 3K#2A' });
    expect(partner.requests[0]?.url).toBe('/pms/api/v2/reservations/cun%2F7f%203k%232a/summary');
  });

  it('answers undefined for 404, or for an empty record', async () => {
    partner.handle((_req, res) => json(res, 404, { error: 'not found' }));
    expect(await source(PARTNER_MAPPING).get('NOPE-1')).toBeUndefined();
    partner.handle((_req, res) => json(res, 200, { data: null }));
    expect(await source(PARTNER_MAPPING).get('NOPE-1')).toBeUndefined();
  });

  it('refuses an answer about another reservation', async () => {
    partner.handle((_req, res) => json(res, 200, { data: partnerRecord({ ref: 'OTHER-1' }) }));
    const error = await expectCode(() => source(PARTNER_MAPPING).get('CUN-7F3K2A'), 'bad_response');
    expect(error.message).toMatch(/different reservation/);
  });
});

describe('the auth header', () => {
  it('is sent exactly as the secret getter gives it, read again for every request', async () => {
    let secret = SECRET;
    const getter = vi.fn(() => Promise.resolve(secret));
    partner.handle((_req, res) => json(res, 200, { data: { items: [] } }));
    const rest = source(PARTNER_MAPPING, getter);
    await rest.search({ text: 'ana' });
    secret = 'rotated-key-2';
    await rest.search({ text: 'ana' });
    expect(partner.requests.map((r) => r.headers['x-api-key'])).toEqual([SECRET, 'rotated-key-2']);
    expect(getter).toHaveBeenCalledTimes(2);
  });

  it('is not sent, nor the secret read, when no header is configured', async () => {
    const getter = vi.fn(() => SECRET);
    partner.handle((_req, res) => json(res, 200, []));
    await source({}, getter).search({ text: 'ana' });
    expect(getter).not.toHaveBeenCalled();
    expect(JSON.stringify(partner.requests[0]?.headers)).not.toContain('sk_partner');
  });

  it.each([
    ['no getter', null],
    ['an empty secret', () => ''],
    ['no secret stored', () => undefined],
    ['a secret store that fails', () => Promise.reject(new Error(`cannot decrypt ${SECRET}`))],
  ])('with %s, nothing is sent and IT is asked to set it up', async (_, getter) => {
    const error = await expectCode(
      () => source({ authHeader: 'Authorization' }, getter).search({ text: 'ana' }),
      'configuration',
    );
    expect(error.message).toMatch(/access key for the reservation system is not set up.*Tell IT/);
    expect(error.message).not.toContain('sk_partner');
    expect(partner.requests).toHaveLength(0);
  });

  it("passes on the secret store's own error (it says what IT must do, never the key); nothing is sent", async () => {
    const undecryptable = new SecretError('needs_reprovisioning', {
      secret: 'reservationsApiKey',
      reason: 'undecryptable',
    });
    await expect(
      source({ authHeader: 'Authorization' }, () => Promise.reject(undecryptable)).search({ text: 'ana' }),
    ).rejects.toBe(undecryptable);
    expect(partner.requests).toHaveLength(0);
  });

  it('refuses a secret that would split the header, without quoting it', async () => {
    const error = await expectCode(
      () => source({ authHeader: 'Authorization' }, () => `${SECRET}\r\nX-Evil: 1`).search({ text: 'ana' }),
      'configuration',
    );
    expect(error.message).toMatch(/cannot be sent/);
    expect(error.message).not.toContain('sk_partner');
    expect(partner.requests).toHaveLength(0);
  });
});

describe('errors an agent understands, without URL or secret', () => {
  const errorCases: [string, number, string][] = [
    ['401', 401, 'unauthorized'],
    ['403', 403, 'unauthorized'],
    ['500', 500, 'unavailable'],
    ['503', 503, 'unavailable'],
    ['429', 429, 'unavailable'],
    ['400', 400, 'rejected'],
    ['404 on search', 404, 'rejected'],
  ];

  it.each(errorCases)('HTTP %s', async (_, status, code) => {
    // The partner echoes what it got, secret included: none of it may reach the message.
    partner.handle((req, res) =>
      json(res, status, { error: `bad key ${String(req.headers.authorization)}`, url: req.url }),
    );
    const error = await expectCode(
      () => source({ authHeader: 'Authorization' }).search({ text: 'ana' }),
      code as 'unauthorized',
    );
    expect(error.toIpcError()).toEqual({ code, params: { status } });
    expect(error.status).toBe(status);
    expectClean(error.message);
  });

  it('answers that are not JSON', async () => {
    partner.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Login</html>');
    });
    const error = await expectCode(() => source().search({ text: 'ana' }), 'bad_response');
    expect(error.message).toMatch(/cannot read: it is not JSON.*field mapping/);
  });

  it('a list that is not where the mapping says', async () => {
    partner.handle((_req, res) => json(res, 200, { results: [] }));
    const error = await expectCode(() => source(PARTNER_MAPPING).search({ text: 'ana' }), 'bad_response');
    expect(error.message).toMatch(/list of reservations \(their field "data.items"\) is missing/);
  });

  it('an answer that is not a list', async () => {
    partner.handle((_req, res) => json(res, 200, { data: { items: [partnerRecord()] } }));
    await expectCode(() => source().search({ text: 'ana' }), 'bad_response');
  });

  it('records that do not fit the mapping name our field and theirs, never the value', async () => {
    partner.handle((_req, res) =>
      json(res, 200, { data: { items: [partnerRecord({ guest: { name: 'Zyxwvuts Qponm' } })] } }),
    );
    const error = await expectCode(() => source(PARTNER_MAPPING).search({ text: 'ana' }), 'bad_response');
    expect(error.message).toBe(
      `The reservation system sent an answer the app cannot read: the guest's name (their field "guest.fullName") is missing. Tell IT to check the reservation system settings (field mapping).`,
    );
    partner.handle((_req, res) =>
      json(res, 200, { data: { items: [partnerRecord({ folio: { balance: 'Zyxwvuts', currency: 'MXN' } })] } }),
    );
    const wrongForm = await expectCode(() => source(PARTNER_MAPPING).search({ text: 'ana' }), 'bad_response');
    expect(wrongForm.message).toMatch(
      /the balance due \(their field "folio.balance"\) is not in a form the app understands/,
    );
    expect(wrongForm.message).not.toContain('Zyxwvuts');
  });

  it('a record holding a card number or CVV, in any field and any spelling, is never shown: its field is named, never its value', async () => {
    const { CARD_SPELLINGS } = await import('../../shared/text/spellings');
    const places: [string, (text: string) => Record<string, unknown>][] = [
      [
        'the guest\'s name (their field "guest.fullName")',
        (text) => ({ guest: { fullName: `Sofía ${text}`, contact: { phone: '+52 998 123 4567' } } }),
      ],
      [
        'the guest\'s phone (their field "guest.contact.phone")',
        (text) => ({ guest: { fullName: 'Sofía', contact: { phone: text } } }),
      ],
      [
        'the guest\'s e-mail (their field "guest.contact.mail")',
        (text) => ({ guest: { fullName: 'Sofía', contact: { mail: `${text}@example.mx` } } }),
      ],
      ['the hotel name (their field "property.name")', (text) => ({ property: { name: `Hotel ${text}` } })],
      ['the confirmation number (their field "ref")', (text) => ({ ref: text })],
      ['the balance due (their field "folio.balance")', (text) => ({ folio: { balance: text, currency: 'MXN' } })],
    ];
    for (const [i, spelling] of CARD_SPELLINGS.entries()) {
      const [label, make] = places[i % places.length] ?? places[0]!;
      partner.handle((_req, res) => json(res, 200, { data: { items: [partnerRecord(make(spelling.text))] } }));
      const error = await expectCode(() => source(PARTNER_MAPPING).search({ text: 'sofia' }), 'bad_response');
      expect(error.message, spelling.name).toBe(
        `The reservation system sent a reservation in which ${label} looks like a card number: it is not shown. Tell IT: card numbers must never be kept in reservations.`,
      );
      // Beside a good record, it is left out and the good one is shown.
      partner.handle((_req, res) =>
        json(res, 200, { data: { items: [partnerRecord(make(spelling.text)), partnerRecord({ ref: 'CUN-OK0001' })] } }),
      );
      expect((await source(PARTNER_MAPPING).search({ text: 'sofia' })).map((r) => r.confirmationNumber)).toEqual([
        'CUN-OK0001',
      ]);
    }
    partner.handle((_req, res) => json(res, 200, { data: partnerRecord({ guest: { fullName: 'Sofía cvv: 123' } }) }));
    const cvv = await expectCode(() => source(PARTNER_MAPPING).get('CUN-7F3K2A'), 'bad_response');
    expect(cvv.message).toBe(
      `The reservation system sent a reservation in which the guest's name (their field "guest.fullName") looks like a card’s security code: it is not shown. Tell IT: card data must never be kept in reservations.`,
    );
  });

  it('a redirect, which is not followed (it would carry the key elsewhere)', async () => {
    const elsewhere = await startPartner();
    try {
      partner.handle((_req, res) => {
        res.writeHead(302, { location: `${elsewhere.baseUrl}/steal` });
        res.end();
      });
      const error = await expectCode(
        () => source({ authHeader: 'Authorization' }).search({ text: 'ana' }),
        'bad_response',
      );
      expect(error.message).toMatch(/redirect \(HTTP 302\)/);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it(`an answer larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB, with or without a length`, async () => {
    const big = JSON.stringify([{ pad: 'x'.repeat(MAX_RESPONSE_BYTES) }]);
    partner.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(big);
    });
    expect((await expectCode(() => source().search({ text: 'ana' }), 'bad_response')).message).toMatch(/too large/);
    partner.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      for (let i = 0; i < big.length; i += 64 * 1024) res.write(big.slice(i, i + 64 * 1024));
      res.end();
    });
    expect((await expectCode(() => source().search({ text: 'ana' }), 'bad_response')).message).toMatch(/too large/);
  });

  it('a system that cannot be reached', async () => {
    const port = await closedPort();
    const error = await expectCode(
      () =>
        source({ authHeader: 'Authorization' }, () => SECRET, `http://localhost:${port}/pms`).search({ text: 'ana' }),
      'unreachable',
    );
    expect(error.toIpcError()).toEqual({ code: 'unreachable' });
    expectClean(error.message, port);
  });

  it('a system that does not answer in time', async () => {
    partner.handle(() => {
      // never answers
    });
    const started = Date.now();
    const error = await expectCode(
      () => source({ timeoutMs: MIN_TIMEOUT_MS, authHeader: 'Authorization' }).search({ text: 'ana' }),
      'timeout',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(MIN_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(MIN_TIMEOUT_MS + 2_000);
    expect(error.toIpcError()).toEqual({ code: 'timeout', params: { seconds: 1 } });
    expectClean(error.message);
  });

  it('a system that starts answering and then stalls', async () => {
    partner.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"confirmationNumber":');
    });
    await expectCode(() => source({ timeoutMs: MIN_TIMEOUT_MS }).search({ text: 'ana' }), 'timeout');
  });

  it('writes nothing to the console on any failure', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => undefined),
    );
    partner.handle((_req, res) => json(res, 401, {}));
    await expectCode(() => source({ authHeader: 'Authorization' }).search({ text: 'ana' }), 'unauthorized');
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  function expectClean(message: string, port = partner.port): void {
    expect(message).not.toContain('sk_partner');
    expect(message).not.toContain(SECRET);
    expect(message).not.toMatch(/https?:|127\.0\.0\.1|localhost|\/pms/);
    expect(message).not.toContain(String(port));
  }
});

describe('close', () => {
  it('aborts a request in flight, and refuses later ones', async () => {
    partner.handle(() => {
      // never answers
    });
    const rest = source({ timeoutMs: 30_000 });
    const pending = rest.search({ text: 'ana' });
    await vi.waitFor(() => expect(partner.requests).toHaveLength(1));
    await rest.close();
    await expectCode(() => pending, 'closed');
    await expectCode(() => rest.get('CUN-7F3K2A'), 'closed');
    expect(partner.requests).toHaveLength(1);
  });
});

describe('configuration', () => {
  it.each([
    [{ baseUrl: 'http://pms.example.com' }, /baseUrl must use https \(http is allowed only for localhost\)/],
    [{ baseUrl: 'https://user:pa55@pms.example.com' }, /baseUrl must not contain a user name or password/],
    [{ baseUrl: 'https://pms.example.com?key=1' }, /baseUrl must not contain a \?query/],
    [{ baseUrl: 'ftp://pms.example.com' }, /baseUrl must be an https URL/],
    [{ baseUrl: 'https://pms.example.com', getPath: '/reservations' }, /getPath must contain \{id\} once/],
    [
      { baseUrl: 'https://pms.example.com', searchPath: 'reservations' },
      /searchPath must be a path that starts with \//,
    ],
    [{ baseUrl: 'https://pms.example.com', authHeader: 'X Api Key' }, /authHeader must be an HTTP header name/],
    [{ baseUrl: 'https://pms.example.com', timeoutMs: 50 }, /timeoutMs must be at least 1000 ms/],
    [
      { baseUrl: 'https://pms.example.com', mapping: { guestName: 'guest..name' } },
      /mapping.guestName must be names separated by dots/,
    ],
    [
      { baseUrl: 'https://pms.example.com', mapping: { guest: 'x' } },
      /mapping cannot map "guest": the fields are confirmationNumber/,
    ],
  ])('%j is refused, the field named, the password never repeated', async (config, message) => {
    const error = await expectCode(
      () => new RestReservationSource({ kind: 'rest', ...config } as z.input<typeof RestSourceConfig>, { fetch }),
      'configuration',
    );
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('pa55');
  });

  it('accepts https anywhere and http on localhost, with the defaults filled in', () => {
    expect(
      new RestReservationSource({ kind: 'rest', baseUrl: 'https://pms.example.com/api' }, { fetch }).config,
    ).toMatchObject({
      searchPath: '/reservations',
      queryParam: 'q',
      getPath: '/reservations/{id}',
      timeoutMs: 10_000,
      amountsInMinorUnits: false,
      mapping: {},
    });
    for (const baseUrl of ['http://localhost:8080', 'http://127.0.0.1:9', 'http://[::1]:9']) {
      expect(() => new RestReservationSource({ kind: 'rest', baseUrl }, { fetch })).not.toThrow();
    }
  });
});
