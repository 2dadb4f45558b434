/**
 * The audit trail: append-only rows (main/audit/store.ts), each desk's a hash chain of its own (main/audit/chain.ts). On
 * the embedded file the desk hashes and chains its rows, and keeps the chain's head beside it (audit-head.json). On the
 * center the desk gives a row's content to audit.append, and the center writes it (main/audit/center-chain.ts). A desk
 * on a center loses no row while the center is down: what it cannot write is kept on the desk (main/audit/spool.ts) and
 * written, in order, when it is back, with the desk's time of each.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { sql, type Kysely, type SqlBool } from 'kysely';
import { redact, redactText } from '../logging/redact';
import { isUniqueViolation, type Storage, type StoreDatabase } from '../storage';
import { GENESIS, rowHash, walkCenterChain, walkDeskChain, type ChainWalk } from './chain';
import { AuditSpool, type SpooledContent } from './spool';
import {
  AUDIT_STORE,
  NO_DESK,
  toView,
  type AuditDB,
  type AuditEntry,
  type AuditFilter,
  type AuditRow,
  type DbRow,
  type Verification,
} from './store';

// What composition reads of the trail's table and chains.
export { walkChain, type ChainRow } from './chain';
export { AUDIT_STORE, type AuditDB } from './store';

/** A row before it has its place in its desk's chain: scrubbed, its time the moment it was asked for. */
type Content = SpooledContent;

/** How many times an append to the embedded file is tried again when another writer took the same place in this desk's chain. */
const APPEND_RETRIES = 3;
/** How many once-only rows a trail remembers as written before it forgets them all (and asks the database again). */
const ONCE_REMEMBERED = 10_000;
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
  /**
   * The embedded file: this desk's last row as it wrote it (appends take turns on `queue`); unknown at start and after a
   * failure (read again then). The center keeps its own (audit.heads).
   */
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

  /**
   * Whether `content` is this desk's last row in the trail: the same content hashed in its place, or, for a row the
   * center wrote, the same content and the same time at the desk.
   */
  private async isLastWritten(content: Content): Promise<boolean> {
    const last = await this.store.db
      .selectFrom('audit')
      .selectAll()
      .where('desk_id', 'in', [this.deskId, NO_DESK])
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last === undefined) return false;
    if (last.keyed === true) {
      const columns = ['actor', 'action', 'outcome', 'resource', 'request_id', 'details'] as const;
      return last.desk_at === content.at && columns.every((column) => last[column] === content[column]);
    }
    return rowHash(last.prev_hash, { ...content, seq: last.seq }) === last.hash;
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
    if (this.store.backend === 'postgres') {
      const written = await this.writeToCenter(content, once);
      if (onceKey !== undefined) this.rememberOnce(onceKey);
      return written;
    }
    for (let attempt = 0; ; attempt++) {
      // The chain's last row as this desk last wrote it: the next one follows it in one statement. Another writer of this
      // file took that place if the unique (desk_id, seq) refuses it: read again, below.
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
          if (once && (await this.onceWritten(content.action, content.resource, trx))) return undefined;
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
        // Another writer of this file took that place: the unique (desk_id, seq) refused this one; it is written after
        // it, never beside it.
        if (!isUniqueViolation(error) || attempt >= APPEND_RETRIES) throw error;
      }
    }
  }

  /**
   * Gives `content` to the center's audit.append, which writes it as the next row of this desk's chain (its place, its
   * time, its hash are the center's; the desk's time of it is kept beside). Once-only: two desks following the same
   * payment record its result at the same moment, and the second waits for the first to commit, then finds its row.
   */
  private async writeToCenter(content: Content, once: boolean): Promise<AuditRow | undefined> {
    if (!once) return this.appendOnCenter(this.store.db, content);
    return this.store.transaction(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`audit-once:${content.action}:${content.resource ?? ''}`}, 0))`.execute(
        trx,
      );
      if (await this.onceWritten(content.action, content.resource, trx)) return undefined;
      return this.appendOnCenter(trx, content);
    });
  }

  private async appendOnCenter(db: Kysely<AuditDB>, content: Content): Promise<AuditRow> {
    const { rows } = await sql<DbRow>`
      SELECT * FROM audit.append(${content.desk_id}, ${content.at}, ${content.actor}, ${content.action},
        ${content.outcome}, ${content.resource}, ${content.request_id}, ${content.details})`.execute(db);
    const row = rows[0];
    if (row === undefined) throw new Error('audit.append answered no row');
    return toView(row, this.deskId);
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
   * On the embedded file, this desk's chain is also checked against the head kept beside it. On the center each chain's
   * end is checked against the center's heads, and the rows the center wrote by their numbers and links only: their
   * content is hashed with a key no desk reads, and the auditor's check (verifyCenterAudit) recomputes it.
   */
  async verify(): Promise<Verification> {
    await this.settle();
    if (this.store.backend === 'postgres') return this.verifyOnCenter();
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

  /** Every chain of the center, in the order of audit.verify_chain, each walked then checked against its head. */
  private async verifyOnCenter(): Promise<Verification> {
    const { rows: desks } = await sql<{ desk_id: string }>`
      SELECT desk_id FROM audit.audit UNION SELECT desk_id FROM audit.heads WHERE seq > 0 ORDER BY desk_id`.execute(
      this.store.db,
    );
    let rows = 0;
    for (const { desk_id: desk } of desks) {
      const chain = await walkCenterChain(this.store.db, desk);
      rows += chain.rows;
      if (!chain.ok)
        return { ok: false, rows, desks: desks.length, deskId: desk, seq: chain.seq, reason: chain.reason };
    }
    return { ok: true, rows, desks: desks.length };
  }

  private verifyChain(desk: string): Promise<ChainWalk> {
    return walkDeskChain(this.store.db, desk === this.deskId ? [desk, NO_DESK] : [desk]);
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
