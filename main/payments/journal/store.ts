/** The journal's store definition on the storage layer: its file, schema, migrations and grants. */
import type { StoreDefinition } from '../../storage';
import { LEGACY_SQLITE_MIGRATIONS } from './legacy-sqlite';
import { postgresMigrations } from './postgres-migrations';
import { sqliteMigrations } from './sqlite-migrations';

/** The payment journal on the storage layer: journal.db in the data folder, or the `journal` schema of the center. */
export const JOURNAL_STORE: StoreDefinition = {
  name: 'journal',
  label: 'payment journal',
  sqlite: {
    file: 'journal.db',
    pragmas: ['foreign_keys = ON'],
    migrations: sqliteMigrations,
    adoptsUserVersion: LEGACY_SQLITE_MIGRATIONS.length,
  },
  postgres: {
    migrations: postgresMigrations,
    // Nothing is ever deleted from the journal; the attempts are a log (written once, read by IT).
    grants: {
      operations: ['SELECT', 'INSERT', 'UPDATE'],
      attempts: ['SELECT', 'INSERT'],
      methods: ['SELECT', 'INSERT', 'UPDATE'],
      payments: ['SELECT', 'INSERT', 'UPDATE'],
      refunds: ['SELECT', 'INSERT', 'UPDATE'],
      // A lease is released by setting its expiry, never deleted.
      payment_leases: ['SELECT', 'INSERT', 'UPDATE'],
      recovered: ['SELECT', 'INSERT', 'UPDATE'],
    },
  },
};

/** The journal's schema version on the embedded file (its number of SQLite migrations). */
export const SCHEMA_VERSION = Object.keys(sqliteMigrations).length;
