/**
 * The audit trail's table on both backends: on the embedded file (audit.db) triggers refuse changes; on the center the
 * database itself writes the rows (main/audit/center-chain.ts: the app role may only SELECT them and call audit.append),
 * and a trigger refuses UPDATE, DELETE and TRUNCATE whoever asks. Also the row's shape as the trail answers it.
 */
import { sql, type Generated, type Kysely } from 'kysely';
import { createTableMigration, deskStampedTable, type StoreDefinition } from '../storage';
import {
  APPEND_SIGNATURE,
  MOVE_IN_SIGNATURE,
  RESULTS_AS_JOURNALED_SQL,
  keyedChainMigration,
  type ActorSession,
} from './center-chain';
import type { SpooledContent } from './spool';

export type AuditOutcome = 'ok' | 'refused' | 'failed';

export interface AuditEntry {
  /** The operator (or "system") who did it. */
  actor: string;
  /** What was done, `domain.verb`: session.signIn, payment.create, refund.approve… */
  action: string;
  outcome: AuditOutcome;
  /** What it was done to: a payment id, an operator id, a setting name. */
  resource?: string;
  requestId?: string;
  /** Anything else worth keeping; card numbers, CVVs, secrets and tokens are scrubbed before it is written. */
  details?: Record<string, unknown>;
}

export interface AuditRow extends Required<Omit<AuditEntry, 'resource' | 'requestId' | 'details'>> {
  /** The row's place in the whole trail (every desk's rows), for ordering and paging. */
  id: number;
  /** The desk that wrote it. */
  deskId: string;
  /** Its number in its desk's chain, from 1. */
  seq: number;
  at: string;
  resource: string | undefined;
  requestId: string | undefined;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
  /**
   * The center's rows only: who wrote it. `center`: audit.append, its hash keyed with the center's key, its `at` the
   * center's clock. `desk`: written by a desk itself (before the center wrote the trail, or moved in from the desk's
   * files), its hash plain SHA-256 and its `at` the desk's clock: that desk's word.
   */
  writtenBy?: 'center' | 'desk';
  /** A row the center wrote: the desk's own time of the event, where it is not the center's (a row kept on the desk while the center was down). */
  deskAt?: string;
  /** A row the center wrote: whether the actor had a session at that desk when it did (center-chain.ts). */
  actorSession?: ActorSession;
}

export interface AuditFilter {
  /** One desk's rows only (default: every desk's). */
  deskId?: string;
  actor?: string;
  action?: string;
  outcome?: AuditOutcome;
  resource?: string;
  from?: string;
  to?: string;
  /** Paging back: rows before this place in the trail (AuditRow.id). */
  beforeId?: number;
}

export type Verification =
  | { ok: true; rows: number; desks: number }
  | { ok: false; rows: number; desks: number; deskId: string; seq: number; reason: string };

/** The PostgreSQL schema of the audit trail on the center (its table is audit.audit). */
const SCHEMA = 'audit';

/** Rows written before desks had ids (an embedded file of an earlier version): they belong to the desk whose file it is. */
export const NO_DESK = '';
/** A row: its content (as the spool keeps it too) and its place in its desk's chain. */
export interface AuditTable extends SpooledContent {
  id: Generated<number>;
  seq: number;
  prev_hash: string;
  hash: string;
  /** The center's columns (absent from the embedded file): hashed with the center's key, and what only the center writes. */
  keyed?: boolean;
  desk_at?: string | null;
  actor_session?: string | null;
}

/** The center only: each desk's last row as the center wrote it (seq 0 before its first). */
export interface HeadsTable {
  desk_id: string;
  seq: number;
  hash: string;
}

export interface AuditDB {
  audit: AuditTable;
  heads: HeadsTable;
}

export type DbRow = Omit<AuditTable, 'id'> & { id: number };

export const AUDIT_STORE: StoreDefinition = {
  name: SCHEMA,
  label: 'audit trail',
  sqlite: {
    file: 'audit.db',
    // The two migrations of the SqliteFile era, as they were; the third gives each row its desk and its desk's chain.
    adoptsUserVersion: 2,
    migrations: {
      '0001_audit': {
        up: async (db: Kysely<unknown>) => {
          await sql`CREATE TABLE audit (
     seq INTEGER PRIMARY KEY,
     at TEXT NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     outcome TEXT NOT NULL,
     resource TEXT,
     request_id TEXT,
     details TEXT NOT NULL,
     prev_hash TEXT NOT NULL,
     hash TEXT NOT NULL
   );
   CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
   CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;`.execute(
            db,
          );
        },
      },
      '0002_indexes': {
        up: async (db: Kysely<unknown>) => {
          await sql`CREATE INDEX audit_action ON audit (action, resource);
   CREATE INDEX audit_resource ON audit (resource);
   CREATE INDEX audit_actor ON audit (actor);`.execute(db);
        },
      },
      // Rows get their desk (NO_DESK for those already written: this file's own desk's) and a number in their desk's
      // chain; `id` keeps the order of the whole file (the old numbers for the old rows). DROP TABLE fires no trigger.
      '0003_desk_chains': {
        up: async (db: Kysely<unknown>) => {
          await sql`CREATE TABLE audit_desks (
     id INTEGER PRIMARY KEY,
     desk_id TEXT NOT NULL,
     seq INTEGER NOT NULL CHECK (seq > 0),
     at TEXT NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     outcome TEXT NOT NULL,
     resource TEXT,
     request_id TEXT,
     details TEXT NOT NULL,
     prev_hash TEXT NOT NULL,
     hash TEXT NOT NULL,
     UNIQUE (desk_id, seq)
   );
   INSERT INTO audit_desks (id, desk_id, seq, at, actor, action, outcome, resource, request_id, details, prev_hash, hash)
     SELECT seq, '', seq, at, actor, action, outcome, resource, request_id, details, prev_hash, hash FROM audit ORDER BY seq;
   DROP TABLE audit;
   ALTER TABLE audit_desks RENAME TO audit;
   CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
   CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
   CREATE INDEX audit_action ON audit (action, resource);
   CREATE INDEX audit_resource ON audit (resource);
   CREATE INDEX audit_actor ON audit (actor);
   CREATE INDEX audit_at ON audit (at);`.execute(db);
        },
      },
    },
  },
  postgres: {
    migrations: {
      '0001_audit': createTableMigration(
        'audit',
        (table) =>
          table
            .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
            .addColumn('desk_id', 'text', (c) => c.notNull())
            .addColumn('seq', 'bigint', (c) => c.notNull())
            .addColumn('at', 'timestamptz', (c) => c.notNull())
            .addColumn('actor', 'text', (c) => c.notNull())
            .addColumn('action', 'text', (c) => c.notNull())
            .addColumn('outcome', 'text', (c) => c.notNull())
            .addColumn('resource', 'text')
            .addColumn('request_id', 'text')
            // The JSON exactly as it was hashed (jsonb would reorder its keys).
            .addColumn('details', 'text', (c) => c.notNull())
            .addColumn('prev_hash', 'text', (c) => c.notNull())
            .addColumn('hash', 'text', (c) => c.notNull())
            // Two rows of one desk can never take the same place in its chain: the chain never forks.
            .addUniqueConstraint('audit_desk_seq', ['desk_id', 'seq'])
            .addCheckConstraint('audit_seq_positive', sql`seq > 0`),
        async (db) => {
          await db.schema.createIndex('audit_action').on('audit').columns(['action', 'resource']).execute();
          await db.schema.createIndex('audit_resource').on('audit').column('resource').execute();
          await db.schema.createIndex('audit_actor').on('audit').column('actor').execute();
          await db.schema.createIndex('audit_at').on('audit').column('at').execute();
          // Append-only whoever asks (a role granted UPDATE or DELETE by mistake, the owner): only a superuser who turns
          // triggers off (session_replication_role) gets past it, and the chains then show what was changed.
          const refuse = sql.table(`${SCHEMA}.refuse_change`);
          const table = sql.table(`${SCHEMA}.audit`);
          await sql`CREATE FUNCTION ${refuse}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              RAISE EXCEPTION 'the audit trail is append-only: % refused', TG_OP;
            END
          $$`.execute(db);
          await sql`REVOKE ALL ON FUNCTION ${refuse}() FROM PUBLIC`.execute(db);
          await sql`CREATE TRIGGER audit_no_change BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${refuse}()`.execute(
            db,
          );
          await sql`CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${refuse}()`.execute(
            db,
          );
        },
      ),
      // A row names its desk, which never changes (the row rules of a desk-stamped table; no desk adds rows itself now).
      '0002_desk_rows': {
        up: async (db: Kysely<unknown>) => void (await sql.raw(deskStampedTable(SCHEMA, 'audit')).execute(db)),
      },
      // The center writes the trail: its key, its heads, audit.append, move_in_rows and verify_chain (center-chain.ts).
      '0003_center_writes': { up: keyedChainMigration },
      // A result recorded once for the whole center is taken only as the journal has it (center-chain.ts).
      '0004_results_as_journaled': {
        up: async (db: Kysely<unknown>) => void (await sql.raw(RESULTS_AS_JOURNALED_SQL).execute(db)),
      },
    },
    // Rows are read by every desk and written only by audit.append (and audit.move_in_rows): no INSERT. The heads are
    // read by the desks' own check of the chains.
    grants: { audit: ['SELECT'], heads: ['SELECT'] },
    functions: [APPEND_SIGNATURE, MOVE_IN_SIGNATURE],
  },
};

/** A row as the trail answers it: its desk's id for rows written before desks had ids (`ownDesk`'s). */
export function toView(row: DbRow, ownDesk: string): AuditRow {
  return {
    id: row.id,
    deskId: row.desk_id === NO_DESK ? ownDesk : row.desk_id,
    seq: row.seq,
    at: row.at,
    actor: row.actor,
    action: row.action,
    outcome: row.outcome as AuditOutcome,
    resource: row.resource ?? undefined,
    requestId: row.request_id ?? undefined,
    details: JSON.parse(row.details) as Record<string, unknown>,
    prevHash: row.prev_hash,
    hash: row.hash,
    ...(row.keyed === undefined ? {} : { writtenBy: row.keyed ? 'center' : 'desk' }),
    ...(row.desk_at === undefined || row.desk_at === null || row.desk_at === row.at ? {} : { deskAt: row.desk_at }),
    ...(row.actor_session === undefined || row.actor_session === null
      ? {}
      : { actorSession: row.actor_session as ActorSession }),
  };
}
