// A whole day at the desk through the real door (createMainStack over a real data folder, the in-process simulator,
// the real pino logger writing its files into that folder), on the desk's own files and on a center's real PostgreSQL,
// with card numbers in every spelling of the table (dictated, any separator, like amounts, against letters, letters for
// digits, every brand) and CVV phrases typed into every free-text field of every channel that takes text: each refused
// with its field named. Then, with matchers of their own (the test cards' digits, the CVV phrases' letters and digits;
// never the detector under test), everything the day left is scanned: every file in the data folder (SQLite files with
// their WAL and SHM, logs, JSON, exports), every IPC answer and event, every request sent to the service, and on the
// center a pg_dump of its database. No card number, no CVV. Nothing is mocked.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import { CENTER_STORES } from '../../../main/center';
import type { SenderInfo } from '../../../main/ipc';
import { createLogger, type AppLogger } from '../../../main/logging';
import { centerStorage, DESK_LOCK_FILE } from '../../../main/storage';
import { reportToCsv, type EndOfDayReport } from '../../../shared/desk';
import type { PaymentView } from '../../../shared/ipc';
import { findCardData, TEXT_ISSUES } from '../../../shared/text';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { CARD_SPELLINGS, CVV_PHRASES, SPOKEN_CARD_SPELLINGS, SPOKEN_CVV_PHRASES } from '../../shared/text/spellings';
import { filesUnder, lettersAndDigits, pansIn, pansInFolder, readings } from '../support/card-scan';
import { asTheScreen } from '../../support/screen';
import { MIN_COST } from '../../../main/operators';

const run = promisify(execFile);

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };
const PASSWORDS = { ada: 'a long password 42', ana: 'agent password 1234', sam: 'supervisor pass 1234' } as const;
/** The cards keyed in the card form during the day: at rest, not even these may be found. */
const CARD_FORM_PANS = ['4242424242424242', '4000000000003220'];
/** The card form's CVVs, as a request or a record would hold them beside their name: "cvv":"123" reads cvv123. */
const CARD_FORM_CVVS = ['cvv123', 'cvv321', 'cvc123', 'cvc321'];
const DAY_CARD_SPELLINGS = [...CARD_SPELLINGS, ...SPOKEN_CARD_SPELLINGS];
const PANS = [...new Set([...DAY_CARD_SPELLINGS.map((s) => s.digits), ...CARD_FORM_PANS])];
/** The PANs only free text held: never in any request, not even the card form's. */
const TYPED_ONLY_PANS = PANS.filter((pan) => !CARD_FORM_PANS.includes(pan));
const YEAR = new Date().getUTCFullYear() + 3;

/** CVVs as typed after their name, with and without a colon, in English and Spanish, in full-width digits (all 14 in the unit tests). */
const DAY_CVVS = [0, 1, 4, 11].map((i) => CVV_PHRASES[i]).filter((p) => p !== undefined);
const ALL_DAY_CVVS = [...DAY_CVVS, ...SPOKEN_CVV_PHRASES];
/** A CVV phrase as the scan looks for it: its letters and digits, the code with its name (cvv123, codseg123). */
const CVV_MARKS = [...new Set([...ALL_DAY_CVVS.map((p) => lettersAndDigits(p.text).toLowerCase()), ...CARD_FORM_CVVS])];
/** The CVV phrases found in a text, by the scan's own matcher. */
const cvvsIn = (text: string): string[] => {
  const plain = lettersAndDigits(text).toLowerCase();
  return CVV_MARKS.filter((mark) => plain.includes(mark));
};

/** Spoken spellings and phrases given to each field, in turn: over the day's 30 fields, each one is typed several times. */
const SPOKEN_PER_FIELD = 12;
const SPOKEN_CVVS_PER_FIELD = 4;

/** `base` with `path` (a.b) set to `value`. */
function withField(base: Record<string, unknown>, path: string, value: string): Record<string, unknown> {
  const [head = '', ...rest] = path.split('.');
  return {
    ...base,
    [head]: rest.length === 0 ? value : withField((base[head] ?? {}) as Record<string, unknown>, rest.join('.'), value),
  };
}

/** A JSON object or array kept in a string (a journaled request body, the audit's details), or undefined. */
function openJson(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Every string in a value (keys too), JSON kept in strings opened to its own strings: text is what the detector reads.
 * Numbers are left to the byte scan (an amount list joined by commas is not text someone typed).
 */
function textLeaves(value: unknown): string[] {
  if (typeof value === 'string') {
    const inner = openJson(value);
    return inner === undefined ? [value] : textLeaves(inner);
  }
  if (Array.isArray(value)) return value.flatMap(textLeaves);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => [key, ...textLeaves(item)]);
  return [];
}

/** The card data the shared detector finds in these texts, each with where it was. */
const cardDataIn = (where: string, texts: readonly string[]): string[] =>
  texts.flatMap((text) => (findCardData(text).length > 0 ? [`${where}: ${JSON.stringify(text).slice(0, 120)}`] : []));

/** A request main sent, as it went out. */
interface SentRequest {
  method: string;
  url: string;
  headers: string;
  body: string;
}

/** What one day left behind, for the checks. */
interface Day {
  dir: string;
  /** Every answer main gave and every event it sent, as they would cross to the renderer. */
  crossed: unknown[];
  /** Every request main's fetch sent (the service, its tokens, messaging). */
  requests: SentRequest[];
  /** Refusals that were not the expected one: `channel field text → what came back`. */
  wrong: string[];
  refused: number;
  /** Fields of the contract the day typed card data into. */
  fieldsProbed: number;
  /** Every text typed into a field (to prove each spelling and phrase of the table was). */
  typed: Set<string>;
  /** What stopped the day early, if anything did. */
  dayError: unknown;
  /** What was scanned while the stack was still open (WAL and SHM files exist only then). */
  openScan: { files: string[]; found: string[] };
  /** The center's pg_dump (postgres only). */
  dump: string | undefined;
}

/** The day itself: what an admin, an agent and a supervisor type, card numbers everywhere they can type. */
async function runDay(stack: MainStack, logs: AppLogger, result: Day): Promise<void> {
  const { dir } = result;
  async function call<T = unknown>(
    channel: string,
    input: unknown,
  ): Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string; field?: string } }> {
    // As the screen calls: a charge names the charges of today shown, a refund the refunds shown (each answer read crossed too).
    const answer = await asTheScreen(
      async (c, i) => {
        const read = await stack.dispatch(c, sender, i);
        result.crossed.push(read);
        return read;
      },
      channel,
      input,
    );
    // As a careless handler would: every input and answer logged as it is. The logger's scrubbing must hold.
    logs.logger.info({ channel, input, result: answer }, 'call');
    return answer as never;
  }
  async function ok<T>(channel: string, input: unknown): Promise<T> {
    const answer = await call<T>(channel, input);
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.code} ${answer.error.message}`);
    return answer.value;
  }
  async function signInAs(id: keyof typeof PASSWORDS): Promise<void> {
    await call('session:signOut', {});
    await ok('session:signIn', { id, password: PASSWORDS[id] });
  }

  /**
   * The 20 spellings of the day, the next spoken spellings in turn, the day's CVV phrases and the next spoken ones,
   * typed into the field the way it would be typed there: refused, the field named, with the card code. `shape`
   * puts the text where that field takes it (an e-mail's local part).
   */
  async function refusesCardData(
    channel: string,
    base: Record<string, unknown>,
    field: string,
    shape: (text: string) => string = (text) => text,
  ): Promise<void> {
    const turn = result.fieldsProbed++;
    const spoken = Array.from(
      { length: SPOKEN_PER_FIELD },
      (_v, i) => SPOKEN_CARD_SPELLINGS[(turn * SPOKEN_PER_FIELD + i) % SPOKEN_CARD_SPELLINGS.length],
    );
    const spokenCvvs = Array.from(
      { length: SPOKEN_CVVS_PER_FIELD },
      (_v, i) => SPOKEN_CVV_PHRASES[(turn * SPOKEN_CVVS_PER_FIELD + i) % SPOKEN_CVV_PHRASES.length],
    );
    const probes = [
      ...[...CARD_SPELLINGS, ...spoken].flatMap((s) =>
        s === undefined ? [] : [{ text: s.text, code: 'card_number_in_text' as const }],
      ),
      ...[...DAY_CVVS, ...spokenCvvs].flatMap((p) =>
        p === undefined ? [] : [{ text: p.text, code: 'security_code_in_text' as const }],
      ),
    ];
    for (const probe of probes) {
      result.typed.add(probe.text);
      // A fresh operation or request id each time: were one accepted, the next would not be refused for reuse instead.
      const fresh = {
        ...base,
        ...('operationId' in base ? { operationId: randomUUID() } : {}),
        ...('requestId' in base && channel === 'refunds:request' ? { requestId: randomUUID() } : {}),
      };
      const answer = await call(channel, withField(fresh, field, shape(probe.text)));
      // The refusal is its code and field; the renderer's catalogues word it (no English crosses the door).
      const expected = { code: probe.code, field };
      if (
        !answer.ok &&
        answer.error.code === expected.code &&
        answer.error.message === undefined &&
        answer.error.field === expected.field
      )
        result.refused++;
      else
        result.wrong.push(
          `${channel} ${field} ${JSON.stringify(probe.text)} → ${JSON.stringify(answer).slice(0, 160)}`,
        );
    }
  }

  // --- Morning: IT's first admin, the accounts, the reservations file. ---
  const firstAdmin = { id: 'ada', displayName: 'Ada Admin', password: PASSWORDS.ada };
  await refusesCardData('session:createFirstAdmin', firstAdmin, 'id');
  await refusesCardData('session:createFirstAdmin', firstAdmin, 'displayName', (text) => `Ada ${text}`);
  await ok('session:createFirstAdmin', firstAdmin);

  const agent = { id: 'ana', displayName: 'Ana Agent', role: 'agent', password: PASSWORDS.ana };
  await refusesCardData('operators:create', agent, 'id');
  await refusesCardData('operators:create', agent, 'displayName', (text) => `Ana ${text}`);
  await ok('operators:create', agent);
  await ok('operators:create', {
    id: 'sam',
    displayName: 'Sam Supervisor',
    role: 'supervisor',
    password: PASSWORDS.sam,
  });
  await refusesCardData('operators:update', { id: 'ana', disabled: false }, 'id');
  await refusesCardData('operators:resetPassword', { id: 'ana', password: PASSWORDS.ana }, 'id');

  // A reservations file with a card number in a cell of each row: refused by line and column, nothing written.
  const header =
    'confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due,currency,guest_phone,guest_email';
  const columns = header.split(',');
  const rows = CSV_SPELLINGS.map(({ text }, i) => {
    const cells = [
      `DAY-${String(i).padStart(4, '0')}`,
      'Lucía Pérez',
      '2026-12-01',
      '2026-12-04',
      'Hotel Costa Turquesa',
      '1200.00',
      'mxn',
      '+52 998 123 4567',
      'lucia@example.mx',
    ];
    cells[i % columns.length] = text;
    return cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',');
  });
  const rejected = await ok<{ ok: boolean; errors: { line?: number; column?: string; message: string }[] }>(
    'reservations:importCsv',
    { csv: `${header}\n${rows.join('\n')}\n` },
  );
  expect(rejected.ok).toBe(false);
  expect(rejected.errors.map((e) => [e.line, e.column, e.message])).toEqual(
    CSV_SPELLINGS.map((_s, i) => [i + 2, columns[i % columns.length], TEXT_ISSUES.card_number_in_text]),
  );
  result.refused += rejected.errors.length;
  await ok('reservations:importCsv', {
    csv: `${header}\n"DAY-0001","Lucía Pérez","2026-12-01","2026-12-04","Hotel Costa Turquesa","1200.00","mxn","+52 998 123 4567","lucia@example.mx"\n`,
  });

  // --- The agent's day: sign-in, lookup, card, payments with notes, the 3DS link, a refund request. ---
  await call('session:signOut', {});
  await refusesCardData('session:signIn', { id: 'ana', password: PASSWORDS.ana }, 'id');
  await signInAs('ana');
  await refusesCardData('reservations:search', { text: 'Pérez' }, 'text');
  await refusesCardData('reservations:get', { reservationId: 'DAY-0001' }, 'reservationId');
  await refusesCardData('reservations:overview', { reservationId: 'DAY-0001' }, 'reservationId');
  expect(
    (
      await ok<{ reservations: { confirmationNumber: string }[] }>('reservations:search', { text: 'Pérez' })
    ).reservations.map((r) => r.confirmationNumber),
  ).toContain('DAY-0001');

  const tokenize = {
    operationId: randomUUID(),
    card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: YEAR, cvv: '123' },
    reservationId: 'DAY-0001',
  };
  await refusesCardData('payments:tokenize', tokenize, 'card.holderName', (text) => `Lucía ${text}`);
  await refusesCardData('payments:tokenize', tokenize, 'guestEmail', (text) => `${text}@example.mx`);
  await refusesCardData('payments:tokenize', tokenize, 'reservationId');
  const visa = await ok<{ id: string }>('payments:tokenize', {
    ...tokenize,
    card: { ...tokenize.card, holderName: 'Lucía Pérez' },
    guestEmail: 'lucia@example.mx',
  });
  const pay = {
    operationId: randomUUID(),
    methodId: visa.id,
    amountCents: 45000,
    currency: 'mxn',
    reservationId: 'DAY-0001',
  };
  await refusesCardData('payments:pay', pay, 'note', (text) => `Pagó con ${text}, llamar después`);
  await refusesCardData('payments:pay', pay, 'reservationId');
  let paid = await ok<PaymentView>('payments:pay', { ...pay, note: 'Depósito de la estancia; tel. +52 998 123 4567' });
  for (let i = 0; i < 100 && paid.status !== 'succeeded'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    paid = await ok<PaymentView>('payments:get', { paymentId: paid.id });
  }
  expect(paid.status).toBe('succeeded');

  // A card that asks the cardholder (3DS): the link goes by SMS or e-mail, never to a card number.
  const challenge = await ok<{ id: string }>('payments:tokenize', {
    operationId: randomUUID(),
    card: { number: '4000000000003220', expMonth: 12, expYear: YEAR, cvv: '321' },
    reservationId: 'DAY-0001',
  });
  const pending = await ok<PaymentView>('payments:pay', {
    operationId: randomUUID(),
    methodId: challenge.id,
    amountCents: 30000,
    currency: 'mxn',
    reservationId: 'DAY-0001',
  });
  expect(pending.status).toBe('requires_action');
  const link = { paymentId: pending.id, channel: 'sms', destination: '+52 998 123 4567', language: 'es-MX' };
  await refusesCardData('messaging:sendLink', link, 'destination');
  await refusesCardData(
    'messaging:sendLink',
    { ...link, channel: 'email' },
    'destination',
    (text) => `${text}@example.mx`,
  );
  expect(await ok<{ status: string }>('messaging:sendLink', link)).toMatchObject({ status: 'sent' });
  await ok('messaging:outbox', {});

  const request = { requestId: randomUUID(), paymentId: paid.id, amountCents: 10000, reason: 'duplicate' };
  await refusesCardData('refunds:request', request, 'note', (text) => `Cargo duplicado, tarjeta ${text}`);
  await ok('refunds:request', { ...request, note: 'Cargo duplicado según la huésped' });
  const overrideRequest = {
    requestId: randomUUID(),
    paymentId: paid.id,
    amountCents: 5000,
    reason: 'requested_by_customer',
    note: 'Ajuste de tarifa',
  };
  await ok('refunds:request', overrideRequest);
  await refusesCardData(
    'refunds:override',
    { requestId: overrideRequest.requestId, approverId: 'sam', approverPassword: PASSWORDS.sam },
    'approverId',
  );

  // --- The supervisor: the queue, a rejection, the payments search, the audit trail and its export, the report. ---
  await signInAs('sam');
  await refusesCardData(
    'refunds:reject',
    { requestId: request.requestId, note: 'x' },
    'note',
    (text) => `No procede; la huésped dictó ${text}`,
  );
  await ok('refunds:reject', { requestId: request.requestId, note: 'No procede: el cargo es correcto' });
  await ok('refunds:approve', { requestId: overrideRequest.requestId });
  await ok('refunds:queue', { status: 'all' });
  for (const field of ['reservationId', 'paymentId', 'guestName', 'operatorId'])
    await refusesCardData('payments:search', {}, field);
  expect(
    (await ok<{ payments: unknown[] }>('payments:search', { guestName: 'Pérez' })).payments.length,
  ).toBeGreaterThan(0);
  for (const field of ['actor', 'action', 'resource']) {
    await refusesCardData('audit:list', {}, field);
    await refusesCardData('audit:exportCsv', {}, field);
  }
  await ok('audit:list', { limit: 500 });
  const exported = await ok<{ csv: string }>('audit:exportCsv', {});
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  const report = await ok<EndOfDayReport>('reports:endOfDay', { date: day });
  // The desk saves its exports where the supervisor chooses; here, in the data folder, to be scanned with the rest.
  mkdirSync(join(dir, 'exports'));
  writeFileSync(join(dir, 'exports', 'audit.csv'), exported.csv);
  writeFileSync(join(dir, 'exports', 'end-of-day.csv'), reportToCsv(report));
  await call('session:signOut', {});
}

/**
 * The spellings typed into the reservations file, one a row: the spoken ones first, those without a line break in them
 * (a line break inside a quoted cell moves every later row's line number), then the 20 of the day (only the last has one).
 */
const CSV_SPELLINGS = [
  ...SPOKEN_CARD_SPELLINGS.filter((s) => !/[\r\n\u0085\u2028\u2029]/.test(s.text)),
  ...CARD_SPELLINGS,
];

/** A request as fetch is given it, read without consuming it. */
async function capture(request: Request): Promise<SentRequest> {
  return {
    method: request.method,
    url: request.url,
    headers: JSON.stringify([...request.headers]),
    body: await request.clone().text(),
  };
}

/**
 * What a request carries that is not the card form's own card: every request whole, but the card-data host's POST
 * /methods without its body's card.number and card.cvv (the one place a card number and CVV are sent, to the service).
 */
function beyondTheCardForm(request: SentRequest): string {
  if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/methods'))
    return `${request.url} ${request.headers} ${request.body}`;
  const body = JSON.parse(request.body) as { card?: Record<string, unknown> };
  const card = { ...body.card };
  delete card['number'];
  delete card['cvv'];
  return `${request.url} ${request.headers} ${JSON.stringify({ ...body, card })}`;
}

describe.each(['embedded', 'center'] as const)(
  "a day with card numbers typed everywhere, on the desk's %s storage",
  (backend) => {
    let stack: MainStack;
    let logs: AppLogger;
    let center: TestCenter | undefined;
    const result: Day = {
      dir: '',
      crossed: [],
      requests: [],
      wrong: [],
      refused: 0,
      fieldsProbed: 0,
      typed: new Set(),
      dayError: undefined,
      openScan: { files: [], found: [] },
      dump: undefined,
    };

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'card-data-day-'));
      result.dir = dir;
      if (backend === 'center') center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
      logs = await createLogger({ dir: join(dir, 'logs') });
      // Every request main sends goes through this fetch: each one kept as it went out.
      const capturing: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        result.requests.push(await capture(request));
        return fetch(request);
      };
      stack = await createMainStack({
        passwordCost: MIN_COST,
        dataDir: dir,
        version: 'test',
        fetch: capturing,
        isTrustedSender: () => true,
        service: { environment: 'training', simulator: { processingDelayMs: 0, refundDelayMs: 0 } },
        logger: logs.logger,
        ...(center === undefined ? {} : { storage: centerStorage(center.app) }),
        // The app logs only an error's name; here the whole error goes to the log, so that its scrubbing is tested too.
        onUnexpectedError: (channel, error) =>
          logs.logger.error({ channel, error }, 'unexpected error behind a channel'),
      });
      stack.onEvent((event, payload) => {
        result.crossed.push({ event, payload });
        logs.logger.info({ event, payload }, 'event');
      });

      try {
        await runDay(stack, logs, result);
      } catch (error) {
        // The scans below run whatever happened: what a broken day left on disk is what they must find.
        result.dayError = error;
      }

      // While the databases are open their WAL and SHM files exist: scanned now, and again once closed.
      await logs.flush();
      result.openScan = { files: filesUnder(dir).map((f) => f.path), found: pansInFolder(dir, PANS) };
      await stack.close();
      await logs.close();
      if (center !== undefined) {
        // The whole center database as IT would back it up: schemas and every row, plain SQL.
        const { stdout } = await run(
          join(center.server.bin, 'pg_dump'),
          ['--no-owner', '--dbname', center.database.url],
          { maxBuffer: 256 * 1024 * 1024 },
        );
        result.dump = stdout;
      }
    }, 300_000);

    afterAll(async () => {
      await center?.drop();
      rmSync(result.dir, { recursive: true, force: true });
    });

    it('every card number and CVV typed into free text was refused, its field named, with the card code', () => {
      expect(result.dayError).toBeUndefined();
      expect(result.wrong).toEqual([]);
      // 30 fields × (20 + 12 spellings, 4 + 4 CVV phrases), and the rows of the reservations file.
      expect(result.fieldsProbed).toBe(30);
      expect(DAY_CVVS).toHaveLength(4);
      const perField = CARD_SPELLINGS.length + SPOKEN_PER_FIELD + DAY_CVVS.length + SPOKEN_CVVS_PER_FIELD;
      expect(result.refused).toBe(result.fieldsProbed * perField + CSV_SPELLINGS.length);
      // Every spelling and phrase of the table was typed somewhere.
      expect(DAY_CARD_SPELLINGS.filter((s) => !result.typed.has(s.text)).map((s) => s.name)).toEqual([]);
      expect(ALL_DAY_CVVS.filter((p) => !result.typed.has(p.text)).map((p) => p.text)).toEqual([]);
    });

    it('no file in the data folder holds a card number or CVV — SQLite with its WAL and SHM while open, logs, JSON, exports', () => {
      if (backend === 'embedded') {
        expect(result.openScan.files.some((f) => f.endsWith('-wal'))).toBe(true);
        expect(result.openScan.files.some((f) => f.endsWith('-shm'))).toBe(true);
      }
      expect(result.openScan.found).toEqual([]);
      const files = filesUnder(result.dir).map((f) => f.path);
      const stores = [
        'journal.db',
        'audit.db',
        'refund-requests.db',
        'operators.db',
        'reservations-training.db',
        'audit-head.json',
      ];
      for (const expected of [...(backend === 'embedded' ? stores : []), 'exports/audit.csv', 'exports/end-of-day.csv'])
        expect(files).toContain(expected);
      expect(files.some((f) => /^logs\/app\.\d+\.log$/.test(f))).toBe(true);
      expect(pansInFolder(result.dir, PANS)).toEqual([]);
      const cvvs = filesUnder(result.dir).flatMap(({ path, bytes }) =>
        [...new Set(readings(bytes).flatMap(cvvsIn))].map((mark) => `${path}: ${mark}`),
      );
      expect(cvvs).toEqual([]);
    });

    it('the scan reads what the day wrote: its ordinary words are found in the very files scanned', () => {
      const log = filesUnder(join(result.dir, 'logs'))
        .map((f) => f.bytes.toString('utf8'))
        .join('');
      expect(log).toContain('"channel":"payments:pay"');
      // The careless log of every call kept the calls, scrubbed: a spelled card became [card], a CVV [redacted].
      expect(log).toContain('[card]');
      expect(log).toContain('[redacted]');
      // …and the scan's matchers see a card and a CVV phrase in it when they are there.
      expect(pansIn(`${log} 4242-4242-4242-4242`, PANS)).toEqual(['4242424242424242']);
      expect(cvvsIn(`${log} ${SPOKEN_CVV_PHRASES[0]?.text ?? ''}`)).toEqual([
        lettersAndDigits(SPOKEN_CVV_PHRASES[0]?.text ?? '').toLowerCase(),
      ]);
      if (backend === 'center') return;
      const words = (name: string): string =>
        readings(readFileSync(join(result.dir, name)))
          .map(lettersAndDigits)
          .join(' ');
      expect(words('journal.db')).toContain('Depósitodelaestancia');
      expect(words('refund-requests.db')).toContain('Cargoduplicadosegúnlahuésped');
      expect(words('audit.db')).toContain('Noprocedeelcargoescorrecto');
    });

    it('the shared detector finds no card number or CVV in any text at rest: every SQLite value, log line, JSON file and export cell', () => {
      const found: string[] = [];
      for (const { path, bytes } of filesUnder(result.dir)) {
        if (path.endsWith('.db')) {
          const db = new Database(join(result.dir, path), { readonly: true });
          const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
          for (const { name } of tables)
            found.push(...cardDataIn(`${path} ${name}`, textLeaves(db.prepare(`SELECT * FROM "${name}"`).all())));
          db.close();
        } else if (path.endsWith('.log')) {
          for (const line of bytes.toString('utf8').split('\n').filter(Boolean))
            found.push(...cardDataIn(path, textLeaves(JSON.parse(line) as unknown)));
        } else if (path.endsWith('.json')) {
          found.push(...cardDataIn(path, textLeaves(JSON.parse(bytes.toString('utf8')) as unknown)));
        } else if (path.endsWith('.csv')) {
          found.push(...cardDataIn(path, textLeaves(parse(bytes.toString('utf8'), { relax_column_count: true }))));
        } else if (path === DESK_LOCK_FILE) {
          // The running desk's lock (an empty SQLite file it holds locked, main/storage/desk-lock.ts): read as its bytes.
          found.push(...cardDataIn(path, [bytes.toString('latin1')]));
        } else {
          found.push(`${path}: a file the scan does not know how to read as text`);
        }
      }
      expect(found).toEqual([]);
    });

    it('no IPC answer or event that crossed to the renderer holds a card number or CVV', () => {
      expect(result.crossed.length).toBeGreaterThan(1200);
      expect(result.crossed.some((c) => typeof c === 'object' && c !== null && 'event' in c)).toBe(true);
      expect(cardDataIn('ipc', textLeaves(result.crossed))).toEqual([]);
      const everything = JSON.stringify(result.crossed);
      expect(pansIn(everything, PANS)).toEqual([]);
      expect(cvvsIn(everything)).toEqual([]);
    });

    it('no request sent to the service holds a card number or CVV typed as text; the card form’s card went only to tokenize', () => {
      const paths = result.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);
      // The day's requests are all there: tokens, tokenization, payments and their reads, the refund, the link by SMS.
      for (const [method, path] of [
        ['POST', '/oauth2/token'],
        ['POST', '/methods'],
        ['POST', '/payments'],
      ]) {
        expect([method, path, paths.some((p) => p.startsWith(`${method} `) && p.endsWith(path ?? ''))]).toEqual([
          method,
          path,
          true,
        ]);
      }
      expect(result.requests.length).toBeGreaterThan(10);
      // The card form's card reached the service in the tokenization's body, as it must: the capture sees cards.
      expect(result.requests.flatMap((r) => pansIn(r.body, CARD_FORM_PANS))).toEqual(
        expect.arrayContaining(CARD_FORM_PANS),
      );
      const leaks = result.requests.flatMap((r) => {
        const all = `${r.url} ${r.headers} ${r.body}`;
        const beyond = beyondTheCardForm(r);
        return [...pansIn(all, TYPED_ONLY_PANS), ...pansIn(beyond, CARD_FORM_PANS), ...cvvsIn(beyond)].map(
          (found) => `${r.method} ${r.url}: ${found}`,
        );
      });
      expect(leaks).toEqual([]);
    });

    it.runIf(backend === 'center')("the center's pg_dump holds no card number or CVV, and holds the day", () => {
      const dump = result.dump ?? '';
      expect(dump).toContain('Depósito de la estancia');
      expect(dump).toContain('Cargo duplicado según la huésped');
      expect(dump).toContain('No procede: el cargo es correcto');
      expect(pansIn(dump, PANS)).toEqual([]);
      expect(cvvsIn(dump)).toEqual([]);
    });
  },
);

describe('the scan itself', () => {
  it('would find a card number left in a SQLite WAL, in UTF-16 text, and in a log line — so its silence above means something', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'card-scan-'));
    try {
      const db = new Database(join(scratch, 'leak.db'));
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE t (note TEXT)');
      db.prepare('INSERT INTO t VALUES (?)').run(`nota ${CARD_SPELLINGS[12]?.text ?? ''}`);
      expect(pansInFolder(scratch, PANS).some((found) => found.startsWith('leak.db-wal: '))).toBe(true);
      db.close();
      writeFileSync(join(scratch, 'utf16.txt'), Buffer.from(`x ${CARD_SPELLINGS[14]?.text ?? ''} y`, 'utf16le'));
      writeFileSync(
        join(scratch, 'odd.txt'),
        Buffer.concat([Buffer.from([0]), Buffer.from(`x ${CARD_SPELLINGS[3]?.text ?? ''} y`, 'utf16le')]),
      );
      const found = pansInFolder(scratch, PANS);
      expect(found).toEqual(
        expect.arrayContaining([`utf16.txt: ${CARD_SPELLINGS[14]?.digits}`, `odd.txt: ${CARD_SPELLINGS[3]?.digits}`]),
      );
      expect(
        cardDataIn('log', textLeaves(JSON.parse(JSON.stringify({ msg: `cvv ${'\u0031\u0032\u0033'}` })) as unknown)),
      ).toHaveLength(1);
      // A CVV phrase is found by its letters and digits, however it was spaced or dotted.
      expect(cvvsIn('{"note":"el C.V.V.: 456"}')).toEqual(['cvv456']);
      // Bytes that are no text are not taken for a card: 1 MB of them, in every reading.
      writeFileSync(
        join(scratch, 'random.bin'),
        Buffer.from(Array.from({ length: 1 << 20 }, (_v, i) => (i * 2654435761) >>> 24)),
      );
      expect(pansInFolder(scratch, PANS).filter((f) => f.startsWith('random.bin'))).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
