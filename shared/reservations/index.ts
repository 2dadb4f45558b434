/** Reservations as every layer sees them: the view, the search, the CSV import's columns and answer, and the error codes. */
export {
  BalanceDue,
  BalanceDueCents,
  GUEST_LANGUAGE_SOURCES,
  GuestLanguageSource,
  guestLanguageOf,
  languageOfField,
  E164Phone,
  GuestEmail,
  GuestName,
  HotelName,
  IsoDate,
  MAX_SEARCH_RESULTS,
  RESERVATION_ERROR_CODES,
  RESERVATION_QUERY_MAX,
  RESERVATION_QUERY_MIN,
  ReservationErrorCode,
  ReservationQuery,
  ReservationView,
  toE164,
} from './view';
export {
  CsvImportIssue,
  CsvImportResult,
  MAX_REPORTED_IMPORT_ERRORS,
  RESERVATION_CSV_COLUMNS,
  type ReservationCsvColumn,
} from './import';
