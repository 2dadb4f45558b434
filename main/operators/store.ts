/**
 * The operator directory's storage: accounts, roles, password hashes, lockout counters (sign-in, and manager
 * override per approver), and the center's open sessions (one per operator), on the embedded operators.db or the center's
 * PostgreSQL (schema "operators").
 */
import { sql, type Kysely } from 'kysely';
import type { Role } from '../../shared/operators';
import { createTableMigration, type StoreDefinition } from '../storage';
import { OPERATOR_FUNCTIONS, operatorFunctionsSql } from './center-sql';
import { LOCKOUT_MS, MAX_FAILED_ATTEMPTS, OVERRIDE_MAX_FAILURES, OVERRIDE_PAUSE_MS } from './lockout';

export interface OperatorsTable {
  /** Lower case (ids are compared without case). */
  id: string;
  display_name: string;
  role: Role;
  disabled: number;
  password_hash: string;
  failed_attempts: number;
  /** ms since the epoch, by the database's clock (databaseNowMs); null when not locked. */
  locked_until: number | null;
  /** Wrong passwords in a row given for this operator as a manager-override approver, at any desk (never the sign-in's count). */
  override_failures: number;
  /** Manager override with this approver's id is paused until then (ms since the epoch, the database's clock); null: open. */
  override_paused_until: number | null;
  created_at: number;
  updated_at: number;
  /** The desk the account was created at, and by whom (null for accounts made by an older version, and the first admin's creator). */
  desk_id: string | null;
  created_by: string | null;
}

/** One open session per operator across the center: where, since when, last seen, locked. */
export interface SessionsTable {
  operator_id: string;
  /** A new id at each sign-in: a desk whose id is no longer the row's knows its session was ended elsewhere. */
  session_id: string;
  desk_id: string;
  started_at: number;
  last_seen_at: number;
  locked: number;
}

export interface OperatorsDB {
  operators: OperatorsTable;
  sessions: SessionsTable;
}

/** The operators file's one migration of the SqliteFile era (user_version 1), unchanged. */
const SQLITE_OPERATORS = sql`CREATE TABLE operators (
     id TEXT PRIMARY KEY COLLATE NOCASE,
     display_name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('agent', 'supervisor', 'admin')),
     disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
     password_hash TEXT NOT NULL CHECK (password_hash LIKE '$scrypt$%'),
     failed_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
     locked_until INTEGER,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT;`;

const SQLITE_SESSIONS = sql`ALTER TABLE operators ADD COLUMN desk_id TEXT;
   ALTER TABLE operators ADD COLUMN created_by TEXT;
   CREATE TABLE sessions (
     operator_id TEXT PRIMARY KEY COLLATE NOCASE,
     session_id TEXT NOT NULL UNIQUE,
     desk_id TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     last_seen_at INTEGER NOT NULL,
     locked INTEGER NOT NULL DEFAULT 0 CHECK (locked IN (0, 1))
   ) STRICT;`;

export { databaseNowMs } from '../storage';

/** Manager override counts its own wrong passwords per approver, apart from the sign-in's: they never lock the approver's sign-in. */
const SQLITE_OVERRIDE = sql`ALTER TABLE operators ADD COLUMN override_failures INTEGER NOT NULL DEFAULT 0 CHECK (override_failures >= 0);
   ALTER TABLE operators ADD COLUMN override_paused_until INTEGER;`;

export const OPERATORS_STORE: StoreDefinition = {
  name: 'operators',
  label: 'operator directory',
  sqlite: {
    file: 'operators.db',
    // Freed pages (an old hash after a reset) are overwritten, not left in the file.
    pragmas: ['secure_delete = ON'],
    adoptsUserVersion: 1,
    migrations: {
      '0001_operators': { up: async (db: Kysely<unknown>) => void (await SQLITE_OPERATORS.execute(db)) },
      '0002_sessions': { up: async (db: Kysely<unknown>) => void (await SQLITE_SESSIONS.execute(db)) },
      '0003_override_failures': { up: async (db: Kysely<unknown>) => void (await SQLITE_OVERRIDE.execute(db)) },
      // Sessions are kept as the SHA-256 of their id from now on (desk-sessions.ts): the desk's own sessions, left from
      // before, are closed at its start anyway.
      '0004_session_keys': { up: async (db: Kysely<unknown>) => void (await sql`DELETE FROM sessions`.execute(db)) },
    },
  },
  postgres: {
    migrations: {
      '0001_operators': createTableMigration('operators', (table) =>
        table
          .addColumn('id', 'text', (c) => c.primaryKey().check(sql`id = lower(id)`))
          .addColumn('display_name', 'text', (c) => c.notNull())
          .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('agent', 'supervisor', 'admin')`))
          .addColumn('disabled', 'integer', (c) =>
            c
              .notNull()
              .defaultTo(0)
              .check(sql`disabled IN (0, 1)`),
          )
          .addColumn('password_hash', 'text', (c) => c.notNull().check(sql`password_hash LIKE '$scrypt$%'`))
          .addColumn('failed_attempts', 'integer', (c) =>
            c
              .notNull()
              .defaultTo(0)
              .check(sql`failed_attempts >= 0`),
          )
          .addColumn('locked_until', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('desk_id', 'text')
          .addColumn('created_by', 'text'),
      ),
      '0002_sessions': createTableMigration('sessions', (table) =>
        table
          .addColumn('operator_id', 'text', (c) => c.primaryKey())
          .addColumn('session_id', 'text', (c) => c.notNull().unique())
          .addColumn('desk_id', 'text', (c) => c.notNull())
          .addColumn('started_at', 'bigint', (c) => c.notNull())
          .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
          .addColumn('locked', 'integer', (c) =>
            c
              .notNull()
              .defaultTo(0)
              .check(sql`locked IN (0, 1)`),
          ),
      ),
      '0003_override_failures': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .alterTable('operators')
            .addColumn('override_failures', 'integer', (c) =>
              c
                .notNull()
                .defaultTo(0)
                .check(sql`override_failures >= 0`),
            )
            .addColumn('override_paused_until', 'bigint')
            .execute();
        },
      },
      // Sessions are kept as the SHA-256 of their id from now on (desk-sessions.ts): the open ones stay open.
      '0004_session_keys': {
        up: async (db: Kysely<unknown>) =>
          void (await sql`UPDATE operators.sessions SET session_id = encode(sha256(convert_to(session_id, 'UTF8')), 'hex')`.execute(
            db,
          )),
      },
      // The center's door (center-sql.ts): from now on a desk changes accounts and sessions only through its functions.
      '0005_center_door': {
        up: async (db: Kysely<unknown>) =>
          void (await sql
            .raw(
              operatorFunctionsSql({
                maxFailed: MAX_FAILED_ATTEMPTS,
                lockoutMs: LOCKOUT_MS,
                overrideMax: OVERRIDE_MAX_FAILURES,
                overridePauseMs: OVERRIDE_PAUSE_MS,
              }),
            )
            .execute(db)),
      },
    },
    // A desk reads accounts and who is signed in where (never a hash or a session's key: secretColumns) and writes
    // nothing row by row: sign-in, sessions and every admin change go through the functions, which take the desk from
    // its login and the acting operator from a session opened with a proven password.
    grants: {
      operators: ['SELECT'],
      sessions: ['SELECT'],
      tickets: [],
      attempts: [],
      unknown_ids: [],
      setup: [],
      moved_in: [],
      center_secret: [],
    },
    // Neither a desk nor the auditor reads these.
    secretColumns: {
      operators: ['password_hash'],
      sessions: ['session_id'],
      tickets: ['ticket_key'],
      attempts: ['attempt_key', 'key_mac'],
      center_secret: ['secret'],
    },
    functions: OPERATOR_FUNCTIONS,
  },
};
