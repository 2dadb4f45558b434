/**
 * The built-in reservation store: demo or imported reservations, searched by the shared rules. Imported reservations are
 * the center's (reservations.db, or the center's `reservations` schema): one import serves every desk, and importing the
 * same file again, at any desk, replaces each reservation by its confirmation number (unique, any case). Training's demo
 * guests stay in the desk's own file (reservations-training.db), never on the center.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import {
  MAX_SEARCH_RESULTS,
  ReservationView,
  guestLanguageOf,
  type CsvImportResult,
  type ReservationQuery,
} from '../../shared/reservations';
import { embeddedStorage, StorageError, type Storage, type StoreDatabase } from '../storage';
import { readReservationCsv } from './csv';
import { demoReservations } from './demo';
import { ReservationError } from './errors';
import { RANK, confirmationKey, foldText, phoneKeys, queryKeys } from './match';
import { RESERVATIONS_STORE, TRAINING_RESERVATIONS_STORE, type ReservationsDB, type ReservationsTable } from './schema';
import { checkConfirmationNumber, checkQuery, closedError, type ReservationSource } from './source';
import { postgresMatch, sqliteMatch } from './text-match';

// What composition reads of the reservations' tables.
export { RESERVATIONS_STORE, type ReservationsDB } from './schema';

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
