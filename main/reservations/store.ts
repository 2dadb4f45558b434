/** The built-in reservation store: one SQLite file (WAL) holding demo or imported reservations, searched by the shared rules. */
import type { Currency } from '../../shared/payments';
import { MAX_SEARCH_RESULTS, ReservationView, guestLanguageOf, type CsvImportResult, type ReservationQuery } from '../../shared/reservations';
import { SqliteFile } from '../storage/sqlite';
import { readReservationCsv } from './csv';
import { demoReservations } from './demo';
import { ReservationError } from './errors';
import { RANK, confirmationKey, foldText, phoneKeys, queryKeys } from './match';
import { checkConfirmationNumber, checkQuery, closedError, type ReservationSource } from './source';

/** Versioned migrations: index + 1 is the schema version kept in PRAGMA user_version. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE reservations (
     id_key TEXT PRIMARY KEY,               -- the confirmation number in lower case: one reservation per number, any case
     confirmation_number TEXT NOT NULL,
     guest_name TEXT NOT NULL,
     name_key TEXT NOT NULL,                -- foldText(guest_name): no accents, lower case
     check_in TEXT NOT NULL,
     check_out TEXT NOT NULL,
     hotel_name TEXT NOT NULL,
     balance_cents INTEGER NOT NULL CHECK (balance_cents >= 0),
     currency TEXT NOT NULL CHECK (currency IN ('usd', 'mxn')),
     guest_phone TEXT,
     phone_digits TEXT,                     -- E.164 without "+"
     phone_national TEXT,                   -- the number inside its country
     guest_email TEXT,
     email_key TEXT,                        -- lower case
     origin TEXT NOT NULL CHECK (origin IN ('demo', 'import')),
     updated_at INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX reservations_email ON reservations (email_key);
   CREATE INDEX reservations_phone_digits ON reservations (phone_digits);
   CREATE INDEX reservations_phone_national ON reservations (phone_national);`,
  // 2: the confirmation number without spaces or dashes, in lower case (confirmationKey): "cun6b3d8f" finds CUN-6B3D8F.
  // Rows of version 1 get theirs when the store opens (SQLite cannot strip every Unicode dash itself). The
  // reservation's own language (es-MX or en-US, NULL when the file had none: the phone's country decides).
  `ALTER TABLE reservations ADD COLUMN confirmation_key TEXT;
   CREATE INDEX reservations_confirmation_key ON reservations (confirmation_key);
   ALTER TABLE reservations ADD COLUMN guest_language TEXT CHECK (guest_language IN ('es-MX', 'en-US'));`,
];

export const RESERVATIONS_SCHEMA_VERSION = MIGRATIONS.length;

interface ReservationRecord {
  confirmation_number: string;
  guest_name: string;
  check_in: string;
  check_out: string;
  hotel_name: string;
  balance_cents: number;
  currency: Currency;
  guest_phone: string | null;
  guest_email: string | null;
  guest_language: string | null;
}

const COLUMNS = 'confirmation_number, guest_name, check_in, check_out, hotel_name, balance_cents, currency, guest_phone, guest_email, guest_language';

const UPSERT = `INSERT INTO reservations (id_key, ${COLUMNS}, confirmation_key, name_key, phone_digits, phone_national, email_key, origin, updated_at)
  VALUES (@id_key, @confirmation_number, @guest_name, @check_in, @check_out, @hotel_name, @balance_cents, @currency,
          @guest_phone, @guest_email, @guest_language, @confirmation_key, @name_key, @phone_digits, @phone_national, @email_key, @origin, @updated_at)
  ON CONFLICT (id_key) DO UPDATE SET
    confirmation_number = excluded.confirmation_number, guest_name = excluded.guest_name, check_in = excluded.check_in,
    check_out = excluded.check_out, hotel_name = excluded.hotel_name, balance_cents = excluded.balance_cents,
    currency = excluded.currency, guest_phone = excluded.guest_phone, guest_email = excluded.guest_email,
    guest_language = excluded.guest_language, confirmation_key = excluded.confirmation_key, name_key = excluded.name_key, phone_digits = excluded.phone_digits, phone_national = excluded.phone_national,
    email_key = excluded.email_key, origin = excluded.origin, updated_at = excluded.updated_at`;

/**
 * Ranks as in match.ts; the name is matched with LIKE on the folded name, its wildcards escaped. The end of a phone is
 * matched with LIKE too: `@phone` holds digits only, never a wildcard.
 */
const SEARCH = `SELECT ${COLUMNS},
    CASE
      WHEN confirmation_key = @id THEN ${RANK.confirmationNumber}
      WHEN email_key = @email THEN ${RANK.email}
      WHEN @phone IS NOT NULL AND (phone_digits = @phone OR phone_national = @phone) THEN ${RANK.phone}
      WHEN @phone IS NOT NULL AND phone_digits LIKE '%' || @phone THEN ${RANK.phoneEnd}
      WHEN name_key = @name THEN ${RANK.nameExact}
      WHEN name_key LIKE @name_start ESCAPE '\\' OR name_key LIKE @word_start ESCAPE '\\' THEN ${RANK.nameWordStart}
      ELSE ${RANK.nameContains}
    END AS rank
  FROM reservations
  WHERE (@id <> '' AND confirmation_key = @id) OR email_key = @email
     OR (@phone IS NOT NULL AND (phone_digits = @phone OR phone_national = @phone OR phone_digits LIKE '%' || @phone))
     OR (@name <> '' AND name_key LIKE @name_anywhere ESCAPE '\\')
  ORDER BY rank, check_in, id_key
  LIMIT ${MAX_SEARCH_RESULTS}`;

const likeEscape = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const toView = (row: ReservationRecord): ReservationView =>
  // Parsed on the way out: what leaves the store is what the contract says, whatever is in the file.
  ReservationView.parse({
    confirmationNumber: row.confirmation_number,
    guestName: row.guest_name,
    checkIn: row.check_in,
    checkOut: row.check_out,
    hotelName: row.hotel_name,
    balanceDueCents: row.balance_cents,
    currency: row.currency,
    ...(row.guest_phone === null ? {} : { guestPhone: row.guest_phone }),
    ...(row.guest_email === null ? {} : { guestEmail: row.guest_email }),
    ...guestLanguageOf({ language: row.guest_language ?? undefined, guestPhone: row.guest_phone ?? undefined }),
  });

/** The store's work is synchronous (better-sqlite3); its answer, and any error, still arrive through the promise. */
function settle<T>(fn: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(fn());
  });
}

export interface ReservationStoreOptions {
  /** The clock for updated_at and for placing the demo stays around today (ms since the epoch). */
  now?: () => number;
}

export class BuiltinReservationStore implements ReservationSource {
  readonly kind = 'builtin' as const;
  private file: SqliteFile | undefined;
  private readonly now: () => number;

  /** Opens (or creates) the reservations file at `path`; a file from a newer app is refused with `storage`. */
  constructor(path: string, options: ReservationStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    try {
      this.file = new SqliteFile(path, { label: 'reservations file', migrations: MIGRATIONS });
    } catch (error) {
      throw new ReservationError('storage', error instanceof Error && /newer version/.test(error.message) ? error.message : 'The reservations file could not be opened. Tell IT.');
    }
    try {
      this.fillConfirmationKeys();
    } catch {
      // A damaged file: the first read reports it as `storage`.
    }
  }

  get schemaVersion(): number {
    return this.open().schemaVersion;
  }

  /** How many reservations the file holds. */
  count(): number {
    return this.guard(() => (this.open().stmt('SELECT count(*) AS n FROM reservations').get() as { n: number }).n);
  }

  search(query: ReservationQuery): Promise<ReservationView[]> {
    return settle(() => {
      const { text } = checkQuery(query);
      const keys = queryKeys(text);
      const name = likeEscape(keys.name);
      return this.guard(() => {
        const rows = this.open()
          .stmt(SEARCH)
          .all({
            id: keys.id,
            email: keys.email,
            phone: keys.phoneDigits ?? null,
            name: keys.name,
            name_start: `${name}%`,
            word_start: `% ${name}%`,
            name_anywhere: `%${name}%`,
          }) as ReservationRecord[];
        return rows.map(toView);
      });
    });
  }

  get(confirmationNumber: string): Promise<ReservationView | undefined> {
    return settle(() => {
      const id = checkConfirmationNumber(confirmationNumber).toLowerCase();
      return this.guard(() => {
        const row = this.open().stmt(`SELECT ${COLUMNS} FROM reservations WHERE id_key = ?`).get(id) as ReservationRecord | undefined;
        return row === undefined ? undefined : toView(row);
      });
    });
  }

  /** Fills an empty store with the training-mode demo reservations; returns how many were added (0 when it held any). */
  seedDemo(): number {
    return this.guard(() =>
      this.open().transaction(() => {
        if (this.count() > 0) return 0;
        return this.write(demoReservations(this.now()), 'demo').created;
      }),
    );
  }

  /**
   * Imports a CSV file (columns: RESERVATION_CSV_COLUMNS) in one transaction: every row is written, or — when any row
   * is wrong — none, and the answer names each wrong row by line and column. A confirmation number already in the
   * store (any case) is replaced by the file's row.
   */
  importCsv(data: string | Uint8Array): CsvImportResult {
    const read = readReservationCsv(data);
    if (!read.ok) return read;
    return this.guard(() => ({ ok: true, ...this.open().transaction(() => this.write(read.rows, 'import')) }));
  }

  close(): Promise<void> {
    this.file?.close();
    this.file = undefined;
    return Promise.resolve();
  }

  private write(views: readonly ReservationView[], origin: 'demo' | 'import'): { created: number; updated: number } {
    const file = this.open();
    const exists = file.stmt('SELECT 1 FROM reservations WHERE id_key = ?');
    const upsert = file.stmt(UPSERT);
    const updatedAt = this.now();
    let created = 0;
    let updated = 0;
    for (const view of views) {
      const idKey = view.confirmationNumber.toLowerCase();
      if (exists.get(idKey) === undefined) created++;
      else updated++;
      const phone = view.guestPhone === undefined ? undefined : phoneKeys(view.guestPhone);
      upsert.run({
        id_key: idKey,
        confirmation_number: view.confirmationNumber,
        confirmation_key: confirmationKey(view.confirmationNumber),
        guest_name: view.guestName,
        name_key: foldText(view.guestName),
        check_in: view.checkIn,
        check_out: view.checkOut,
        hotel_name: view.hotelName,
        balance_cents: view.balanceDueCents,
        currency: view.currency,
        guest_phone: view.guestPhone ?? null,
        phone_digits: phone?.digits ?? null,
        phone_national: phone?.national ?? null,
        guest_email: view.guestEmail ?? null,
        guest_language: view.guestLanguageFrom === 'reservation' ? view.guestLanguage : null,
        email_key: view.guestEmail?.toLowerCase() ?? null,
        origin,
        updated_at: updatedAt,
      });
    }
    return { created, updated };
  }

  /** Rows written before schema 2 get their confirmation key (once: later writes set it). */
  private fillConfirmationKeys(): void {
    const file = this.open();
    const missing = file.stmt('SELECT id_key, confirmation_number FROM reservations WHERE confirmation_key IS NULL').all() as { id_key: string; confirmation_number: string }[];
    if (missing.length === 0) return;
    const set = file.stmt('UPDATE reservations SET confirmation_key = ? WHERE id_key = ?');
    file.transaction(() => {
      for (const row of missing) set.run(confirmationKey(row.confirmation_number), row.id_key);
    });
  }

  private open(): SqliteFile {
    if (this.file === undefined) throw closedError();
    return this.file;
  }

  /** SQLite failures (disk full, a damaged file) reach the agent as `storage`, never as a driver message. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof ReservationError) throw error;
      throw new ReservationError('storage', 'The reservations file could not be read or written. Try again; if it keeps happening, tell IT.');
    }
  }
}
