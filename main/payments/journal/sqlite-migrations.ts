/** The journal's migrations on the desk's embedded journal.db: the frozen SqliteFile era first, then the storage layer's. */
import { sql, type Kysely } from 'kysely';
import { LEGACY_SQLITE_MIGRATIONS } from './legacy-sqlite';
import {
  addServiceClock,
  createCenterRules,
  createPaymentLeases,
  createRecovered,
  fillReservationKeys,
  indexShortReference,
} from './schema';

const LEGACY_NAMES = [
  '0001_operations',
  '0002_refund_amount_unknown',
  '0003_kept_cards',
  '0004_abandoned_payments',
] as const;

export const sqliteMigrations = {
  ...Object.fromEntries(
    LEGACY_NAMES.map((name, index) => [
      name,
      { up: async (db: Kysely<unknown>) => void (await sql.raw(LEGACY_SQLITE_MIGRATIONS[index] ?? '').execute(db)) },
    ]),
  ),
  // 5: every record names its desk (filled with this desk's id by Journal.open for older rows), reservations by key,
  // and the center's money rules as unique indexes on the desk's own file too.
  '0005_desks_and_rules': {
    up: async (db: Kysely<unknown>) => {
      for (const table of ['operations', 'attempts', 'methods', 'payments', 'refunds']) {
        await db.schema.alterTable(table).addColumn('desk_id', 'text').execute();
      }
      for (const table of ['operations', 'methods', 'payments']) {
        await db.schema.alterTable(table).addColumn('reservation_key', 'text').execute();
      }
      await fillReservationKeys(db);
      await createCenterRules(db);
    },
  },
  '0006_service_clock': { up: addServiceClock },
  '0007_payment_leases': { up: createPaymentLeases },
  // 8: what recover() completed, told to its operator until acknowledged.
  '0008_recovered_notices': { up: createRecovered },
  // 9: payments found by the short reference read to the guest.
  '0009_short_reference': { up: indexShortReference('sqlite') },
};
