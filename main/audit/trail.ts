/**
 * The audit trail: append-only rows, each desk's rows a hash chain of their own (desk id, number in the desk's chain, the
 * SHA-256 of the desk's row before), so that an edit or a deletion shows. On the embedded file (audit.db) triggers refuse
 * changes and the chain's head is kept beside it (audit-head.json); on the center the database itself refuses them: the
 * app role may only INSERT and SELECT, and a trigger refuses UPDATE, DELETE and TRUNCATE whoever asks. A desk on a center
 * loses no row while the center is down: what it cannot write is kept on the desk (main/audit/spool.ts) and written, in
 * order, when the center is back.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { sql, type Generated, type Kysely, type SqlBool } from 'kysely';
import { RESERVED_OPERATOR_IDS } from '../../shared/operators';
import { redact, redactText } from '../logging/redact';
import { isUniqueViolation, type Storage, type StoreDatabase, type StoreDefinition } from '../storage';
import { AuditSpool, type SpooledContent } from './spool';

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

/** The hash before a desk's first row. */
export const GENESIS = '0'.repeat(64);

/** The PostgreSQL schema of the audit trail on the center (its table is audit.audit). */
const SCHEMA = 'audit';

/** Rows written before desks had ids (an embedded file of an earlier version): they belong to the desk whose file it is. */
const NO_DESK = '';

/** A row: its content (as the spool keeps it too) and its place in its desk's chain. */
interface AuditTable extends SpooledContent {
  id: Generated<number>;
  seq: number;
  prev_hash: string;
  hash: string;
}

export interface AuditDB {
  audit: AuditTable;
}

type DbRow = Omit<AuditTable, 'id'> & { id: number };
/** A row before it has its place in its desk's chain: scrubbed, its time the moment it was asked for. */
type Content = SpooledContent;

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
      '0001_audit': {
        up: async (db: Kysely<unknown>) => {
          await db.schema
            .createTable('audit')
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
            .addCheckConstraint('audit_seq_positive', sql`seq > 0`)
            .execute();
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
      },
    },
    grants: { audit: ['SELECT', 'INSERT'] },
  },
};

/** The hashed form of a row: every field but the hash, in a fixed order, after the previous row's hash. */
function rowHash(prevHash: string, row: Omit<DbRow, 'id' | 'hash' | 'prev_hash'>): string {
  const fields = [row.seq, row.at, row.actor, row.action, row.outcome, row.resource, row.request_id, row.details];
  // A row written before desks had ids is hashed as it was then; every later row's hash covers its desk too.
  const hashed = row.desk_id === NO_DESK ? fields : [row.desk_id, ...fields];
  return createHash('sha256').update(prevHash).update(JSON.stringify(hashed)).digest('hex');
}

/** How many times an append is tried again when another writer took the same place in this desk's chain. */
const APPEND_RETRIES = 3;
/** How many once-only rows a trail remembers as written before it forgets them all (and asks the database again). */
const ONCE_REMEMBERED = 10_000;
/** Verification reads a chain this many rows at a time. */
const VERIFY_PAGE = 1000;
/**
 * A text column as both backends keep it: scrubbed, and a NUL shown as ␀. PostgreSQL's text refuses NUL where SQLite
 * keeps it, and a caller chooses some columns (the channel of a call refused at the door): a row the center can never
 * take would be kept on the desk for ever, every row recorded after it behind it.
 */
const columnText = (text: string): string => redactText(text).replaceAll('\u0000', '\u2400');
/** Rows kept on the desk are read back this many at a time to be written to the center. */
const SPOOL_PAGE = 100;
/** Delays in ms between tries to write the rows kept on the desk while the center does not take them; the last value repeats. */
const SPOOL_RETRY_SCHEDULE: readonly number[] = [250, 1000, 2000, 5000, 10_000, 30_000];

/** A row of a chain as the walk reads it (its place in the whole trail does not matter). */
export type ChainRow = Omit<DbRow, 'id'>;

export type ChainWalk =
  | { ok: true; rows: number; last: number }
  | { ok: false; rows: number; seq: number; reason: string };

/**
 * Walks one desk's chain from its first row, page by page (`readPage` answers the rows from a number on, in order):
 * the first row whose number, link or content does not hold is reported. The rows a desk wrote before desks had ids are
 * hashed without a desk: they keep that hash when they are moved into the center under the desk's id (main/center/move-in),
 * so a chain may open with such rows; once a row is hashed with its desk, every later one must be.
 */
export async function walkChain(
  readPage: (fromSeq: number, limit: number) => Promise<readonly ChainRow[]>,
): Promise<ChainWalk> {
  let expectedSeq = 1;
  let prevHash = GENESIS;
  let count = 0;
  let legacyPrefix = true;
  for (;;) {
    const page = await readPage(expectedSeq, VERIFY_PAGE);
    for (const row of page) {
      count++;
      if (row.seq !== expectedSeq)
        return {
          ok: false,
          rows: count,
          seq: expectedSeq,
          reason: `row ${expectedSeq} is missing (the next one is ${row.seq})`,
        };
      if (row.prev_hash !== prevHash)
        return { ok: false, rows: count, seq: row.seq, reason: `row ${row.seq} does not link to row ${row.seq - 1}` };
      if (rowHash(prevHash, row) === row.hash) {
        if (row.desk_id !== NO_DESK) legacyPrefix = false;
      } else if (!(legacyPrefix && rowHash(prevHash, { ...row, desk_id: NO_DESK }) === row.hash)) {
        return { ok: false, rows: count, seq: row.seq, reason: `row ${row.seq} was changed after it was written` };
      }
      prevHash = row.hash;
      expectedSeq++;
    }
    if (page.length < VERIFY_PAGE) return { ok: true, rows: count, last: expectedSeq - 1 };
  }
}

export interface AuditTrailOptions {
  now?: () => number;
  /**
   * The embedded backend only: where this desk's last row (number and hash) is kept outside the database, so that rows
   * cut off the end (which leave an intact chain behind) are found too. The center needs none: its app role cannot
   * delete a row, and what a superuser does shows in the chains an auditor verifies.
   */
  headFile?: string;
  /**
   * The center only: the desk's data folder. A row `record()` cannot write to the center is kept there (audit-spool.db),
   * and so is every row recorded after it, until they are all written, in order: when the center is back (tried again
   * with backoff), before a read of the trail, or at the next start of a desk that stopped meanwhile.
   */
  spoolDir?: string;
  /**
   * An append of `record()` failed: the row is lost (no spool, or the spool could not keep it either), this says so. With
   * a spool, also the first failure of an outage, whose rows are kept.
   */
  onError?: (error: unknown) => void;
}

export interface AppendOptions {
  once?: boolean;
}

export class AuditTrail {
  private readonly now: () => number;
  private readonly headFile: string | undefined;
  private readonly onError: (error: unknown) => void;
  /** Appends, one after the other, in the order they were asked for. */
  private queue: Promise<unknown> = Promise.resolve();
  /** This desk's last row as it wrote it (appends take turns on `queue`); unknown at start and after a failure (read again then). */
  private head: { seq: number; hash: string } | undefined;
  /**
   * Once-only rows (action and resource) this desk wrote or found written: the trail is append-only, so one known to be
   * there is never asked for again. Bounded: forgotten all at once past ONCE_REMEMBERED (then asked again, as at start).
   */
  private readonly knownOnce = new Set<string>();
  private closed: Promise<void> | undefined;
  /** How many rows are kept on the desk (the spool), not yet in the center: while any are, every new row joins them. */
  private spooled = 0;
  /** The next try at writing the kept rows, and how many tries failed in a row (for the backoff). */
  private spoolTimer: ReturnType<typeof setTimeout> | undefined;
  private spoolTries = 0;

  private constructor(
    private readonly store: StoreDatabase<AuditDB>,
    readonly deskId: string,
    options: AuditTrailOptions,
    private readonly spool: AuditSpool | undefined,
  ) {
    this.now = options.now ?? Date.now;
    this.headFile = store.backend === 'sqlite' ? options.headFile : undefined;
    this.onError = options.onError ?? (() => undefined);
  }

  static async open(storage: Storage, desk: { deskId: string }, options: AuditTrailOptions = {}): Promise<AuditTrail> {
    const store = await storage.open<AuditDB>(AUDIT_STORE);
    let spool: AuditSpool | undefined;
    let spooled = 0;
    try {
      if (store.backend === 'postgres' && options.spoolDir !== undefined) {
        spool = await AuditSpool.open(options.spoolDir);
        spooled = await spool.count();
      }
    } catch (error) {
      await spool?.close();
      await store.close();
      throw error;
    }
    const trail = new AuditTrail(store, desk.deskId, options, spool);
    // Rows kept when the desk stopped go first, before anything this start records.
    trail.spooled = spooled;
    if (spooled > 0) trail.enqueue(() => trail.writeSpooled()).catch(() => trail.retrySpooled());
    return trail;
  }

  get backend(): StoreDatabase<AuditDB>['backend'] {
    return this.store.backend;
  }

  /**
   * Writes one row after every append asked for before it; its time is when it was asked for. Rejects when it could not
   * be written (nothing of it was).
   */
  append(entry: AuditEntry): Promise<AuditRow>;
  /** `once`: not written (undefined) when the trail, any desk's part of it, already has a row of that action and resource. */
  append(entry: AuditEntry, options: AppendOptions): Promise<AuditRow | undefined>;
  append(entry: AuditEntry, options: AppendOptions = {}): Promise<AuditRow | undefined> {
    if (this.closed !== undefined) return Promise.reject(new Error('The audit trail is closed.'));
    const content = this.contentOf(entry);
    // Never before the rows kept on the desk: they are written first, or this one is not written either.
    return this.enqueue(async () => {
      await this.writeSpooled();
      return this.write(content, options.once === true);
    });
  }

  /**
   * Fire and forget: appended in order. With a spool, a row the center cannot take now is kept on the desk and written
   * later, in its place; otherwise (or when the spool cannot keep it either) the failure goes to onError.
   */
  record(entry: AuditEntry, options: AppendOptions = {}): void {
    if (this.closed !== undefined) {
      this.onError(new Error('The audit trail is closed.'));
      return;
    }
    const content = this.contentOf(entry);
    this.enqueue(() => this.deliver(content, options.once === true)).catch((error: unknown) => this.onError(error));
  }

  /** Resolves once every append asked for so far is written, kept on the desk, or has failed. */
  async flush(): Promise<void> {
    await this.queue;
  }

  /** Runs `task` after every one asked for before it. */
  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const done = this.queue.then(task);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** The row as it is written (and kept): scrubbed now, its time the moment it was asked for. */
  private contentOf(entry: AuditEntry): Content {
    return {
      desk_id: this.deskId,
      at: new Date(this.now()).toISOString(),
      // Every column is scrubbed, not only the details: an id typed where a card number does not belong stays out.
      actor: columnText(entry.actor),
      action: columnText(entry.action),
      outcome: entry.outcome,
      resource: entry.resource === undefined ? null : columnText(entry.resource),
      request_id: entry.requestId === undefined ? null : columnText(entry.requestId),
      details: JSON.stringify(redact(entry.details ?? {})),
    };
  }

  /**
   * A recorded row: written to the trail, or, with a spool, kept on the desk when the center does not take it or rows
   * kept before it are still waiting (a later row never overtakes them: the desk's chain is in the order rows were asked for).
   */
  private async deliver(content: Content, once: boolean): Promise<AuditRow | undefined> {
    if (this.spool === undefined) return this.write(content, once);
    if (this.spooled === 0) {
      try {
        return await this.write(content, once);
      } catch (error) {
        // The outage is said once; its rows are kept, not lost.
        this.onError(error);
      }
    }
    // A once-only row known written is not kept; one kept twice is found written in its turn.
    if (!(once && this.knownOnce.has(JSON.stringify([content.action, content.resource])))) {
      await this.spool.keep(content, once);
      this.spooled++;
    }
    this.retrySpooled();
    return undefined;
  }

  /**
   * Writes the rows kept on the desk to the center, oldest first, each removed from the spool once written; stops at the
   * first that cannot be written (it and those after it stay kept). Runs on the queue only.
   */
  private async writeSpooled(): Promise<void> {
    const spool = this.spool;
    if (spool === undefined || this.spooled === 0) return;
    let first = true;
    for (;;) {
      const rows = await spool.oldest(SPOOL_PAGE);
      for (const row of rows) {
        // The oldest kept row may be written already: its insert committed but the answer was lost, or the desk stopped
        // between writing it and removing it here. It is then the last row of the desk's chain, to the hash (a row the same
        // to the millisecond as the one before it is taken for it).
        if (!(first && (await this.isLastWritten(row.content)))) await this.write(row.content, row.once);
        first = false;
        await spool.remove(row.id);
        this.spooled = Math.max(0, this.spooled - 1);
      }
      if (rows.length < SPOOL_PAGE) break;
    }
    this.spooled = 0;
    this.spoolTries = 0;
  }

  /** Tries the kept rows again later (backoff), unless a try is already due. */
  private retrySpooled(): void {
    if (this.spoolTimer !== undefined || this.closed !== undefined || this.spooled === 0) return;
    const delay = SPOOL_RETRY_SCHEDULE[Math.min(this.spoolTries, SPOOL_RETRY_SCHEDULE.length - 1)] ?? 30_000;
    this.spoolTries++;
    this.spoolTimer = setTimeout(() => {
      this.spoolTimer = undefined;
      if (this.closed !== undefined) return;
      this.enqueue(() => this.writeSpooled()).catch(() => this.retrySpooled());
    }, delay);
    this.spoolTimer.unref();
  }

  /** Whether `content` is this desk's last row in the trail (the same content, hashed in its place). */
  private async isLastWritten(content: Content): Promise<boolean> {
    const last = await this.store.db
      .selectFrom('audit')
      .select(['seq', 'prev_hash', 'hash'])
      .where('desk_id', 'in', [this.deskId, NO_DESK])
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return last !== undefined && rowHash(last.prev_hash, { ...content, seq: last.seq }) === last.hash;
  }

  /** Every row asked for so far, in the trail when it can be: rows kept on the desk are written first if the center takes them now. */
  private async settle(): Promise<void> {
    await this.flush();
    if (this.spooled > 0) await this.enqueue(() => this.writeSpooled()).catch(() => this.retrySpooled());
  }

  private async write(content: Content, once: boolean): Promise<AuditRow | undefined> {
    const onceKey = once ? JSON.stringify([content.action, content.resource]) : undefined;
    if (onceKey !== undefined && this.knownOnce.has(onceKey)) return undefined;
    // Most once-only rows are found written (another desk followed the same payment): one read says so, without a turn.
    if (onceKey !== undefined && (await this.onceWritten(content.action, content.resource))) {
      this.rememberOnce(onceKey);
      return undefined;
    }
    for (let attempt = 0; ; attempt++) {
      // The chain's last row as this desk last wrote it: the next one follows it in one statement. Another writer with this
      // desk's id (a second copy of the app) took that place if the unique (desk_id, seq) refuses it: read again, below.
      const head = this.head;
      this.head = undefined;
      try {
        if (head !== undefined && !once) {
          const written = await this.insertAfter(this.store.db, content, head);
          this.head = { seq: written.seq, hash: written.hash };
          this.writeHead(written.seq, written.hash);
          return written;
        }
        const written = await this.store.transaction(async (trx) => {
          // On the center, the desk's appends take turns (a second copy of the app on this profile waits here); the
          // unique (desk_id, seq) is what guarantees it, this only spares the retries.
          if (this.store.backend === 'postgres')
            await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`audit:${this.deskId}`}, 0))`.execute(trx);
          if (once) {
            // Two desks following the same payment record its result at the same moment: the second waits for the
            // first to commit, then finds its row.
            if (this.store.backend === 'postgres') {
              await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`audit-once:${content.action}:${content.resource ?? ''}`}, 0))`.execute(
                trx,
              );
            }
            if (await this.onceWritten(content.action, content.resource, trx)) return undefined;
          }
          // A once-only row follows the remembered last row too (the unique (desk_id, seq) refuses it if another copy of
          // this desk wrote meanwhile: read again, below).
          const last =
            head ??
            (await trx
              .selectFrom('audit')
              .select(['seq', 'hash'])
              .where('desk_id', 'in', [this.deskId, NO_DESK])
              .orderBy('seq', 'desc')
              .limit(1)
              .executeTakeFirst());
          return this.insertAfter(trx, content, last);
        });
        if (written !== undefined) {
          this.head = { seq: written.seq, hash: written.hash };
          this.writeHead(written.seq, written.hash);
        } else {
          // Found written: this desk's chain did not move.
          this.head = head;
        }
        if (onceKey !== undefined) this.rememberOnce(onceKey);
        return written;
      } catch (error) {
        // Another writer with this desk's id (a second copy of the app on the same profile) took that place: the unique
        // (desk_id, seq) refused this one; it is written after it, never beside it.
        if (!isUniqueViolation(error) || attempt >= APPEND_RETRIES) throw error;
      }
    }
  }

  /** Writes `content` as the row after `last` of this desk's chain (the chain's first row when there is none). */
  private async insertAfter(
    db: Kysely<AuditDB>,
    content: Content,
    last: { seq: number; hash: string } | undefined,
  ): Promise<AuditRow> {
    const row = { ...content, seq: (last?.seq ?? 0) + 1 };
    const prevHash = last?.hash ?? GENESIS;
    const hash = rowHash(prevHash, row);
    const { id } = await db
      .insertInto('audit')
      .values({ ...row, prev_hash: prevHash, hash })
      .returning('id')
      .executeTakeFirstOrThrow();
    return toView({ ...row, id, prev_hash: prevHash, hash }, this.deskId);
  }

  /** Whether the trail (any desk's part of it) has a row of this action and resource. */
  private async onceWritten(
    action: string,
    resource: string | null,
    db: Kysely<AuditDB> = this.store.db,
  ): Promise<boolean> {
    const present = await db
      .selectFrom('audit')
      .select('id')
      .where('action', '=', action)
      .where('resource', '=', resource)
      .limit(1)
      .executeTakeFirst();
    return present !== undefined;
  }

  private rememberOnce(key: string): void {
    if (this.knownOnce.size >= ONCE_REMEMBERED) this.knownOnce.clear();
    this.knownOnce.add(key);
  }

  private writeHead(seq: number, hash: string): void {
    if (this.headFile === undefined) return;
    // Written after the row is committed: a crash in between leaves the head one row behind, which verify accepts.
    const temporary = `${this.headFile}.tmp`;
    writeFileSync(temporary, JSON.stringify({ deskId: this.deskId, seq, hash }));
    renameSync(temporary, this.headFile);
  }

  /** The whole trail in the order it was written (every desk's rows), from `afterId` (exclusive), at most `limit`. */
  async rows(afterId = 0, limit = 1000): Promise<AuditRow[]> {
    await this.settle();
    const rows = await this.store.db
      .selectFrom('audit')
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => toView(row, this.deskId));
  }

  /**
   * Rows matching every given filter, newest first, every desk's unless one is named: actor and resource exactly
   * (ignoring case), action by prefix (ignoring case), times as ISO instants [from, to); `beforeId` pages back.
   * What this trail appended before is always in it; so are the rows it kept on the desk, when the center takes them now.
   */
  async query(filter: AuditFilter, limit = 100): Promise<AuditRow[]> {
    await this.settle();
    let query = this.store.db.selectFrom('audit').selectAll();
    if (filter.deskId !== undefined)
      query = query.where('desk_id', 'in', filter.deskId === this.deskId ? [this.deskId, NO_DESK] : [filter.deskId]);
    if (filter.actor !== undefined) query = query.where(sql<SqlBool>`lower(actor) = lower(${filter.actor})`);
    if (filter.action !== undefined) {
      const prefix = `${filter.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(sql<SqlBool>`lower(action) LIKE lower(${prefix}) ESCAPE ${'\\'}`);
    }
    if (filter.outcome !== undefined) query = query.where('outcome', '=', filter.outcome);
    if (filter.resource !== undefined) query = query.where(sql<SqlBool>`lower(resource) = lower(${filter.resource})`);
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('at', '<', filter.to);
    if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
    const rows = await query.orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => toView(row, this.deskId));
  }

  /**
   * Walks every desk's chain; reports the first row (its desk and number) whose number, link or content does not hold.
   * On the embedded file, this desk's chain is also checked against the head kept beside it.
   */
  async verify(): Promise<Verification> {
    await this.settle();
    const desks = (
      await this.store.db.selectFrom('audit').select('desk_id').distinct().orderBy('desk_id').execute()
    ).map((row) => row.desk_id);
    // Rows from before desks had ids open this desk's own chain.
    const chains = [
      ...new Set(desks.map((desk) => (desk === NO_DESK && this.deskId !== NO_DESK ? this.deskId : desk))),
    ];
    let rows = 0;
    const lastOf = new Map<string, number>();
    for (const desk of chains) {
      const chain = await this.verifyChain(desk);
      rows += chain.rows;
      if (!chain.ok)
        return { ok: false, rows, desks: chains.length, deskId: desk, seq: chain.seq, reason: chain.reason };
      lastOf.set(desk, chain.last);
    }
    const broken = await this.verifyHead(lastOf);
    return broken === undefined
      ? { ok: true, rows, desks: chains.length }
      : { ok: false, rows, desks: chains.length, ...broken };
  }

  private async verifyChain(desk: string): Promise<ChainWalk> {
    const deskIds = desk === this.deskId ? [desk, NO_DESK] : [desk];
    return walkChain((fromSeq, limit) =>
      this.store.db
        .selectFrom('audit')
        .selectAll()
        .where('desk_id', 'in', deskIds)
        .where('seq', '>=', fromSeq)
        .orderBy('seq')
        .limit(limit)
        .execute(),
    );
  }

  /**
   * The chain the head kept beside the embedded file names (this desk's when it names none: written before desks had
   * ids), intact up to its last row, against that head: rows cut off its end show.
   */
  private async verifyHead(
    lastOf: ReadonlyMap<string, number>,
  ): Promise<{ deskId: string; seq: number; reason: string } | undefined> {
    if (this.headFile === undefined || !existsSync(this.headFile)) return undefined;
    let head: { deskId?: string; seq: number; hash: string };
    try {
      head = JSON.parse(readFileSync(this.headFile, 'utf8')) as { deskId?: string; seq: number; hash: string };
    } catch {
      return {
        deskId: this.deskId,
        seq: lastOf.get(this.deskId) ?? 0,
        reason: `the record of the last row (${this.headFile}) cannot be read`,
      };
    }
    const deskId = head.deskId ?? this.deskId;
    const last = lastOf.get(deskId) ?? 0;
    if (head.seq > last)
      return { deskId, seq: last + 1, reason: `rows ${last + 1} to ${head.seq} were removed from the end` };
    const at = await this.store.db
      .selectFrom('audit')
      .select('hash')
      .where('desk_id', 'in', deskId === this.deskId ? [deskId, NO_DESK] : [deskId])
      .where('seq', '=', head.seq)
      .executeTakeFirst();
    if (at?.hash !== head.hash)
      return { deskId, seq: head.seq, reason: `row ${head.seq} is not the one that was written last` };
    return undefined;
  }

  async close(): Promise<void> {
    this.closed ??= (async () => {
      // Rows still kept on the desk stay there: the next start writes them first.
      clearTimeout(this.spoolTimer);
      this.spoolTimer = undefined;
      await this.flush();
      await this.spool?.close();
      await this.store.close();
    })();
    await this.closed;
  }
}

function toView(row: DbRow, ownDesk: string): AuditRow {
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
  };
}

/**
 * Rows as a person reads them: each operator's display name beside their id, looked up once per actor. The trail's own
 * actors (system, anonymous) and ids no longer in the directory keep their id alone.
 */
export async function withActorNames<R extends { actor: string }>(
  rows: readonly R[],
  nameOf: (id: string) => Promise<string | undefined>,
): Promise<(R & { actorName?: string })[]> {
  const names = new Map<string, string | undefined>();
  for (const actor of new Set(rows.map((row) => row.actor)))
    names.set(actor, RESERVED_OPERATOR_IDS.includes(actor) ? undefined : await nameOf(actor));
  return rows.map((row) => {
    const actorName = names.get(row.actor);
    return actorName === undefined ? row : { ...row, actorName };
  });
}
