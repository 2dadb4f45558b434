/** Reading a reservation CSV file: header, limits, and every row checked with the shared schema — problems named by line and column. */
import { CsvError, parse } from 'csv-parse/sync';
import { MAX_AMOUNT, toCents } from '../../shared/payments';
import {
  BalanceDue,
  CHECK_OUT_BEFORE_CHECK_IN,
  MAX_REPORTED_IMPORT_ERRORS,
  RESERVATION_CSV_COLUMNS,
  ReservationView,
  guestLanguageOf,
  toE164,
  type CsvImportIssue,
  type CsvIssueCode,
  type ReservationCsvColumn,
} from '../../shared/reservations';
import { findCardData, TEXT_ISSUES } from '../../shared/text';
import { confirmationKey } from './match';

/** Larger files are refused before they are read: split them. */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
/** Reservations in one file, header not counted. */
export const MAX_CSV_ROWS = 20_000;

export type CsvReadResult =
  | { ok: true; rows: ReservationView[] }
  | { ok: false; errors: CsvImportIssue[]; moreErrors: number };

const COLUMN_OF_FIELD: Record<keyof ReservationView, ReservationCsvColumn> = {
  confirmationNumber: 'confirmation_number',
  guestName: 'guest_name',
  checkIn: 'check_in',
  checkOut: 'check_out',
  hotelName: 'hotel_name',
  balanceDueCents: 'balance_due',
  currency: 'currency',
  guestPhone: 'guest_phone',
  guestEmail: 'guest_email',
  guestLanguage: 'guest_language',
  guestLanguageFrom: 'guest_language',
};

const KNOWN = new Set<string>(RESERVATION_CSV_COLUMNS.map((column) => column.name));
const REQUIRED: readonly ReservationCsvColumn[] = RESERVATION_CSV_COLUMNS.filter((column) => column.required).map(
  (column) => column.name,
);
const COLUMN_LIST = RESERVATION_CSV_COLUMNS.map((column) => column.name).join(', ');

/** "Confirmation Number", "confirmation-number" and "CONFIRMATION_NUMBER" all name confirmation_number. */
const headerName = (cell: string): string =>
  cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Spreadsheets set to a Spanish locale may save with semicolons (or tabs): taken from the header line. */
function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]?.[1] ? counts[0][0] : ',';
}

/** "12450", "12450.5", "12,450.00", "$12,450.00" → 12450.5…; anything else (a comma for cents, letters) → undefined. */
function parseAmount(cell: string): number | undefined {
  const bare = cell.replace(/^\$\s*/, '').replace(/\s/g, '');
  if (!/^-?(\d+|\d{1,3}(,\d{3})+)(\.\d+)?$/.test(bare)) return undefined;
  return Number(bare.replace(/,/g, ''));
}

/** A line break typed inside a spreadsheet cell (Alt+Enter) becomes a space in a name. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

class Problems {
  readonly list: CsvImportIssue[] = [];
  more = 0;
  add(issue: CsvImportIssue): void {
    if (this.list.length < MAX_REPORTED_IMPORT_ERRORS) this.list.push(issue);
    else this.more++;
  }
  get any(): boolean {
    return this.list.length > 0;
  }
  result(): CsvReadResult {
    return { ok: false, errors: this.list, moreErrors: this.more };
  }
}

/** A problem: its code and numbers (what the renderer words), where it is, and the same in English for logs. */
const issue = (
  code: CsvIssueCode,
  message: string,
  where: { line?: number | undefined; column?: string | undefined; params?: Record<string, number> } = {},
): CsvImportIssue => ({
  code,
  message,
  ...(where.line === undefined ? {} : { line: where.line }),
  ...(where.column === undefined ? {} : { column: where.column }),
  ...(where.params === undefined ? {} : { params: where.params }),
});

const fail = (
  code: CsvIssueCode,
  message: string,
  where: { line?: number | undefined; params?: Record<string, number> } = {},
): CsvReadResult => ({
  ok: false,
  errors: [issue(code, message, where)],
  moreErrors: 0,
});

/** Which of the balance's rules a number breaks (BalanceDue's, in the same order). */
function balanceCode(balance: number): CsvIssueCode {
  if (balance < 0) return 'balance_negative';
  return balance > MAX_AMOUNT ? 'balance_too_large' : 'balance_cents';
}

function decode(data: string | Uint8Array): string | undefined {
  if (typeof data === 'string') return data;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}

/** What csv-parse found wrong, in words for the person who made the file (never its text, which may quote a cell). */
function syntaxProblem(error: CsvError): [CsvIssueCode, string] {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return [
        'quote_not_closed',
        'A quote (") opened on this line is never closed: check the quotes around the cells.',
      ];
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'INVALID_OPENING_QUOTE':
      return [
        'quote_misplaced',
        'A quote (") is in the wrong place: a cell with quotes must start and end with them, and a quote inside it is written twice ("").',
      ];
    default:
      return ['not_csv', 'This line is not valid CSV: check the quotes and separators.'];
  }
}

/** Reads the whole file and checks every row; rows come back only when the whole file is right. */
export function readReservationCsv(data: string | Uint8Array): CsvReadResult {
  const size = typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.byteLength;
  if (size > MAX_CSV_BYTES) {
    return fail(
      'file_too_large',
      `The file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB: split it into smaller files and import each one.`,
      { params: { maxMb: MAX_CSV_BYTES / 1024 / 1024 } },
    );
  }
  const text = decode(data);
  if (text === undefined) {
    return fail(
      'not_utf8',
      'The file is not UTF-8 text. In your spreadsheet, save it as "CSV UTF-8 (comma delimited)" and import it again.',
    );
  }

  const content = text.replace(/^\uFEFF/, '');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with where it ended (csv-parse's types do not say so).
    records = parse(content, {
      delimiter: detectDelimiter(content),
      info: true,
      relax_column_count: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError) {
      const [code, message] = syntaxProblem(error);
      return fail(code, message, { line: typeof error.lines === 'number' ? error.lines : undefined });
    }
    throw error;
  }

  // Blank lines are skipped here, not by the parser, so that each row's first line is known: the line after the previous record.
  const rows: { line: number; cells: string[] }[] = [];
  let previousEnd = 0;
  for (const { record, info } of records) {
    const line = previousEnd + 1;
    previousEnd = info.lines;
    if (record.every((cell) => cell === '')) continue;
    rows.push({ line, cells: record });
  }

  const [header, ...body] = rows;
  if (header === undefined)
    return fail('empty_file', `The file is empty. It needs a header row (${COLUMN_LIST}) and one row per reservation.`);

  const problems = new Problems();
  // A header cell is quoted back when it is not a column: one holding card data (a file without its header row, its
  // first reservation read as the header) is refused by the detector first and never quoted.
  for (const cell of header.cells) {
    const found = findCardData(cell);
    if (found.length === 0) continue;
    const code = found.some((m) => m.kind === 'card_number') ? 'card_number_in_text' : 'security_code_in_text';
    problems.add(issue(code, TEXT_ISSUES[code], { line: header.line }));
  }
  if (problems.any) return problems.result();
  const columns = header.cells.map(headerName);
  const unknown = columns.filter((name) => !KNOWN.has(name));
  for (const name of unknown) {
    problems.add(
      name === ''
        ? issue('unnamed_column', `A column has no name in the header row. The columns are: ${COLUMN_LIST}.`, {
            line: header.line,
          })
        : issue('unknown_column', `"${name}" is not a column the app knows. The columns are: ${COLUMN_LIST}.`, {
            line: header.line,
            column: name,
          }),
    );
  }
  for (const name of new Set(columns.filter((name, i) => name !== '' && columns.indexOf(name) !== i))) {
    problems.add(
      issue('duplicate_column', `The column "${name}" appears twice in the header row.`, {
        line: header.line,
        column: name,
      }),
    );
  }
  for (const name of REQUIRED.filter((name) => !columns.includes(name))) {
    problems.add(
      issue('missing_column', `The header row has no "${name}" column, which every reservation needs.`, {
        line: header.line,
        column: name,
      }),
    );
  }
  if (problems.any) return problems.result();

  if (body.length === 0) return fail('no_reservations', 'The file has a header row but no reservations.');
  if (body.length > MAX_CSV_ROWS) {
    return fail(
      'too_many_rows',
      `The file has ${body.length.toLocaleString('en-US')} reservations; at most ${MAX_CSV_ROWS.toLocaleString('en-US')} can be imported at once. Split it into smaller files.`,
      { params: { rows: body.length, max: MAX_CSV_ROWS } },
    );
  }

  const seen = new Map<string, number>();
  const valid: ReservationView[] = [];
  for (const { line, cells } of body) {
    if (cells.length !== columns.length) {
      problems.add(
        issue(
          'cell_count',
          `This line has ${cells.length} cells but the header has ${columns.length} columns. Check for a missing or extra separator; a name that contains a comma must be in quotes.`,
          { line, params: { cells: cells.length, columns: columns.length } },
        ),
      );
      continue;
    }
    const cell = (name: ReservationCsvColumn): string => {
      const index = columns.indexOf(name);
      return index < 0 ? '' : (cells[index] ?? '');
    };
    // One message per column: the amount and phone cells are explained by their own checks, not again by the schema.
    const reported = new Set<ReservationCsvColumn>();
    const rowProblem = (column: ReservationCsvColumn, code: CsvIssueCode, message: string): void => {
      if (reported.has(column)) return;
      problems.add(issue(code, message, { line, column }));
      reported.add(column);
    };
    /** A cell that may be empty (undefined) but must read when it is not: one that `read` cannot read is the row's problem. */
    const optionalCell = <T>(
      column: ReservationCsvColumn,
      read: (text: string) => T | undefined,
      code: CsvIssueCode,
      message: string,
    ): T | undefined => {
      const text = cell(column);
      if (text === '') return undefined;
      const value = read(text);
      if (value === undefined) rowProblem(column, code, message);
      return value;
    };

    // Card data in any cell is refused first, by the detector every free-text field uses: the row is not read further.
    for (const column of columns) {
      const found = findCardData(cell(column as ReservationCsvColumn));
      if (found.length === 0) continue;
      const code = found.some((m) => m.kind === 'card_number') ? 'card_number_in_text' : 'security_code_in_text';
      rowProblem(column as ReservationCsvColumn, code, TEXT_ISSUES[code]);
    }
    if (reported.size > 0) continue;

    // The balance is written in major units ("12450.00"): checked so, then kept in cents.
    const balanceCell = cell('balance_due');
    const balanceDue = optionalCell(
      'balance_due',
      parseAmount,
      'balance_format',
      'Write the balance due as a number with a dot before the cents, for example 12450.00 (no letters, no comma for cents).',
    );
    const balance = balanceDue === undefined ? undefined : BalanceDue.safeParse(balanceDue);
    if (balance?.success === false && balanceDue !== undefined) {
      rowProblem(
        'balance_due',
        balanceCode(balanceDue),
        balance.error.issues[0]?.message ?? 'The balance due is not valid.',
      );
    }
    const guestPhone = optionalCell(
      'guest_phone',
      toE164,
      'invalid_phone',
      'The phone must be a real number with its country code, for example +52 998 123 4567 or +1 201 555 0123.',
    );
    const emailCell = cell('guest_email');

    const candidate = {
      confirmationNumber: cell('confirmation_number'),
      guestName: oneLine(cell('guest_name')),
      checkIn: cell('check_in'),
      checkOut: cell('check_out'),
      hotelName: oneLine(cell('hotel_name')),
      balanceDueCents: balanceCell === '' ? undefined : balance?.success === true ? toCents(balance.data) : 0, // 0 stands in for a cell already reported
      currency: cell('currency').toLowerCase(),
      ...(guestPhone === undefined ? {} : { guestPhone }),
      ...(emailCell === '' ? {} : { guestEmail: emailCell }),
      // A language the desk does not speak (or none) leaves it to the phone's country.
      ...guestLanguageOf({ language: cell('guest_language') || undefined, guestPhone }),
    };
    const parsed = ReservationView.safeParse(candidate);
    if (!parsed.success) {
      for (const schemaIssue of parsed.error.issues) {
        const field = schemaIssue.path[0];
        const column =
          typeof field === 'string' && field in COLUMN_OF_FIELD
            ? COLUMN_OF_FIELD[field as keyof ReservationView]
            : undefined;
        if (column === undefined) continue;
        if (cell(column) === '' && REQUIRED.includes(column))
          rowProblem(column, 'empty_cell', `The ${column} cell is empty; every reservation needs it.`);
        else
          rowProblem(
            column,
            column === 'check_out' && schemaIssue.message === CHECK_OUT_BEFORE_CHECK_IN
              ? 'check_out_before_check_in'
              : 'invalid_value',
            schemaIssue.message,
          );
      }
      continue;
    }
    if (reported.size > 0) continue;

    // Compared as the lookup compares them (no dashes, spaces or case): "CUN7F3K2A" is CUN-7F3K2A written again.
    const key = confirmationKey(parsed.data.confirmationNumber);
    const firstLine = seen.get(key);
    if (firstLine !== undefined) {
      problems.add(
        issue(
          'duplicate_confirmation',
          `This confirmation number is already on line ${firstLine}: each reservation can appear only once in a file.`,
          {
            line,
            column: 'confirmation_number',
            params: { firstLine },
          },
        ),
      );
      continue;
    }
    seen.set(key, line);
    valid.push(parsed.data);
  }
  return problems.any ? problems.result() : { ok: true, rows: valid };
}
