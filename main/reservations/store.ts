/**
 * The built-in reservation store: demo or imported reservations, searched by the shared rules. Imported reservations are
 * the center's (reservations.db, or the center's `reservations` schema): one import serves every desk, and importing the
 * same file again, at any desk, replaces each reservation by its confirmation number (unique, any case). Training's demo
 * guests stay in the desk's own file (reservations-training.db), never on the center.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Currency } from '../../shared/payments';
import {
  MAX_SEARCH_RESULTS,
  ReservationView,
  guestLanguageOf,
  type CsvImportResult,
  type ReservationQuery,
} from '../../shared/reservations';
import { embeddedStorage, StorageError, type Storage, type StoreDatabase, type StoreDefinition } from '../storage';
import { readReservationCsv } from './csv';
import { demoReservations } from './demo';
import { ReservationError } from './errors';
import {
  APOSTROPHES,
  MIN_FRAGMENT_CHARS,
  RANK,
  confirmationKey,
  foldText,
  phoneKeys,
  queryKeys,
  type QueryKeys,
} from './match';
import { checkConfirmationNumber, checkQuery, closedError, type ReservationSource } from './source';

/** The file for real (imported) reservations, and training's own. */
export const RESERVATIONS_FILE = 'reservations.db';
export const TRAINING_RESERVATIONS_FILE = 'reservations-training.db';

/** A SQL expression: the column's text without the apostrophes a name is written with (APOSTROPHES). */
function sqliteWithoutApostrophes(column: string): string {
  return [...APOSTROPHES].reduce(
    (expression, mark) => `replace(${expression}, '${mark.replace(/'/g, "''")}', '')`,
    column,
  );
}

/** The center's schema of this store. */
const SCHEMA = 'reservations';

/**
 * PostgreSQL's own search on the center: `unaccent` folds accents, `pg_trgm` indexes parts of words for LIKE.
 * Both are contrib extensions marked trusted (PostgreSQL 13 on): the schema owner who runs --migrate-center may create
 * them, with its CREATE privilege on the database (docs/center/setup.sql), no superuser. They go in this store's schema
 * unless IT already installed them elsewhere, in which case they are used where they are.
 * search_text(text) is the name as it is compared: unaccented, lower case, apostrophes dropped ("O'Connor" is
 * "oconnor"), other punctuation a space ("García, Pedro" is "garcia pedro"). It is a pure function of its text:
 * every role that may use the schema may call it (the owner's default privileges would withhold it). The column
 * search_name holds it for each reservation, existing ones computed here, and its trigram index serves LIKE. The
 * confirmation key and the phone's digits get trigram indexes too (a part of the number; a phone's start or end), so
 * that every branch of a search is served by an index.
 */
async function postgresSearchMigration(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA ${sql.id(SCHEMA)}`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA ${sql.id(SCHEMA)}`.execute(db);
  const installed = await sql<{ extname: string; schema: string }>`
    SELECT e.extname, n.nspname AS schema FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname IN ('unaccent', 'pg_trgm')`.execute(db);
  const schemaOf = (extension: string): string =>
    installed.rows.find((row) => row.extname === extension)?.schema ?? SCHEMA;
  const unaccent = schemaOf('unaccent');
  const trgm = schemaOf('pg_trgm');
  const apostrophes = `[${APOSTROPHES}]`;
  // Separators beyond ASCII punctuation ([:punct:] is ASCII only in some locales): dashes, quotes, ¡ ¿ « » and the ellipsis.
  const separators = '[[:space:][:punct:]\u00a1\u00ab\u00bb\u00bf\u2010-\u2015\u2018-\u201f\u2026]+';
  await sql`CREATE FUNCTION ${sql.table(`${SCHEMA}.search_text`)}(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN btrim(regexp_replace(regexp_replace(lower(${sql.id(unaccent)}.unaccent(${sql.lit(`${unaccent}.unaccent`)}::regdictionary, $1)),
      ${sql.lit(apostrophes)}, '', 'g'), ${sql.lit(separators)}, ' ', 'g'))`.execute(db);
  await sql`GRANT EXECUTE ON FUNCTION ${sql.table(`${SCHEMA}.search_text`)}(text) TO PUBLIC`.execute(db);
  const table = sql.table(`${SCHEMA}.reservations`);
  await sql`ALTER TABLE ${table} ADD COLUMN search_name text GENERATED ALWAYS AS (${sql.table(`${SCHEMA}.search_text`)}(guest_name)) STORED`.execute(
    db,
  );
  await sql`CREATE INDEX reservations_search_name ON ${table} USING gin (search_name ${sql.id(trgm)}.gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX reservations_confirmation_part ON ${table} USING gin (confirmation_key ${sql.id(trgm)}.gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX reservations_phone_national_part ON ${table} USING gin (phone_national ${sql.id(trgm)}.gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX reservations_phone_digits_part ON ${table} USING gin (phone_digits ${sql.id(trgm)}.gin_trgm_ops)`.execute(
    db,
  );
}

const sqliteMigrations = {
  '0001_reservations': {
    up: async (db: Kysely<unknown>) => {
      await sql`CREATE TABLE reservations (
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
   CREATE INDEX reservations_phone_national ON reservations (phone_national);`.execute(db);
    },
  },
  // The confirmation number without spaces or dashes, in lower case (confirmationKey): "cun6b3d8f" finds CUN-6B3D8F.
  // Rows of version 1 get theirs when the store opens (SQLite cannot strip every Unicode dash itself). The
  // reservation's own language (es-MX or en-US, NULL when the file had none: the phone's country decides).
  '0002_confirmation_key': {
    up: async (db: Kysely<unknown>) => {
      await sql`ALTER TABLE reservations ADD COLUMN confirmation_key TEXT;
   CREATE INDEX reservations_confirmation_key ON reservations (confirmation_key);
   ALTER TABLE reservations ADD COLUMN guest_language TEXT CHECK (guest_language IN ('es-MX', 'en-US'));`.execute(db);
    },
  },
  // The desk that last wrote each reservation ('' before desks had ids).
  '0003_desk': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .alterTable('reservations')
        .addColumn('desk_id', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  // SQLite's full-text search, kept by triggers, existing reservations indexed here. reservation_words: the name's
  // words without accents or case (unicode61 remove_diacritics 2), any order, by their start (prefix indexes), and the
  // phone's digits (the number inside its country, and with its country code, each a column of its own) by their start. reservation_fragments
  // (trigram): a part of the name of 3 characters or more, and a part of the confirmation key ("6b3d8f"). Apostrophes
  // are dropped from names before either sees them, so that "oconnor" finds O'Connor.
  '0004_search': {
    up: async (db: Kysely<unknown>) => {
      const name = (row: 'new') => sql.raw(sqliteWithoutApostrophes(`${row}.guest_name`));
      const insert = sql`INSERT INTO reservation_words (rowid, name, phone_national, phone_digits)
           VALUES (new.rowid, ${name('new')}, new.phone_national, new.phone_digits);
         INSERT INTO reservation_fragments (rowid, name, reference) VALUES (new.rowid, ${name('new')}, coalesce(new.confirmation_key, ''));`;
      const remove = sql`DELETE FROM reservation_words WHERE rowid = old.rowid;
         DELETE FROM reservation_fragments WHERE rowid = old.rowid;`;
      await sql`CREATE VIRTUAL TABLE reservation_words USING fts5(name, phone_national, phone_digits, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
   CREATE VIRTUAL TABLE reservation_fragments USING fts5(name, reference, tokenize = 'trigram remove_diacritics 1');
   CREATE TRIGGER reservations_search_insert AFTER INSERT ON reservations BEGIN ${insert} END;
   CREATE TRIGGER reservations_search_update AFTER UPDATE ON reservations BEGIN ${remove} ${insert} END;
   CREATE TRIGGER reservations_search_delete AFTER DELETE ON reservations BEGIN ${remove} END;
   INSERT INTO reservation_words (rowid, name, phone_national, phone_digits)
     SELECT rowid, ${sql.raw(sqliteWithoutApostrophes('guest_name'))}, phone_national, phone_digits FROM reservations;
   INSERT INTO reservation_fragments (rowid, name, reference)
     SELECT rowid, ${sql.raw(sqliteWithoutApostrophes('guest_name'))}, coalesce(confirmation_key, '') FROM reservations;`.execute(
        db,
      );
    },
  },
};

export const RESERVATIONS_STORE: StoreDefinition = {
  name: 'reservations',
  label: 'reservations',
  sqlite: { file: RESERVATIONS_FILE, adoptsUserVersion: 2, migrations: sqliteMigrations },
  postgres: {
    migrations: {
      '0001_reservations': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .createTable('reservations')
            // The confirmation number in lower case: one reservation per number, any case, whichever desk imports it.
            .addColumn('id_key', 'text', (c) => c.primaryKey())
            .addColumn('confirmation_number', 'text', (c) => c.notNull())
            .addColumn('guest_name', 'text', (c) => c.notNull())
            .addColumn('name_key', 'text', (c) => c.notNull())
            .addColumn('check_in', 'text', (c) => c.notNull())
            .addColumn('check_out', 'text', (c) => c.notNull())
            .addColumn('hotel_name', 'text', (c) => c.notNull())
            .addColumn('balance_cents', 'bigint', (c) => c.notNull().check(sql`balance_cents >= 0`))
            .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency IN ('usd', 'mxn')`))
            .addColumn('guest_phone', 'text')
            .addColumn('phone_digits', 'text')
            .addColumn('phone_national', 'text')
            .addColumn('guest_email', 'text')
            .addColumn('email_key', 'text')
            .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin IN ('demo', 'import')`))
            .addColumn('updated_at', 'bigint', (c) => c.notNull())
            .addColumn('confirmation_key', 'text')
            .addColumn('guest_language', 'text', (c) => c.check(sql`guest_language IN ('es-MX', 'en-US')`))
            .addColumn('desk_id', 'text', (c) => c.notNull())
            .execute();
          await db.schema.createIndex('reservations_email').on('reservations').column('email_key').execute();
          await db.schema.createIndex('reservations_phone_digits').on('reservations').column('phone_digits').execute();
          await db.schema
            .createIndex('reservations_phone_national')
            .on('reservations')
            .column('phone_national')
            .execute();
          await db.schema
            .createIndex('reservations_confirmation_key')
            .on('reservations')
            .column('confirmation_key')
            .execute();
        },
      },
      '0002_search': { up: (db: Kysely<unknown>) => postgresSearchMigration(db) },
    },
    // Imports add and replace; nothing is deleted.
    grants: { reservations: ['SELECT', 'INSERT', 'UPDATE'] },
  },
};

/** Training's demo guests: the desk's own file, the same tables (never opened on the center). */
export const TRAINING_RESERVATIONS_STORE: StoreDefinition = {
  ...RESERVATIONS_STORE,
  name: 'reservations_training',
  label: 'training reservations',
  sqlite: { ...RESERVATIONS_STORE.sqlite, file: TRAINING_RESERVATIONS_FILE },
};

/** The number of migrations of the reservations file. */
export const RESERVATIONS_SCHEMA_VERSION = Object.keys(sqliteMigrations).length;

interface ReservationsTable {
  id_key: string;
  confirmation_number: string;
  guest_name: string;
  name_key: string;
  check_in: string;
  check_out: string;
  hotel_name: string;
  balance_cents: number;
  currency: Currency;
  guest_phone: string | null;
  phone_digits: string | null;
  phone_national: string | null;
  guest_email: string | null;
  email_key: string | null;
  origin: 'demo' | 'import';
  updated_at: number;
  confirmation_key: string | null;
  guest_language: string | null;
  desk_id: string;
}

export interface ReservationsDB {
  reservations: ReservationsTable;
}

type ReservationRecord = Pick<
  ReservationsTable,
  | 'confirmation_number'
  | 'guest_name'
  | 'check_in'
  | 'check_out'
  | 'hotel_name'
  | 'balance_cents'
  | 'currency'
  | 'guest_phone'
  | 'guest_email'
  | 'guest_language'
>;

const COLUMNS = [
  'confirmation_number',
  'guest_name',
  'check_in',
  'check_out',
  'hotel_name',
  'balance_cents',
  'currency',
  'guest_phone',
  'guest_email',
  'guest_language',
] as const;

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

/** The conditions of a search that each backend's own text search decides (RANK); undefined where the text has none. */
interface TextMatch {
  phoneStart?: RawBuilder<SqlBool>;
  reference?: RawBuilder<SqlBool>;
  /** Every word typed is a whole word of the name. */
  nameWords?: RawBuilder<SqlBool>;
  /** Every word typed starts a word of the name. */
  nameWordStart?: RawBuilder<SqlBool>;
  /** Every word typed is in the name (MIN_FRAGMENT_CHARS or more), or starts a word of it (shorter): the least a name match is. */
  nameContains?: RawBuilder<SqlBool>;
}

const and = (conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;

/** An FTS5 string: the text in double quotes, its own doubled (the words and keys hold letters and digits only, mostly). */
const ftsString = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** SQLite: FTS5 MATCH on the tables 0004_search keeps (words by their start, trigram parts). */
function sqliteMatch(keys: QueryKeys): TextMatch {
  const inTable = (table: 'reservation_words' | 'reservation_fragments', query: string): RawBuilder<SqlBool> =>
    sql<SqlBool>`rowid IN (SELECT rowid FROM ${sql.table(table)} WHERE ${sql.table(table)} MATCH ${query})`;
  const match: TextMatch = {};
  if (keys.phoneDigits !== undefined)
    match.phoneStart = inTable('reservation_words', `{phone_national phone_digits} : ${ftsString(keys.phoneDigits)}*`);
  if (keys.reference !== undefined)
    match.reference = inTable('reservation_fragments', `reference : ${ftsString(keys.reference)}`);
  if (keys.words.length === 0) return match;
  const all = (each: (word: string) => string): string => `name : (${keys.words.map(each).join(' AND ')})`;
  match.nameWords = inTable('reservation_words', all(ftsString));
  match.nameWordStart = inTable(
    'reservation_words',
    all((word) => `${ftsString(word)}*`),
  );
  // The trigram index finds a part of 3 characters or more; a shorter word must start a word of the name.
  const long = keys.words.filter((word) => word.length >= MIN_FRAGMENT_CHARS);
  const short = keys.words.filter((word) => word.length < MIN_FRAGMENT_CHARS);
  match.nameContains = and([
    ...(long.length === 0 ? [] : [inTable('reservation_fragments', `name : (${long.map(ftsString).join(' AND ')})`)]),
    ...(short.length === 0
      ? []
      : [inTable('reservation_words', `name : (${short.map((word) => `${ftsString(word)}*`).join(' AND ')})`)]),
  ]);
  return match;
}

/** PostgreSQL: LIKE on search_name (search_text, unaccent) and the confirmation key, served by pg_trgm's indexes (0002_search). */
function postgresMatch(keys: QueryKeys): TextMatch {
  const match: TextMatch = {};
  const escape = '\\';
  if (keys.phoneDigits !== undefined) {
    const start = `${keys.phoneDigits}%`;
    match.phoneStart = sql<SqlBool>`(phone_national LIKE ${start} OR phone_digits LIKE ${start})`;
  }
  if (keys.reference !== undefined)
    match.reference = sql<SqlBool>`confirmation_key LIKE ${`%${likeEscape(keys.reference)}%`} ESCAPE ${escape}`;
  if (keys.words.length === 0) return match;
  // Each word folded by the center's own search_text; what is left are letters and digits, never a LIKE wildcard.
  const folded = (word: string) => sql<string>`${sql.table(`${SCHEMA}.search_text`)}(${word})`;
  const startsWord = (word: string) =>
    sql<SqlBool>`(search_name LIKE ${folded(word)} || '%' OR search_name LIKE '% ' || ${folded(word)} || '%')`;
  match.nameWords = and(
    keys.words.map((word) => sql<SqlBool>`(' ' || search_name || ' ') LIKE '% ' || ${folded(word)} || ' %'`),
  );
  match.nameWordStart = and(keys.words.map(startsWord));
  match.nameContains = and(
    keys.words.map((word) =>
      word.length >= MIN_FRAGMENT_CHARS
        ? sql<SqlBool>`search_name LIKE '%' || ${folded(word)} || '%'`
        : startsWord(word),
    ),
  );
  return match;
}

export interface ReservationStoreOptions {
  /** The clock for updated_at and for placing the demo stays around today (ms since the epoch). */
  now?: () => number;
  /** Training's own file (demo guests), always the desk's embedded one. */
  training?: boolean;
  /** The desk that writes (recorded on each reservation it imports). */
  deskId?: string;
}

export class BuiltinReservationStore implements ReservationSource {
  readonly kind = 'builtin' as const;
  private store: StoreDatabase<ReservationsDB> | undefined;
  private readonly now: () => number;
  private readonly deskId: string;

  private constructor(
    store: StoreDatabase<ReservationsDB>,
    options: ReservationStoreOptions,
    /** A storage the store opened itself (a folder's files), closed with it. */
    private readonly owned: Storage | undefined,
  ) {
    this.store = store;
    this.now = options.now ?? Date.now;
    this.deskId = options.deskId ?? '';
  }

  /**
   * The imported reservations on `storage` (the center's when it is the center), or training's in `dataDir`'s own file.
   * A file or schema this app cannot use is refused with `storage`, its reason in words.
   */
  static async open(storage: Storage, options: ReservationStoreOptions = {}): Promise<BuiltinReservationStore> {
    let opened: StoreDatabase<ReservationsDB>;
    try {
      opened = await storage.open<ReservationsDB>(
        options.training === true ? TRAINING_RESERVATIONS_STORE : RESERVATIONS_STORE,
      );
    } catch (error) {
      // The center's refusal travels as its own code (center_unavailable, center_not_ready…); the file's, as before.
      if (error instanceof StorageError && storage.backend === 'postgres') throw error;
      throw new ReservationError(
        'storage',
        error instanceof StorageError ? error.message : 'The reservations file could not be opened. Tell IT.',
      );
    }
    const store = new BuiltinReservationStore(opened, options, undefined);
    try {
      await store.fillConfirmationKeys();
    } catch {
      // A damaged file: the first read reports it as `storage`.
    }
    return store;
  }

  /** The store in a data folder's own files (tests, tools), closed with it. */
  static async openFolder(dataDir: string, options: ReservationStoreOptions = {}): Promise<BuiltinReservationStore> {
    const storage = embeddedStorage(dataDir);
    try {
      const store = await BuiltinReservationStore.open(storage, options);
      return new BuiltinReservationStore(store.open(), options, storage);
    } catch (error) {
      await storage.close();
      throw error;
    }
  }

  get schemaVersion(): number {
    return this.open().schemaVersion;
  }

  /** How many reservations the store holds. */
  count(): Promise<number> {
    return this.guard(async () => {
      const row = await this.open()
        .db.selectFrom('reservations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    });
  }

  async search(query: ReservationQuery): Promise<ReservationView[]> {
    const { text } = checkQuery(query);
    const keys = queryKeys(text);
    return this.guard(async () => {
      const store = this.open();
      const match = store.backend === 'postgres' ? postgresMatch(keys) : sqliteMatch(keys);
      const phone = keys.phoneDigits ?? null;
      const phoneEnd = sql<SqlBool>`phone_digits LIKE '%' || CAST(${phone} AS text)`;
      const never = sql<SqlBool>`1 = 0`;
      const rank = sql<number>`CASE
          WHEN confirmation_key = ${keys.id} THEN ${sql.lit(RANK.confirmationNumber)}
          WHEN email_key = ${keys.email} THEN ${sql.lit(RANK.email)}
          WHEN ${phone === null ? never : sql<SqlBool>`phone_digits = ${phone} OR phone_national = ${phone}`} THEN ${sql.lit(RANK.phone)}
          WHEN ${phone === null ? never : phoneEnd} THEN ${sql.lit(RANK.phoneEnd)}
          WHEN ${match.phoneStart ?? never} THEN ${sql.lit(RANK.phoneStart)}
          WHEN ${match.reference ?? never} THEN ${sql.lit(RANK.confirmationPart)}
          WHEN name_key = ${keys.name} THEN ${sql.lit(RANK.nameExact)}
          WHEN ${match.nameWords ?? never} THEN ${sql.lit(RANK.nameWords)}
          WHEN ${match.nameWordStart ?? never} THEN ${sql.lit(RANK.nameWordStart)}
          ELSE ${sql.lit(RANK.nameContains)}
        END`;
      const rows = await store.db
        .selectFrom('reservations')
        .select([...COLUMNS, rank.as('rank')])
        .where((eb) =>
          eb.or([
            ...(keys.id === '' ? [] : [eb('confirmation_key', '=', keys.id)]),
            eb('email_key', '=', keys.email),
            ...(phone === null ? [] : [eb('phone_digits', '=', phone), eb('phone_national', '=', phone), phoneEnd]),
            ...(match.phoneStart === undefined ? [] : [match.phoneStart]),
            ...(match.reference === undefined ? [] : [match.reference]),
            ...(match.nameContains === undefined ? [] : [match.nameContains]),
          ]),
        )
        .orderBy('rank')
        .orderBy('check_in')
        .orderBy('id_key')
        .limit(MAX_SEARCH_RESULTS)
        .execute();
      return rows.map(toView);
    });
  }

  async get(confirmationNumber: string): Promise<ReservationView | undefined> {
    const id = checkConfirmationNumber(confirmationNumber).toLowerCase();
    return this.guard(async () => {
      const row = await this.open()
        .db.selectFrom('reservations')
        .select(COLUMNS)
        .where('id_key', '=', id)
        .executeTakeFirst();
      return row === undefined ? undefined : toView(row);
    });
  }

  /** Fills an empty store with the training-mode demo reservations; returns how many were added (0 when it held any). */
  seedDemo(): Promise<number> {
    return this.guard(() =>
      this.writing(async (trx) => {
        const held = await trx.selectFrom('reservations').select('id_key').limit(1).executeTakeFirst();
        if (held !== undefined) return 0;
        return (await this.write(trx, demoReservations(this.now()), 'demo')).created;
      }),
    );
  }

  /**
   * Imports a CSV file (columns: RESERVATION_CSV_COLUMNS) in one transaction: every row is written, or — when any row
   * is wrong — none, and the answer names each wrong row by line and column. A confirmation number already in the
   * store (any case, imported at any desk) is replaced by the file's row: importing the same file again changes nothing.
   */
  async importCsv(data: string | Uint8Array): Promise<CsvImportResult> {
    const read = readReservationCsv(data);
    if (!read.ok) return read;
    return this.guard(async () => ({
      ok: true as const,
      ...(await this.writing((trx) => this.write(trx, read.rows, 'import'))),
    }));
  }

  async close(): Promise<void> {
    const store = this.store;
    this.store = undefined;
    if (store === undefined) return;
    await store.close();
    await this.owned?.close();
  }

  /**
   * One writing transaction. On the center, the imports of every desk take turns (a transaction-scoped advisory lock):
   * each counts what it created and replaced truly, and two imports of one file at once write each reservation once.
   */
  private writing<T>(fn: (trx: Kysely<ReservationsDB>) => Promise<T>): Promise<T> {
    const store = this.open();
    return store.transaction(async (trx) => {
      if (store.backend === 'postgres')
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${'reservations:write'}, 0))`.execute(trx);
      return fn(trx);
    });
  }

  private async write(
    trx: Kysely<ReservationsDB>,
    views: readonly ReservationView[],
    origin: 'demo' | 'import',
  ): Promise<{ created: number; updated: number }> {
    const updatedAt = this.now();
    let created = 0;
    let updated = 0;
    for (const view of views) {
      const idKey = view.confirmationNumber.toLowerCase();
      const exists = await trx
        .selectFrom('reservations')
        .select('id_key')
        .where('id_key', '=', idKey)
        .executeTakeFirst();
      if (exists === undefined) created++;
      else updated++;
      const phone = view.guestPhone === undefined ? undefined : phoneKeys(view.guestPhone);
      const row: ReservationsTable = {
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
        desk_id: this.deskId,
      };
      // The same number again (any case, from any desk): the file's row replaces it.
      await trx
        .insertInto('reservations')
        .values(row)
        .onConflict((oc) =>
          oc.column('id_key').doUpdateSet((eb) => ({
            confirmation_number: eb.ref('excluded.confirmation_number'),
            confirmation_key: eb.ref('excluded.confirmation_key'),
            guest_name: eb.ref('excluded.guest_name'),
            name_key: eb.ref('excluded.name_key'),
            check_in: eb.ref('excluded.check_in'),
            check_out: eb.ref('excluded.check_out'),
            hotel_name: eb.ref('excluded.hotel_name'),
            balance_cents: eb.ref('excluded.balance_cents'),
            currency: eb.ref('excluded.currency'),
            guest_phone: eb.ref('excluded.guest_phone'),
            phone_digits: eb.ref('excluded.phone_digits'),
            phone_national: eb.ref('excluded.phone_national'),
            guest_email: eb.ref('excluded.guest_email'),
            guest_language: eb.ref('excluded.guest_language'),
            email_key: eb.ref('excluded.email_key'),
            origin: eb.ref('excluded.origin'),
            updated_at: eb.ref('excluded.updated_at'),
            desk_id: eb.ref('excluded.desk_id'),
          })),
        )
        .execute();
    }
    return { created, updated };
  }

  /** Rows written before schema 2 get their confirmation key (once: later writes set it). */
  private async fillConfirmationKeys(): Promise<void> {
    const store = this.open();
    const missing = await store.db
      .selectFrom('reservations')
      .select(['id_key', 'confirmation_number'])
      .where('confirmation_key', 'is', null)
      .execute();
    if (missing.length === 0) return;
    await store.transaction(async (trx) => {
      for (const row of missing)
        await trx
          .updateTable('reservations')
          .set({ confirmation_key: confirmationKey(row.confirmation_number) })
          .where('id_key', '=', row.id_key)
          .execute();
    });
  }

  private open(): StoreDatabase<ReservationsDB> {
    if (this.store === undefined) throw closedError();
    return this.store;
  }

  /**
   * The file's failures reach the agent as `storage`, the center's as their own code (center_unavailable…), both in
   * words, never as a driver message.
   */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ReservationError || error instanceof StorageError) throw error;
      throw new ReservationError('storage');
    }
  }
}
