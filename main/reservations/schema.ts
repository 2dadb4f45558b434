/**
 * The reservations' tables: the embedded file (reservations.db, and training's own reservations-training.db) with
 * SQLite's full-text search, and the center's `reservations` schema with PostgreSQL's (unaccent, pg_trgm).
 */
import { sql, type Kysely } from 'kysely';
import type { Currency } from '../../shared/payments';
import { createTableMigration, deskHeldTable, type StoreDefinition } from '../storage';
import { APOSTROPHES } from './match';

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
export const CENTER_SCHEMA = 'reservations';

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
  await sql`CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA ${sql.id(CENTER_SCHEMA)}`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA ${sql.id(CENTER_SCHEMA)}`.execute(db);
  const installed = await sql<{ extname: string; schema: string }>`
    SELECT e.extname, n.nspname AS schema FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname IN ('unaccent', 'pg_trgm')`.execute(db);
  const schemaOf = (extension: string): string =>
    installed.rows.find((row) => row.extname === extension)?.schema ?? CENTER_SCHEMA;
  const unaccent = schemaOf('unaccent');
  const trgm = schemaOf('pg_trgm');
  const apostrophes = `[${APOSTROPHES}]`;
  // Separators beyond ASCII punctuation ([:punct:] is ASCII only in some locales): dashes, quotes, ¡ ¿ « » and the ellipsis.
  const separators = '[[:space:][:punct:]\u00a1\u00ab\u00bb\u00bf\u2010-\u2015\u2018-\u201f\u2026]+';
  await sql`CREATE FUNCTION ${sql.table(`${CENTER_SCHEMA}.search_text`)}(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN btrim(regexp_replace(regexp_replace(lower(${sql.id(unaccent)}.unaccent(${sql.lit(`${unaccent}.unaccent`)}::regdictionary, $1)),
      ${sql.lit(apostrophes)}, '', 'g'), ${sql.lit(separators)}, ' ', 'g'))`.execute(db);
  await sql`GRANT EXECUTE ON FUNCTION ${sql.table(`${CENTER_SCHEMA}.search_text`)}(text) TO PUBLIC`.execute(db);
  const table = sql.table(`${CENTER_SCHEMA}.reservations`);
  await sql`ALTER TABLE ${table} ADD COLUMN search_name text GENERATED ALWAYS AS (${sql.table(`${CENTER_SCHEMA}.search_text`)}(guest_name)) STORED`.execute(
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
      '0001_reservations': createTableMigration(
        'reservations',
        (table) =>
          table
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
            .addColumn('desk_id', 'text', (c) => c.notNull()),
        async (db) => {
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
      ),
      '0002_search': { up: (db: Kysely<unknown>) => postgresSearchMigration(db) },
      // Any desk imports any reservation (the same number again replaces the row), always in its own name: a row is
      // added, and replaced, only to name the writing login's desk.
      '0003_desk_rows': {
        up: async (db: Kysely<unknown>) =>
          void (await sql.raw(deskHeldTable('reservations', 'reservations', 'true')).execute(db)),
      },
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
export interface ReservationsTable {
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
