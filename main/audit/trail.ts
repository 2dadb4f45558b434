/** The audit trail: append-only rows in SQLite, each carrying the SHA-256 of the one before, so an edit or deletion shows. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { redact, redactText } from '../logging/redact';
import { SqliteFile } from '../storage/sqlite';

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
  seq: number;
  at: string;
  resource: string | undefined;
  requestId: string | undefined;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  outcome?: AuditOutcome;
  resource?: string;
  from?: string;
  to?: string;
  beforeSeq?: number;
}

export type Verification = { ok: true; rows: number } | { ok: false; rows: number; seq: number; reason: string };

/** The hash before the first row. */
export const GENESIS = '0'.repeat(64);

const MIGRATIONS = [
  `CREATE TABLE audit (
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
   CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;`,
  `CREATE INDEX audit_action ON audit (action, resource);
   CREATE INDEX audit_resource ON audit (resource);
   CREATE INDEX audit_actor ON audit (actor);`,
];

interface DbRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  outcome: string;
  resource: string | null;
  request_id: string | null;
  details: string;
  prev_hash: string;
  hash: string;
}

/** The hashed form of a row: every field but the hash, in a fixed order, after the previous row's hash. */
function rowHash(prevHash: string, row: Omit<DbRow, 'hash' | 'prev_hash'>): string {
  const fields = [row.seq, row.at, row.actor, row.action, row.outcome, row.resource, row.request_id, row.details];
  return createHash('sha256').update(prevHash).update(JSON.stringify(fields)).digest('hex');
}

export class AuditTrail {
  private readonly file: SqliteFile;
  private readonly now: () => number;
  private readonly headFile: string | undefined;

  /**
   * `headFile`: where the last row's number and hash are kept outside the database, so that rows cut off the
   * end (which leave an intact chain behind) are found too.
   */
  constructor(path: string, options: { now?: () => number; headFile?: string } = {}) {
    this.file = new SqliteFile(path, { label: 'audit trail', migrations: MIGRATIONS });
    this.now = options.now ?? Date.now;
    this.headFile = options.headFile;
  }

  append(entry: AuditEntry): AuditRow {
    const details = JSON.stringify(redact(entry.details ?? {}));
    const written = this.file.transaction(() => {
      const last = this.file.stmt('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined;
      const row = {
        seq: (last?.seq ?? 0) + 1,
        at: new Date(this.now()).toISOString(),
        // Every column is scrubbed, not only the details: an id typed where a card number does not belong stays out.
        actor: redactText(entry.actor),
        action: redactText(entry.action),
        outcome: entry.outcome,
        resource: entry.resource === undefined ? null : redactText(entry.resource),
        request_id: entry.requestId === undefined ? null : redactText(entry.requestId),
        details,
      };
      const prevHash = last?.hash ?? GENESIS;
      const hash = rowHash(prevHash, row);
      this.file
        .stmt('INSERT INTO audit (seq, at, actor, action, outcome, resource, request_id, details, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(row.seq, row.at, row.actor, row.action, row.outcome, row.resource, row.request_id, row.details, prevHash, hash);
      return toView({ ...row, prev_hash: prevHash, hash });
    });
    this.writeHead(written.seq, written.hash);
    return written;
  }

  private writeHead(seq: number, hash: string): void {
    if (this.headFile === undefined) return;
    // Written after the row is committed: a crash in between leaves the head one row behind, which verify accepts.
    const temporary = `${this.headFile}.tmp`;
    writeFileSync(temporary, JSON.stringify({ seq, hash }));
    renameSync(temporary, this.headFile);
  }

  /** Rows in order, oldest first, from `afterSeq` (exclusive), at most `limit`. */
  rows(afterSeq = 0, limit = 1000): AuditRow[] {
    return (this.file.stmt('SELECT * FROM audit WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit) as DbRow[]).map(toView);
  }

  /**
   * Rows matching every given filter, newest first: actor and resource exactly (ignoring case), action by
   * prefix, times as ISO instants [from, to); `beforeSeq` pages back.
   */
  query(filter: AuditFilter, limit = 100): AuditRow[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit };
    if (filter.actor !== undefined) {
      where.push('lower(actor) = lower(@actor)');
      params['actor'] = filter.actor;
    }
    if (filter.action !== undefined) {
      where.push(`action LIKE @action ESCAPE '\\'`);
      params['action'] = `${filter.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    }
    if (filter.outcome !== undefined) {
      where.push('outcome = @outcome');
      params['outcome'] = filter.outcome;
    }
    if (filter.resource !== undefined) {
      where.push('lower(resource) = lower(@resource)');
      params['resource'] = filter.resource;
    }
    if (filter.from !== undefined) {
      where.push('at >= @from');
      params['from'] = filter.from;
    }
    if (filter.to !== undefined) {
      where.push('at < @to');
      params['to'] = filter.to;
    }
    if (filter.beforeSeq !== undefined) {
      where.push('seq < @beforeSeq');
      params['beforeSeq'] = filter.beforeSeq;
    }
    const sql = `SELECT * FROM audit ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT @limit`;
    return (this.file.stmt(sql).all(params) as DbRow[]).map(toView);
  }

  /** Walks the whole chain; reports the first row whose number, link or content does not hold. */
  verify(): Verification {
    const chain = verifyRows(this.file.stmt('SELECT * FROM audit ORDER BY seq').iterate() as IterableIterator<DbRow>);
    if (!chain.ok || this.headFile === undefined || !existsSync(this.headFile)) return chain;
    let head: { seq: number; hash: string };
    try {
      head = JSON.parse(readFileSync(this.headFile, 'utf8')) as { seq: number; hash: string };
    } catch {
      return { ok: false, rows: chain.rows, seq: chain.rows, reason: `the record of the last row (${this.headFile}) cannot be read` };
    }
    if (head.seq > chain.rows) {
      return { ok: false, rows: chain.rows, seq: chain.rows + 1, reason: `rows ${chain.rows + 1} to ${head.seq} were removed from the end` };
    }
    const at = this.file.stmt('SELECT hash FROM audit WHERE seq = ?').get(head.seq) as { hash: string } | undefined;
    if (at?.hash !== head.hash) return { ok: false, rows: chain.rows, seq: head.seq, reason: `row ${head.seq} is not the one that was written last` };
    return chain;
  }

  close(): void {
    this.file.close();
  }
}

function verifyRows(rows: Iterable<DbRow>): Verification {
  let expectedSeq = 1;
  let prevHash = GENESIS;
  let count = 0;
  for (const row of rows) {
    count++;
    if (row.seq !== expectedSeq) return { ok: false, rows: count, seq: expectedSeq, reason: `row ${expectedSeq} is missing (the next one is ${row.seq})` };
    if (row.prev_hash !== prevHash) return { ok: false, rows: count, seq: row.seq, reason: `row ${row.seq} does not link to row ${row.seq - 1}` };
    if (rowHash(prevHash, row) !== row.hash) return { ok: false, rows: count, seq: row.seq, reason: `row ${row.seq} was changed after it was written` };
    prevHash = row.hash;
    expectedSeq++;
  }
  return { ok: true, rows: count };
}

function toView(row: DbRow): AuditRow {
  return {
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
