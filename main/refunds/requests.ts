/** Refund requests waiting for a supervisor, kept in SQLite: who asked, who decided, and the refund it became. */
import type { Currency, RefundReason } from '../../shared/payments';
import type { RefundRequestStatus, RefundRequestView } from '../../shared/desk';
import { SqliteFile } from '../storage/sqlite';

const MIGRATIONS = [
  `CREATE TABLE requests (
     id TEXT PRIMARY KEY,
     payment_id TEXT NOT NULL,
     amount_cents INTEGER,
     currency TEXT NOT NULL,
     reason TEXT NOT NULL,
     note TEXT,
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'failed')),
     requested_by TEXT NOT NULL,
     requested_at TEXT NOT NULL,
     decided_by TEXT,
     decided_at TEXT,
     decision_note TEXT,
     override INTEGER NOT NULL DEFAULT 0,
     refund_id TEXT,
     failure TEXT
   );
   CREATE INDEX requests_status ON requests (status, requested_at);
   CREATE INDEX requests_payment ON requests (payment_id);`,
];

interface Row {
  id: string;
  payment_id: string;
  amount_cents: number | null;
  currency: string;
  reason: string;
  note: string | null;
  status: RefundRequestStatus;
  requested_by: string;
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
  decision_note: string | null;
  override: number;
  refund_id: string | null;
  failure: string | null;
}

export interface NewRequest {
  id: string;
  paymentId: string;
  amountCents: number | undefined;
  currency: Currency;
  reason: RefundReason;
  note: string | undefined;
  requestedBy: string;
  requestedAt: string;
}

export interface StoredRequest extends NewRequest {
  status: RefundRequestStatus;
  decidedBy: string | undefined;
  decidedAt: string | undefined;
  decisionNote: string | undefined;
  override: boolean;
  refundId: string | undefined;
  failure: string | undefined;
}

const opt = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export class RefundRequests {
  private readonly file: SqliteFile;

  constructor(path: string) {
    this.file = new SqliteFile(path, { label: 'refund requests', migrations: MIGRATIONS });
  }

  add(request: NewRequest): StoredRequest {
    this.file
      .stmt(
        `INSERT INTO requests (id, payment_id, amount_cents, currency, reason, note, status, requested_by, requested_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      )
      .run(request.id, request.paymentId, request.amountCents ?? null, request.currency, request.reason, request.note ?? null, request.requestedBy, request.requestedAt);
    return this.getOrThrow(request.id);
  }

  get(id: string): StoredRequest | undefined {
    const row = this.file.stmt('SELECT * FROM requests WHERE id = ?').get(id) as Row | undefined;
    return row && toRequest(row);
  }

  /**
   * Records the decision before the refund is sent, so that both ids are kept even if the app stops
   * mid-request. Only a pending request can be decided: answers false when another decision came first.
   */
  decide(id: string, decision: { status: 'approved' | 'rejected'; by: string; at: string; note?: string; override: boolean }): boolean {
    const result = this.file
      .stmt(`UPDATE requests SET status = ?, decided_by = ?, decided_at = ?, decision_note = ?, override = ? WHERE id = ? AND status = 'pending'`)
      .run(decision.status, decision.by, decision.at, decision.note ?? null, decision.override ? 1 : 0, id);
    return result.changes === 1;
  }

  /** The refund the approval became, or why the service refused it for good. */
  settle(id: string, outcome: { refundId: string } | { failure: string }): StoredRequest {
    if ('refundId' in outcome) this.file.stmt(`UPDATE requests SET refund_id = ?, failure = NULL WHERE id = ?`).run(outcome.refundId, id);
    else this.file.stmt(`UPDATE requests SET status = 'failed', failure = ? WHERE id = ?`).run(outcome.failure, id);
    return this.getOrThrow(id);
  }

  list(status: 'pending' | 'all', limit = 200): StoredRequest[] {
    const rows =
      status === 'pending'
        ? (this.file.stmt(`SELECT * FROM requests WHERE status = 'pending' ORDER BY requested_at LIMIT ?`).all(limit) as Row[])
        : (this.file.stmt(`SELECT * FROM requests ORDER BY requested_at DESC LIMIT ?`).all(limit) as Row[]);
    return rows.map(toRequest);
  }

  forPayment(paymentId: string): StoredRequest[] {
    return (this.file.stmt(`SELECT * FROM requests WHERE payment_id = ? ORDER BY requested_at`).all(paymentId) as Row[]).map(toRequest);
  }

  /** Approved requests whose refund is not yet known (the app stopped while sending it). */
  unsettledApprovals(): StoredRequest[] {
    return (this.file.stmt(`SELECT * FROM requests WHERE status = 'approved' AND refund_id IS NULL`).all() as Row[]).map(toRequest);
  }

  close(): void {
    this.file.close();
  }

  private getOrThrow(id: string): StoredRequest {
    const request = this.get(id);
    if (!request) throw new Error('refund requests: request not stored');
    return request;
  }
}

function toRequest(row: Row): StoredRequest {
  return {
    id: row.id,
    paymentId: row.payment_id,
    amountCents: opt(row.amount_cents),
    currency: row.currency as Currency,
    reason: row.reason as RefundReason,
    note: opt(row.note),
    status: row.status,
    requestedBy: row.requested_by,
    requestedAt: row.requested_at,
    decidedBy: opt(row.decided_by),
    decidedAt: opt(row.decided_at),
    decisionNote: opt(row.decision_note),
    override: row.override === 1,
    refundId: opt(row.refund_id),
    failure: opt(row.failure),
  };
}

export function requestView(r: StoredRequest): RefundRequestView {
  return {
    id: r.id,
    paymentId: r.paymentId,
    ...(r.amountCents === undefined ? {} : { amountCents: r.amountCents }),
    currency: r.currency,
    reason: r.reason,
    ...(r.note === undefined ? {} : { note: r.note }),
    status: r.status,
    requestedBy: r.requestedBy,
    requestedAt: r.requestedAt,
    ...(r.decidedBy === undefined ? {} : { decidedBy: r.decidedBy }),
    ...(r.decidedAt === undefined ? {} : { decidedAt: r.decidedAt }),
    ...(r.decisionNote === undefined ? {} : { decisionNote: r.decisionNote }),
    override: r.override,
    ...(r.refundId === undefined ? {} : { refundId: r.refundId }),
    ...(r.failure === undefined ? {} : { failure: r.failure }),
  };
}
