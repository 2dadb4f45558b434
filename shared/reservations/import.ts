/** The reservation CSV file: its columns, and the answer to an import (all rows written, or the rows at fault by line). */
import { z } from 'zod';

/** The header row, in any order and any case; `required` columns must be present and filled on every row. */
export const RESERVATION_CSV_COLUMNS = [
  { name: 'confirmation_number', required: true, example: 'CUN-7F3K2A' },
  { name: 'guest_name', required: true, example: 'Sofía Núñez Ortega' },
  { name: 'check_in', required: true, example: '2026-03-14' },
  { name: 'check_out', required: true, example: '2026-03-18' },
  { name: 'hotel_name', required: true, example: 'Hotel Costa Turquesa Cancún' },
  { name: 'balance_due', required: true, example: '12450.00' },
  { name: 'currency', required: true, example: 'mxn' },
  { name: 'guest_phone', required: false, example: '+52 998 123 4567' },
  { name: 'guest_email', required: false, example: 'sofia.nunez@example.mx' },
  /** The language messages to the guest are written in: es or en (es-MX, en-US, Spanish…); empty: from the phone's country. */
  { name: 'guest_language', required: false, example: 'es' },
] as const;
export type ReservationCsvColumn = (typeof RESERVATION_CSV_COLUMNS)[number]['name'];

/** At most this many problems are listed; the rest are counted. */
export const MAX_REPORTED_IMPORT_ERRORS = 100;

/**
 * What can be wrong in a file, each with the params its sentence needs: the renderer words each one from its catalogues
 * (`import.issue.<code>`, the column-specific `import.issue.invalid_value.<column>`), never from main's English `message`.
 */
export const CSV_ISSUE_CODES = {
  file_too_large: ['maxMb'],
  not_utf8: [],
  quote_not_closed: [],
  quote_misplaced: [],
  not_csv: [],
  empty_file: [],
  card_number_in_text: [],
  security_code_in_text: [],
  unnamed_column: [],
  unknown_column: [],
  duplicate_column: [],
  missing_column: [],
  no_reservations: [],
  too_many_rows: ['rows', 'max'],
  cell_count: ['cells', 'columns'],
  balance_format: [],
  balance_negative: [],
  balance_too_large: [],
  balance_cents: [],
  invalid_phone: [],
  empty_cell: [],
  invalid_value: [],
  check_out_before_check_in: [],
  duplicate_confirmation: ['firstLine'],
} as const satisfies Record<string, readonly string[]>;
export type CsvIssueCode = keyof typeof CSV_ISSUE_CODES;
export const CsvIssueCode = z.enum(Object.keys(CSV_ISSUE_CODES) as [CsvIssueCode, ...CsvIssueCode[]]);

/**
 * One problem in the file: the line (1 is the header) and column when known, and what to fix as a code with its numbers
 * — never the cell's content. `message` is the same in English, for logs and the command line.
 */
export const CsvImportIssue = z.object({
  line: z.int().positive().optional(),
  column: z.string().optional(),
  code: CsvIssueCode,
  params: z.record(z.string(), z.number()).optional(),
  message: z.string(),
});
export type CsvImportIssue = z.output<typeof CsvImportIssue>;

export const CsvImportResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** Reservations that were new. */
    created: z.int().nonnegative(),
    /** Reservations already in the store (same confirmation number, any case), replaced by the file's row. */
    updated: z.int().nonnegative(),
  }),
  z.object({
    /** Nothing was written. */
    ok: z.literal(false),
    errors: z.array(CsvImportIssue).min(1).max(MAX_REPORTED_IMPORT_ERRORS),
    /** Problems found beyond those listed. */
    moreErrors: z.int().nonnegative(),
  }),
]);
export type CsvImportResult = z.output<typeof CsvImportResult>;
