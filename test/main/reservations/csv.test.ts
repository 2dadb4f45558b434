// CSV import into the built-in store: the columns, each wrong row named by line and column, all or nothing, re-import, limits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CsvImportResult, MAX_REPORTED_IMPORT_ERRORS } from '../../../shared/reservations';
import { MAX_CSV_BYTES, MAX_CSV_ROWS, type BuiltinReservationStore } from '../../../main/reservations';
import { CSV_HEADER, csvLine, csvOf, expectCode, openStore, reservation, tempDir } from './helpers';
import { CARD_SPELLINGS } from '../../shared/text/spellings';
import { pansInFolder } from '../support/card-scan';

const FIXTURES = join(import.meta.dirname, '../../fixtures/reservations');
const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

let dir: string;
let cleanup: () => void;
let store: BuiltinReservationStore;

beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  store = await openStore(dir);
});
afterEach(async () => {
  await store.close();
  cleanup();
});

type Failure = Extract<CsvImportResult, { ok: false }>;
function failure(result: CsvImportResult): Failure {
  expect(CsvImportResult.parse(result)).toEqual(result);
  if (result.ok) throw new Error(`expected the import to fail, but it wrote ${result.created} + ${result.updated}`);
  return result;
}
const where = (result: Failure): [number | undefined, string | undefined][] =>
  result.errors.map((e) => [e.line, e.column]);

describe('a good file', () => {
  it('imports a spreadsheet export: BOM, CRLF, header in words, quotes, thousands, $ and USD, a cell on two lines, a blank line', async () => {
    const result = await store.importCsv(fixture('valid.csv'));
    expect(result).toEqual({ ok: true, created: 5, updated: 0 });
    expect(await store.count()).toBe(5);

    expect(await store.get('CUN-A1B2C3')).toEqual({
      confirmationNumber: 'CUN-A1B2C3',
      guestName: 'Sofía Núñez Ortega',
      checkIn: '2027-01-10',
      checkOut: '2027-01-14',
      hotelName: 'Hotel Costa Turquesa, Cancún',
      balanceDueCents: 1_245_000,
      currency: 'mxn',
      guestPhone: '+529981234567',
      guestEmail: 'sofia.nunez@example.mx',
      guestLanguage: 'es-MX',
      guestLanguageFrom: 'phone',
    });
    expect(await store.get('MEX-D4E5F6')).toMatchObject({ balanceDueCents: 240_000, guestPhone: '+525512345678' });
    expect(await store.get('MEX-D4E5F6')).not.toHaveProperty('guestEmail');
    expect(await store.get('SJD-G7H8J9')).toMatchObject({
      guestName: "O'Connor, Emily",
      balanceDueCents: 568_050,
      currency: 'usd',
    });
    expect(await store.get('SJD-G7H8J9')).not.toHaveProperty('guestPhone');
    expect(await store.get('PVR-K1L2M3')).toMatchObject({
      hotelName: 'Hotel "Malecón" Puerto Vallarta',
      balanceDueCents: 0,
      guestEmail: 'Lupita.Yanez@Example.MX',
    });
    expect((await store.search({ text: 'lupita.yanez@example.mx' })).map((r) => r.confirmationNumber)).toEqual([
      'PVR-K1L2M3',
    ]);
    expect((await store.search({ text: 'renee' })).map((r) => r.confirmationNumber)).toEqual(['MID-N4P5Q6']);
  });

  it('reads semicolon-separated files, columns in any order, without the optional columns', async () => {
    const text = [
      'currency;balance_due;hotel_name;check_out;check_in;guest_name;confirmation_number',
      'mxn;350.00;Casa de la Cantera Oaxaca;2027-05-03;2027-05-01;Efraín Téllez;OAX-777',
    ].join('\n');
    expect(await store.importCsv(text)).toEqual({ ok: true, created: 1, updated: 0 });
    expect(await store.get('oax-777')).toEqual({
      confirmationNumber: 'OAX-777',
      guestName: 'Efraín Téllez',
      checkIn: '2027-05-01',
      checkOut: '2027-05-03',
      hotelName: 'Casa de la Cantera Oaxaca',
      balanceDueCents: 35000,
      currency: 'mxn',
      guestLanguage: 'en-US',
      guestLanguageFrom: 'default',
    });
  });

  it("keeps a balance of 0.30 as 30 cents, and the guest's own language when the file has one", async () => {
    const text = [
      `${CSV_HEADER},guest_language`,
      'LANG-1,Ana Uno,2027-05-01,2027-05-03,Hotel,0.30,usd,+529981112233,,en',
      'LANG-2,Ana Dos,2027-05-01,2027-05-03,Hotel,10,usd,+14155550143,,Español',
      'LANG-3,Ana Tres,2027-05-01,2027-05-03,Hotel,10,usd,+14155550143,,fr',
      'LANG-4,Ana Cuatro,2027-05-01,2027-05-03,Hotel,10,usd,+34612345678,,',
    ].join('\n');
    expect(await store.importCsv(text)).toEqual({ ok: true, created: 4, updated: 0 });
    expect(await store.get('LANG-1')).toMatchObject({
      balanceDueCents: 30,
      guestLanguage: 'en-US',
      guestLanguageFrom: 'reservation',
    });
    expect(await store.get('LANG-2')).toMatchObject({ guestLanguage: 'es-MX', guestLanguageFrom: 'reservation' });
    expect(await store.get('LANG-3')).toMatchObject({ guestLanguage: 'en-US', guestLanguageFrom: 'phone' });
    expect(await store.get('LANG-4')).toMatchObject({ guestLanguage: 'es-MX', guestLanguageFrom: 'phone' });
  });

  it('updates a reservation imported again (its number in any case), and adds the new ones', async () => {
    expect(await store.importCsv(csvOf([reservation()]))).toEqual({ ok: true, created: 1, updated: 0 });
    const again = csvOf([
      reservation({ confirmationNumber: 'tst-000001', balanceDueCents: 125_025, guestPhone: undefined }),
      reservation({ confirmationNumber: 'TST-000002', guestName: 'Otro Huésped', guestPhone: '+529981119999' }),
    ]);
    expect(await store.importCsv(again)).toEqual({ ok: true, created: 1, updated: 1 });
    expect(await store.count()).toBe(2);
    const updated = await store.get('TST-000001');
    expect(updated).toMatchObject({ confirmationNumber: 'tst-000001', balanceDueCents: 125_025 });
    expect(updated).not.toHaveProperty('guestPhone');
    // The old phone no longer finds it.
    expect(await store.search({ text: '+52 998 111 2233' })).toEqual([]);
  });

  it('updates a demo reservation too', async () => {
    await store.seedDemo();
    const demo = (await store.get('CUN-7F3K2A'))!;
    expect(await store.importCsv(csvOf([{ ...demo, balanceDueCents: 100 }]))).toEqual({
      ok: true,
      created: 0,
      updated: 1,
    });
    expect((await store.get('CUN-7F3K2A'))?.balanceDueCents).toBe(100);
    expect(await store.count()).toBe(30);
  });
});

describe('a file with wrong rows', () => {
  it('names each wrong row by line and column, and writes nothing — not even its good rows', async () => {
    await store.importCsv(csvOf([reservation({ confirmationNumber: 'BAD-000001', balanceDueCents: 1000 })]));
    const result = failure(await store.importCsv(fixture('invalid.csv')));
    expect(where(result)).toEqual([
      [3, 'check_out'],
      [4, 'balance_due'],
      [4, 'guest_phone'],
      [4, 'currency'],
      [4, 'guest_email'],
      [5, 'guest_name'],
      [5, 'check_in'],
      [5, 'hotel_name'],
      [6, undefined],
      [7, 'confirmation_number'],
      [8, 'balance_due'],
    ]);
    const message = (line: number, column?: string): string =>
      result.errors.find((e) => e.line === line && e.column === column)?.message ?? '';
    expect(message(3, 'check_out')).toMatch(/check-out date cannot be before the check-in/);
    expect(message(4, 'balance_due')).toMatch(/dot before the cents, for example 12450.00/);
    expect(message(4, 'guest_phone')).toMatch(/country code, for example \+52/);
    expect(message(4, 'currency')).toMatch(/USD or MXN/);
    expect(message(4, 'guest_email')).toMatch(/not an e-mail address/);
    expect(message(5, 'guest_name')).toBe('The guest_name cell is empty; every reservation needs it.');
    expect(message(5, 'check_in')).toMatch(/YYYY-MM-DD/);
    expect(message(6)).toMatch(/has 6 cells but the header has 9 columns/);
    expect(message(7, 'confirmation_number')).toMatch(/already on line 2/);
    expect(message(8, 'balance_due')).toMatch(/cannot be negative/);
    expect(result.moreErrors).toBe(0);

    // Nothing written: the good row on line 2 did not replace what was there.
    expect(await store.count()).toBe(1);
    expect((await store.get('BAD-000001'))?.balanceDueCents).toBe(1000);
  });

  it('never quotes the content of a cell in its messages', async () => {
    const secretish = reservation({ guestName: 'Zyxwvuts Qponm', guestEmail: 'zyxwv@example', guestPhone: '+52 1' });
    const text = `${CSV_HEADER}\n${csvLine(secretish)}\n${csvLine({ ...secretish, confirmationNumber: 'TST-2', checkIn: 'Zyxwvuts' })}\n`;
    const result = failure(await store.importCsv(text));
    expect(where(result)).toEqual([
      [2, 'guest_phone'],
      [2, 'guest_email'],
      [3, 'guest_phone'],
      [3, 'check_in'],
      [3, 'guest_email'],
    ]);
    const all = JSON.stringify(result);
    expect(all).not.toMatch(/Zyxwvuts|zyxwv|\+52 1/);
  });

  it('a card number in any cell, in any of 20 spellings, is refused by line and column — never quoted, nothing written', async () => {
    const columns = CSV_HEADER.split(',');
    const lines = CARD_SPELLINGS.map(({ text }, i) => {
      const cells = csvLine(reservation({ confirmationNumber: `TST-${i}` })).split(',');
      const column = i % columns.length;
      cells[column] = `"${column === 1 || column === 4 ? `Nombre ${text}` : text}"`;
      return cells.join(',');
    });
    const result = failure(await store.importCsv(`${CSV_HEADER}\n${lines.join('\n')}\n`));
    expect(
      result.errors
        .filter((e) => e.message === 'This looks like a card number. Card numbers go only in the card form.')
        .map((e) => [e.line, e.column]),
    ).toEqual(CARD_SPELLINGS.map((_s, i) => [i + 2, columns[i % columns.length]]));
    expect(await store.count()).toBe(0);
    expect(
      pansInFolder(
        dir,
        CARD_SPELLINGS.map((s) => s.digits),
      ),
    ).toEqual([]);
    expect(CARD_SPELLINGS.filter(({ digits }) => JSON.stringify(result).includes(digits.slice(-8)))).toEqual([]);
  });

  it('a file without its header row, whose first row holds a card number: the header cells are never quoted back', async () => {
    // A PMS export saved without its header: the first reservation is read as the header, and its cells are not column names.
    const row = csvLine(reservation({ confirmationNumber: 'TST-1' })).split(',');
    row.splice(3, 0, '4242 4242 4242 4242', 'cvv 123');
    const header = row.join(',');
    const result = failure(
      await store.importCsv(`${header}\n${csvLine(reservation({ confirmationNumber: 'TST-2' }))}\n`),
    );
    const all = JSON.stringify(result);
    expect(all).not.toContain('4242');
    expect(all).not.toContain('cvv 123');
    expect(result.errors).toContainEqual({
      line: 1,
      code: 'card_number_in_text',
      message: 'This looks like a card number. Card numbers go only in the card form.',
    });
    expect(result.errors).toContainEqual({
      line: 1,
      code: 'security_code_in_text',
      message: 'This looks like a card’s security code. The security code goes only in the card form.',
    });
  });

  it('a CVV after its name in a cell is refused too', async () => {
    const result = failure(await store.importCsv(csvOf([reservation({ guestName: 'Ana López cvv 123' })])));
    expect(result.errors).toEqual([
      {
        line: 2,
        column: 'guest_name',
        code: 'security_code_in_text',
        message: 'This looks like a card’s security code. The security code goes only in the card form.',
      },
    ]);
  });

  it('counts the lines of a cell that spans lines, and of blank lines, in the line numbers', async () => {
    const text = [
      CSV_HEADER,
      '',
      csvLine(reservation({ hotelName: 'Hotel\nDos Líneas' })),
      '',
      csvLine(reservation({ confirmationNumber: 'TST-9', checkIn: 'mañana' })),
    ].join('\n');
    expect(where(failure(await store.importCsv(text)))).toEqual([[6, 'check_in']]);
  });

  it(`lists at most ${MAX_REPORTED_IMPORT_ERRORS} problems and counts the rest`, async () => {
    const rows = Array.from({ length: 130 }, (_, i) =>
      csvLine(reservation({ confirmationNumber: `E-${i}`, currency: 'eur' as 'mxn' })),
    );
    const result = failure(await store.importCsv([CSV_HEADER, ...rows].join('\n')));
    expect(result.errors).toHaveLength(MAX_REPORTED_IMPORT_ERRORS);
    expect(result.moreErrors).toBe(30);
    expect(result.errors[0]).toMatchObject({ line: 2, column: 'currency' });
    expect(await store.count()).toBe(0);
  });

  it('rolls back rows already written when the file itself fails mid-import', async () => {
    await store.importCsv(csvOf([reservation({ confirmationNumber: 'KEEP-1', balanceDueCents: 1000 })]));
    // A trigger makes the third row fail in SQLite, after two rows (one an update) were written in the transaction.
    const raw = new Database(join(dir, 'reservations.db'));
    raw.exec(
      `CREATE TRIGGER boom BEFORE INSERT ON reservations WHEN NEW.id_key = 'boom-3' BEGIN SELECT RAISE(ABORT, 'disk trouble'); END;`,
    );
    raw.close();
    const text = csvOf([
      reservation({ confirmationNumber: 'KEEP-1', balanceDueCents: 9900 }),
      reservation({ confirmationNumber: 'NEW-2' }),
      reservation({ confirmationNumber: 'BOOM-3' }),
    ]);
    const error = await expectCode(() => store.importCsv(text), 'storage');
    expect(error.message).not.toMatch(/disk trouble|SQLITE/);
    expect(await store.count()).toBe(1);
    expect(await store.get('NEW-2')).toBeUndefined();
    expect((await store.get('KEEP-1'))?.balanceDueCents).toBe(1000);
  });
});

describe('each problem as a code with its numbers (the renderer words it from its catalogues, never main’s English)', () => {
  const line = (cells: string): string => `${CSV_HEADER}\n${cells}\n`;
  const good = csvLine(reservation({ confirmationNumber: 'TST-1' }));
  const withCell = (index: number, value: string): string =>
    good
      .split(',')
      .map((cell, i) => (i === index ? value : cell))
      .join(',');
  it.each([
    [
      'a balance with a comma for cents',
      line(withCell(5, '"12450,00"')),
      { code: 'balance_format', line: 2, column: 'balance_due' },
    ],
    ['a negative balance', line(withCell(5, '-5.00')), { code: 'balance_negative', line: 2, column: 'balance_due' }],
    [
      'a balance too large',
      line(withCell(5, '1000000.00')),
      { code: 'balance_too_large', line: 2, column: 'balance_due' },
    ],
    [
      'a balance with thousandths',
      line(withCell(5, '10.005')),
      { code: 'balance_cents', line: 2, column: 'balance_due' },
    ],
    [
      'a phone without its country',
      line(withCell(7, '55 1234 5678')),
      { code: 'invalid_phone', line: 2, column: 'guest_phone' },
    ],
    ['an empty guest name', line(withCell(1, '')), { code: 'empty_cell', line: 2, column: 'guest_name' }],
    ['an unknown currency', line(withCell(6, 'eur')), { code: 'invalid_value', line: 2, column: 'currency' }],
    [
      'a check-out before the check-in',
      line(withCell(3, '2000-01-01')),
      { code: 'check_out_before_check_in', line: 2, column: 'check_out' },
    ],
    [
      'a missing cell',
      line(good.split(',').slice(0, -1).join(',')),
      { code: 'cell_count', line: 2, params: { cells: 8, columns: 9 } },
    ],
    [
      'a reservation twice',
      `${CSV_HEADER}\n${good}\n${good}\n`,
      { code: 'duplicate_confirmation', line: 3, column: 'confirmation_number', params: { firstLine: 2 } },
    ],
    // The lookup finds "TST1" and "tst 1" as TST-1 (match.ts confirmationKey): written once more, it is the same reservation (adv14b).
    [
      'a reservation twice, once without its dash',
      `${CSV_HEADER}\n${good}\n${csvLine(reservation({ confirmationNumber: 'tst1' }))}\n`,
      { code: 'duplicate_confirmation', line: 3, column: 'confirmation_number', params: { firstLine: 2 } },
    ],
    [
      'an unknown column',
      `${CSV_HEADER},guest_emial\n${good},x\n`,
      { code: 'unknown_column', line: 1, column: 'guest_emial' },
    ],
    [
      'a column twice',
      `${CSV_HEADER},Currency\n${good},mxn\n`,
      { code: 'duplicate_column', line: 1, column: 'currency' },
    ],
    ['a column without a name', `${CSV_HEADER},\n${good},\n`, { code: 'unnamed_column', line: 1 }],
    [
      'a missing required column',
      'confirmation_number,guest_name\nTST-1,Ana\n',
      { code: 'missing_column', line: 1, column: 'check_in' },
    ],
    ['an empty file', '', { code: 'empty_file' }],
    ['a header and no rows', `${CSV_HEADER}\n`, { code: 'no_reservations' }],
    ['a quote never closed', `${CSV_HEADER}\n"TST-2,Ana\n`, { code: 'quote_not_closed' }],
  ])('%s', async (_, text, expected) => {
    expect(failure(await store.importCsv(text)).errors[0]).toMatchObject(expected);
  });

  it('a file too large and one not in UTF-8', async () => {
    expect(failure(await store.importCsv(Buffer.from([0xff, 0xfe, 0x41]))).errors[0]).toMatchObject({
      code: 'not_utf8',
    });
    expect(failure(await store.importCsv('x'.repeat(MAX_CSV_BYTES + 1))).errors[0]).toMatchObject({
      code: 'file_too_large',
      params: { maxMb: MAX_CSV_BYTES / 1024 / 1024 },
    });
  });
});

describe('a wrong file', () => {
  it.each([
    [
      'an unknown column',
      `${CSV_HEADER},guest_emial\n`,
      [1, 'guest_emial'],
      /"guest_emial" is not a column the app knows. The columns are: confirmation_number/,
    ],
    [
      'a missing required column',
      'confirmation_number,guest_name,check_in,check_out,hotel_name,balance_due\n',
      [1, 'currency'],
      /no "currency" column/,
    ],
    ['a column twice', `${CSV_HEADER},Currency\n`, [1, 'currency'], /appears twice/],
    ['a column without a name', `${CSV_HEADER},\n`, [1, undefined], /has no name/],
  ])('%s in the header', async (_, text, [line, column], message) => {
    const result = failure(await store.importCsv(`${text}${csvLine(reservation())}\n`));
    expect(result.errors[0]).toMatchObject({ line, ...(column === undefined ? {} : { column }) });
    expect(result.errors[0]?.message).toMatch(message);
    expect(await store.count()).toBe(0);
  });

  it.each([
    ['an empty file', '', /file is empty/],
    ['blank lines only', '\n\n  \n', /file is empty/],
    ['a header and no rows', `${CSV_HEADER}\n`, /no reservations/],
  ])('%s', async (_, text, message) => {
    expect(failure(await store.importCsv(text)).errors[0]?.message).toMatch(message);
  });

  it('a quote never closed, named by line', async () => {
    const text = `${CSV_HEADER}\n${csvLine(reservation())}\n"TST-2,Ana,2027-01-01,2027-01-02,Hotel,1,mxn,,\n`;
    const result = failure(await store.importCsv(text));
    expect(result.errors[0]?.message).toMatch(/quote \(".*never closed/);
    expect(result.errors[0]?.line).toBeGreaterThanOrEqual(3);
  });

  it('a file that is not UTF-8 (saved as Latin-1)', async () => {
    const latin1 = Buffer.from(`${CSV_HEADER}\n${csvLine(reservation({ guestName: 'Iñaki Núñez' }))}\n`, 'latin1');
    expect(failure(await store.importCsv(latin1)).errors[0]?.message).toMatch(/not UTF-8.*CSV UTF-8/);
  });

  it(`more than ${MAX_CSV_ROWS.toLocaleString('en-US')} rows is refused before anything is written`, async () => {
    const line = csvLine(reservation());
    const rows = Array.from({ length: MAX_CSV_ROWS + 1 }, (_, i) => line.replace('TST-000001', `ROW-${i}`));
    const result = failure(await store.importCsv([CSV_HEADER, ...rows].join('\n')));
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.message).toMatch(/20,001 reservations; at most 20,000.*Split it/);
    expect(await store.count()).toBe(0);
  });

  it(`exactly ${MAX_CSV_ROWS.toLocaleString('en-US')} rows are imported`, async () => {
    const line = csvLine(reservation());
    const rows = Array.from({ length: MAX_CSV_ROWS }, (_, i) => line.replace('TST-000001', `ROW-${i}`));
    expect(await store.importCsv([CSV_HEADER, ...rows].join('\n'))).toEqual({
      ok: true,
      created: MAX_CSV_ROWS,
      updated: 0,
    });
    // The largest file IT may import, whole: longer than the default timeout allows on a loaded two-core machine.
  }, 90_000);

  it('a file over the size limit is refused without being read', async () => {
    const big = new Uint8Array(MAX_CSV_BYTES + 1).fill(0x41);
    expect(failure(await store.importCsv(big)).errors[0]?.message).toMatch(/larger than 5 MB/);
    expect(failure(await store.importCsv('x'.repeat(MAX_CSV_BYTES + 1))).errors[0]?.message).toMatch(
      /larger than 5 MB/,
    );
  });
});
