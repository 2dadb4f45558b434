/** Reservations: one interface over the built-in SQLite store (demo data, CSV import) and the partner's REST system; plain Node, no Electron imports. */
export { ReservationError } from './errors';
export { checkConfirmationNumber, checkQuery, type ReservationSource } from './source';
export {
  BuiltinSourceConfig,
  DEFAULT_FIELD_MAPPING,
  DEFAULT_TIMEOUT_MS,
  DottedPath,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  RESERVATION_FIELDS,
  ReservationSourceConfig,
  RestSourceConfig,
  type ReservationField,
} from './config';
export { BuiltinReservationStore, type ReservationStoreOptions } from './store';
export { RESERVATIONS_SCHEMA_VERSION, RESERVATIONS_STORE, TRAINING_RESERVATIONS_STORE } from './schema';
export { MAX_CSV_BYTES, MAX_CSV_ROWS, readReservationCsv, type CsvReadResult } from './csv';
export { demoReservations } from './demo';
export { MAX_RESPONSE_BYTES, RestReservationSource, readPath, type RestSourceOptions, type SecretGetter } from './rest';
export {
  RESERVATIONS_FILE,
  TRAINING_RESERVATIONS_FILE,
  createReservationSource,
  type AnyReservationSource,
  type ReservationSourceDeps,
} from './factory';
export {
  MIN_FRAGMENT_CHARS,
  MIN_PHONE_DIGITS,
  MIN_REFERENCE_CHARS,
  RANK,
  confirmationKey,
  foldText,
  matchRank,
  phoneKeys,
  queryKeys,
  searchWords,
  type PhoneKeys,
  type QueryKeys,
} from './match';
export { searchWithShortReference, type PaymentsByShortReference } from './short-reference';
export { RESERVATIONS_MOVE_IN } from './move-in';
