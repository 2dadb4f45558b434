/**
 * The built-in reservation store: demo or imported reservations, searched by the shared rules. Imported reservations are
 * the center's (reservations.db, or the center's `reservations` schema): one import serves every desk, and importing the
 * same file again, at any desk, replaces each reservation by its confirmation number (unique, any case). Training's demo
 * guests stay in the desk's own file (reservations-training.db), never on the center.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Currency } from '../../shared/payments';
import { MAX_SEARCH_RESULTS, ReservationView, guestLanguageOf, type CsvImportResult, type ReservationQuery } from '../../shared/reservations';
import { embeddedStorage, StorageError, type Storage, type StoreDatabase, type StoreDefinition } from '../storage';
import { readReservationCsv } from './csv';
import { demoReservations } from './demo';
import { ReservationError } from './errors';
import { RANK, confirmationKey, foldText, phoneKeys, queryKeys } from './match';
import { checkConfirmationNumber, checkQuery, closedError, type ReservationSource } from './source';

/** The file for real (imported) reservations, and training's own. */
export const RESERVATIONS_FILE = 'reservations.db';
export const TRAINING_RESERVATIONS_FILE = 'reservations-training.db';

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
      await db.schema.alterTable('reservations').addColumn('desk_id', 'text', (c) => c.notNull().defaultTo('')).execute();
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
          await db.schema.createIndex('reservations_phone_national').on('reservations').column('phone_national').execute();
          await db.schema.createIndex('reservations_confirmation_key').on('reservations').column('confirmation_key').execute();
        },
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
  'confirmation_number' | 'guest_name' | 'check_in' | 'check_out' | 'hotel_name' | 'balance_cents' | 'currency' | 'guest_phone' | 'guest_email' | 'guest_language'
>;

const COLUMNS = ['confirmation_number', 'guest_name', 'check_in', 'check_out', 'hotel_name', 'balance_cents', 'currency', 'guest_phone', 'guest_email', 'guest_language'] as const;

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
      opened = await storage.open<ReservationsDB>(options.training === true ? TRAINING_RESERVATIONS_STORE : RESERVATIONS_STORE);
    } catch (error) {
      // The center's refusal travels as its own code (center_unavailable, center_not_ready…); the file's, as before.
      if (error instanceof StorageError && storage.backend === 'postgres') throw error;
      throw new ReservationError('storage', error instanceof StorageError ? error.message : 'The reservations file could not be opened. Tell IT.');
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
      const row = await this.open().db.selectFrom('reservations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    });
  }

  async search(query: ReservationQuery): Promise<ReservationView[]> {
    const { text } = checkQuery(query);
    const keys = queryKeys(text);
    const name = likeEscape(keys.name);
    const phone = keys.phoneDigits ?? null;
    const escape = '\\';
    return this.guard(async () => {
      const hasPhone = sql<SqlBool>`CAST(${phone} AS text) IS NOT NULL`;
      const phoneEnd = sql<SqlBool>`phone_digits LIKE '%' || CAST(${phone} AS text)`;
      const rank = sql<number>`CASE
          WHEN confirmation_key = ${keys.id} THEN ${sql.lit(RANK.confirmationNumber)}
          WHEN email_key = ${keys.email} THEN ${sql.lit(RANK.email)}
          WHEN ${hasPhone} AND (phone_digits = ${phone} OR phone_national = ${phone}) THEN ${sql.lit(RANK.phone)}
          WHEN ${hasPhone} AND ${phoneEnd} THEN ${sql.lit(RANK.phoneEnd)}
          WHEN name_key = ${keys.name} THEN ${sql.lit(RANK.nameExact)}
          WHEN name_key LIKE ${`${name}%`} ESCAPE ${escape} OR name_key LIKE ${`% ${name}%`} ESCAPE ${escape} THEN ${sql.lit(RANK.nameWordStart)}
          ELSE ${sql.lit(RANK.nameContains)}
        END`;
      const rows = await this.open()
        .db.selectFrom('reservations')
        .select([...COLUMNS, rank.as('rank')])
        .where((eb) =>
          eb.or([
            ...(keys.id === '' ? [] : [eb('confirmation_key', '=', keys.id)]),
            eb('email_key', '=', keys.email),
            ...(phone === null ? [] : [eb('phone_digits', '=', phone), eb('phone_national', '=', phone), phoneEnd]),
            ...(keys.name === '' ? [] : [sql<SqlBool>`name_key LIKE ${`%${name}%`} ESCAPE ${escape}`]),
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
      const row = await this.open().db.selectFrom('reservations').select(COLUMNS).where('id_key', '=', id).executeTakeFirst();
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
    return this.guard(async () => ({ ok: true as const, ...(await this.writing((trx) => this.write(trx, read.rows, 'import'))) }));
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
      if (store.backend === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtextextended(${'reservations:write'}, 0))`.execute(trx);
      return fn(trx);
    });
  }

  private async write(trx: Kysely<ReservationsDB>, views: readonly ReservationView[], origin: 'demo' | 'import'): Promise<{ created: number; updated: number }> {
    const updatedAt = this.now();
    let created = 0;
    let updated = 0;
    for (const view of views) {
      const idKey = view.confirmationNumber.toLowerCase();
      const exists = await trx.selectFrom('reservations').select('id_key').where('id_key', '=', idKey).executeTakeFirst();
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
    const missing = await store.db.selectFrom('reservations').select(['id_key', 'confirmation_number']).where('confirmation_key', 'is', null).execute();
    if (missing.length === 0) return;
    await store.transaction(async (trx) => {
      for (const row of missing) await trx.updateTable('reservations').set({ confirmation_key: confirmationKey(row.confirmation_number) }).where('id_key', '=', row.id_key).execute();
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
      throw new ReservationError('storage', 'The reservations file could not be read or written. Try again; if it keeps happening, tell IT.');
    }
  }
}
