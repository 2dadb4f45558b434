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

/** One problem in the file: the line (1 is the header) and column when known, and what to fix — never the cell's content. */
export const CsvImportIssue = z.object({
  line: z.int().positive().optional(),
  column: z.string().optional(),
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
