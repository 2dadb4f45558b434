/**
 * Refund requests waiting for a supervisor (the embedded refund-requests.db, or the center's, where the approval queue
 * is every desk's): who asked at which desk, who decided at which desk, and the refund it became. A decision is one
 * conditional update: of two supervisors deciding at once, at one desk or two, one wins. On the center every write goes
 * through the store's functions (center-sql.ts), which take the operator from their session at this desk.
 */
import { createHash } from 'node:crypto';
import { sql, type InsertQueryBuilder, type Kysely, type RawBuilder, type UpdateQueryBuilder } from 'kysely';
import type { Currency, RefundReason } from '../../shared/payments';
import type { RefundRequestOrigin, RefundRequestStatus, RefundRequestView } from '../../shared/desk';
import {
  createTableMigration,
  deskStampedTable,
  notificationIn,
  type Storage,
  type StoreDatabase,
  type StoreDefinition,
} from '../storage';
import { OperatorError } from '../operators';
import { REFUND_REQUEST_FUNCTIONS, refundFunctionsSql } from './center-sql';
import { RefundError } from './errors';

/** The file's one migration of the SqliteFile era (user_version 1), unchanged. */
const SQLITE_REQUESTS = sql`CREATE TABLE requests (
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
   CREATE INDEX requests_payment ON requests (payment_id);`;

/** Each request names the desk it was asked at and the desk it was decided at (null for requests of before). */
const SQLITE_DESKS = sql`ALTER TABLE requests ADD COLUMN desk_id TEXT;
   ALTER TABLE requests ADD COLUMN decided_desk_id TEXT;`;

/**
 * A request the app itself puts in the queue (money the guest may be owed, found by a desk), the same on both backends:
 * why (`origin`), the payment it is linked to (the one that replaced a payment that succeeded after it was abandoned), and
 * the desk to alert.
 */
async function addOrigins(db: Kysely<unknown>): Promise<void> {
  for (const column of ['origin', 'linked_payment_id', 'alert_desk_id'])
    await db.schema.alterTable('requests').addColumn(column, 'text').execute();
}

export const REFUND_REQUESTS_STORE: StoreDefinition = {
  name: 'refund_requests',
  label: 'refund requests',
  sqlite: {
    file: 'refund-requests.db',
    adoptsUserVersion: 1,
    migrations: {
      '0001_requests': { up: async (db: Kysely<unknown>) => void (await SQLITE_REQUESTS.execute(db)) },
      '0002_desks': { up: async (db: Kysely<unknown>) => void (await SQLITE_DESKS.execute(db)) },
      '0003_origins': { up: addOrigins },
    },
  },
  postgres: {
    migrations: {
      '0001_requests': createTableMigration(
        'requests',
        (table) =>
          table
            .addColumn('id', 'text', (c) => c.primaryKey())
            .addColumn('payment_id', 'text', (c) => c.notNull())
            .addColumn('amount_cents', 'bigint')
            .addColumn('currency', 'text', (c) => c.notNull())
            .addColumn('reason', 'text', (c) => c.notNull())
            .addColumn('note', 'text')
            .addColumn('status', 'text', (c) =>
              c.notNull().check(sql`status IN ('pending', 'approved', 'rejected', 'failed')`),
            )
            .addColumn('requested_by', 'text', (c) => c.notNull())
            .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
            .addColumn('decided_by', 'text')
            .addColumn('decided_at', 'timestamptz')
            .addColumn('decision_note', 'text')
            .addColumn('override', 'integer', (c) =>
              c
                .notNull()
                .defaultTo(0)
                .check(sql`override IN (0, 1)`),
            )
            .addColumn('refund_id', 'text')
            .addColumn('failure', 'text')
            .addColumn('desk_id', 'text', (c) => c.notNull())
            .addColumn('decided_desk_id', 'text'),
        async (db) => {
          await db.schema.createIndex('requests_status').on('requests').columns(['status', 'requested_at']).execute();
          await db.schema.createIndex('requests_payment').on('requests').column('payment_id').execute();
        },
      ),
      '0002_origins': { up: addOrigins },
      // A request is added only by the desk it names; the desk it names never changes.
      '0003_desk_rows': {
        up: async (db: Kysely<unknown>) =>
          void (await sql.raw(deskStampedTable('refund_requests', 'requests')).execute(db)),
      },
      // The center's door (center-sql.ts): from now on a desk writes requests only through its functions.
      '0004_center_door': { up: async (db: Kysely<unknown>) => void (await sql.raw(refundFunctionsSql()).execute(db)) },
      // A request the app makes is taken only as the journal shows it (refund_requests.as_journaled).
      '0005_system_requests_as_journaled': {
        up: async (db: Kysely<unknown>) => void (await sql.raw(refundFunctionsSql()).execute(db)),
      },
    },
    // A desk reads every request (the queue is the center's) and writes none row by row: asking, deciding, settling and
    // moving in go through the functions, which take the desk from its login and the operator from a session.
    grants: { requests: ['SELECT'] },
    functions: REFUND_REQUEST_FUNCTIONS,
  },
};

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
  desk_id: string | null;
  decided_desk_id: string | null;
  origin: RefundRequestOrigin | null;
  linked_payment_id: string | null;
  alert_desk_id: string | null;
}

export interface RefundRequestsDB {
  requests: Row;
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
  /** Put in the queue by the app (not asked for by an operator): why. */
  origin?: RefundRequestOrigin;
  /** The payment it is linked to: for a late success, the reservation's payment that replaced this one. */
  linkedPaymentId?: string;
  /** The desk told of it (a late success: the desk that abandoned the payment). */
  alertDeskId?: string;
}

export interface StoredRequest extends NewRequest {
  status: RefundRequestStatus;
  decidedBy: string | undefined;
  decidedAt: string | undefined;
  decisionNote: string | undefined;
  override: boolean;
  refundId: string | undefined;
  failure: string | undefined;
  /** The desk it was asked at; undefined for a request of before desks had ids. */
  deskId: string | undefined;
  /** The desk it was decided at; undefined while pending, or for a decision of before desks had ids. */
  decidedDeskId: string | undefined;
}

const opt = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** How many requests' payments are remembered for the audit trail's naming (a call's audit row names its payment). */
const KNOWN_PAYMENTS = 500;

/** A write of one request that returns its payment (none when it wrote no row). */
type RequestWrite =
  | InsertQueryBuilder<RefundRequestsDB, 'requests', Row>
  | UpdateQueryBuilder<RefundRequestsDB, 'requests', 'requests', Row>;

/** A request this desk added, decided or settled (the windows are told; the center's other desks by NOTIFY). */
export interface RequestChange {
  requestId: string;
  paymentId: string;
}

/** The sessions open at this desk (OperatorDirectory.actingSession): on the center, what an operator's writes go through. */
export interface ActingSessions {
  actingSession(operatorId: string): string | undefined;
}

/**
 * A decision of a pending request. On the center the decider is the operator acting through their session at this desk
 * (`by`), or for a manager override (`override`) the approver whose password the center proved (`ticket`, from
 * OperatorDirectory.verifyOverride) on the screen of `caller`, the operator who asked; the time is the center's.
 */
export interface Decision {
  status: 'approved' | 'rejected';
  by: string;
  at: string;
  note?: string;
  override: boolean;
  ticket?: string;
  caller?: string;
}

/** A center function's answer: its outcome, and the row it wrote (the composite expanded; all null when it wrote none). */
type CenterAnswer = Row & { outcome: string };

export class RefundRequests {
  /** Request → payment, of the requests this desk read or wrote lately: the audit row of a call names its payment. */
  private readonly known = new Map<string, string>();
  private readonly listeners = new Set<(change: RequestChange, request: StoredRequest) => void>();

  private constructor(
    private readonly store: StoreDatabase<RefundRequestsDB>,
    /** This desk: its requests and decisions name it; it recovers only its own approvals. */
    readonly deskId: string,
    private readonly sessions: ActingSessions | undefined,
  ) {}

  /** `sessions`: the operators' sessions at this desk, through which the center takes their requests and decisions. */
  static async open(storage: Storage, desk: { deskId: string }, sessions?: ActingSessions): Promise<RefundRequests> {
    return new RefundRequests(await storage.open<RefundRequestsDB>(REFUND_REQUESTS_STORE), desk.deskId, sessions);
  }

  get schemaVersion(): number {
    return this.store.schemaVersion;
  }

  private get db(): StoreDatabase<RefundRequestsDB>['db'] {
    return this.store.db;
  }

  /** Each request this desk wrote, once written (as written). */
  onChange(listener: (change: RequestChange, request: StoredRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A write the other desks are told of: on the center its NOTIFY is in the write's own statement (a data-modifying WITH:
   * sent only for a row written, and only if the statement commits); this desk's listeners hear of it once it is written.
   * `write` returns the row it wrote (answered as the request, no read again), nothing when it wrote none.
   */
  private async announced(
    id: string,
    write: (db: Kysely<RefundRequestsDB>) => RequestWrite,
  ): Promise<StoredRequest | undefined> {
    const row =
      this.store.backend === 'postgres'
        ? await this.db
            .with('w', () => write(this.db))
            .selectFrom('w')
            .selectAll('w')
            .select(
              notificationIn({
                kind: 'refundRequest',
                deskId: this.deskId,
                requestId: id,
                paymentId: sql.ref('w.payment_id'),
                askedAt: sql.ref('w.desk_id'),
                alertAt: sql.ref('w.alert_desk_id'),
              }).as('notified'),
            )
            .executeTakeFirst()
        : await write(this.db).executeTakeFirst();
    return row === undefined ? undefined : this.written(id, row);
  }

  /** A request this desk wrote, remembered and told to its listeners. */
  private written(id: string, row: Row): StoredRequest {
    const request = this.remember(toRequest(row));
    for (const listener of this.listeners) listener({ requestId: id, paymentId: request.paymentId }, request);
    return request;
  }

  /**
   * One of the center's functions (`call`, answering an outcome and the row it wrote): the NOTIFY is in the same
   * statement, sent only when it wrote the row ('ok'), and only if the statement commits.
   */
  private async atCenter(id: string, call: RawBuilder<unknown>): Promise<{ outcome: string; request?: StoredRequest }> {
    const notice = notificationIn({
      kind: 'refundRequest',
      deskId: this.deskId,
      requestId: id,
      paymentId: sql.ref('w.payment_id'),
      askedAt: sql.ref('w.desk_id'),
      alertAt: sql.ref('w.alert_desk_id'),
    });
    const answer = await sql<CenterAnswer>`
      SELECT w.*, (SELECT ${notice} WHERE w.outcome = 'ok') AS notified
        FROM (SELECT f.outcome, (f.request).* FROM ${call} AS f) AS w`.execute(this.db);
    const row = answer.rows[0];
    if (row === undefined) throw new Error('refund requests: the center answered nothing');
    return row.outcome === 'ok' ? { outcome: row.outcome, request: this.written(id, row) } : { outcome: row.outcome };
  }

  /** The session `operatorId` has open at this desk (null: none, which the center refuses). */
  private sessionOf(operatorId: string): string | null {
    return this.sessions?.actingSession(operatorId) ?? null;
  }

  /** An operator's request; on the center, asked through `requestedBy`'s session at this desk. */
  async add(request: NewRequest): Promise<StoredRequest> {
    if (this.store.backend === 'postgres') {
      const { outcome, request: added } = await this.atCenter(
        request.id,
        sql`refund_requests.add_request(${this.sessionOf(request.requestedBy)}, ${request.id}, ${request.paymentId},
          ${request.amountCents ?? null}, ${request.currency}, ${request.reason}, ${request.note ?? null}, ${this.deskId})`,
      );
      if (outcome === 'forbidden') throw new OperatorError('not_signed_in');
      if (added === undefined) throw new Error(`refund requests: request not stored (${outcome})`);
      return added;
    }
    const added = await this.announced(request.id, (db) =>
      db.insertInto('requests').values(this.rowOf(request)).returningAll(),
    );
    if (added === undefined) throw new Error('refund requests: request not stored');
    return added;
  }

  /**
   * A request the app puts in the queue under an id made from what it is about (systemRequestId): of two desks writing
   * it at once, one writes it. Answers the request when this call wrote it, undefined when it was there already.
   */
  async addOnce(request: NewRequest): Promise<StoredRequest | undefined> {
    if (this.store.backend === 'postgres') {
      if (request.origin === undefined) throw new Error('refund requests: only a request the app makes is added once');
      const { request: added } = await this.atCenter(
        request.id,
        sql`refund_requests.add_system_request(${request.id}, ${request.paymentId}, ${request.amountCents ?? null},
          ${request.currency}, ${request.reason}, ${request.requestedBy}, ${request.origin},
          ${request.linkedPaymentId ?? null}, ${request.alertDeskId ?? null}, ${this.deskId})`,
      );
      return added;
    }
    return this.announced(request.id, (db) =>
      db
        .insertInto('requests')
        .values(this.rowOf(request))
        .onConflict((oc) => oc.column('id').doNothing())
        .returningAll(),
    );
  }

  /** A new request's row, pending, written by this desk. */
  private rowOf(request: NewRequest) {
    return {
      id: request.id,
      payment_id: request.paymentId,
      amount_cents: request.amountCents ?? null,
      currency: request.currency,
      reason: request.reason,
      note: request.note ?? null,
      status: 'pending' as const,
      requested_by: request.requestedBy,
      requested_at: request.requestedAt,
      override: 0,
      desk_id: this.deskId,
      origin: request.origin ?? null,
      linked_payment_id: request.linkedPaymentId ?? null,
      alert_desk_id: request.alertDeskId ?? null,
    };
  }

  /**
   * The refund an approved request became has ended (made or failed), as this desk's engine read it: the request is told
   * again, unchanged (on the embedded file its row is written as it is; on the center it is read with its NOTIFY, which
   * reaches the desk that asked). Nothing when no approved request of the payment became that refund.
   */
  async refundEnded(paymentId: string, refundId: string): Promise<StoredRequest | undefined> {
    const request = (await this.forPayment(paymentId)).find((r) => r.refundId === refundId && r.status === 'approved');
    if (request === undefined) return undefined;
    if (this.store.backend === 'postgres') {
      const row = await this.db
        .selectFrom('requests as w')
        .selectAll('w')
        .select(
          notificationIn({
            kind: 'refundRequest',
            deskId: this.deskId,
            requestId: request.id,
            paymentId: sql.ref('w.payment_id'),
            askedAt: sql.ref('w.desk_id'),
            alertAt: sql.ref('w.alert_desk_id'),
          }).as('notified'),
        )
        .where('w.id', '=', request.id)
        .where('w.refund_id', '=', refundId)
        .executeTakeFirst();
      return row === undefined ? undefined : this.written(request.id, row);
    }
    return this.announced(request.id, (db) =>
      db
        .updateTable('requests')
        .set((eb) => ({ refund_id: eb.ref('refund_id') }))
        .where('id', '=', request.id)
        .where('refund_id', '=', refundId)
        .returningAll(),
    );
  }

  async get(id: string): Promise<StoredRequest | undefined> {
    const row = await this.db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.remember(toRequest(row));
  }

  /** The payment of a request this desk read or wrote lately (for the audit trail, which cannot wait on the store). */
  paymentOfKnown(id: string): string | undefined {
    return this.known.get(id);
  }

  /**
   * Records the decision before the refund is sent, so that both ids are kept even if the app stops
   * mid-request. Only a pending request can be decided, in one conditional update: answers false when another decision
   * came first (at this desk or another).
   */
  async decide(id: string, decision: Decision): Promise<boolean> {
    if (this.store.backend === 'postgres') return this.decideAtCenter(id, decision);
    const decided = await this.announced(id, (db) =>
      db
        .updateTable('requests')
        .set({
          status: decision.status,
          decided_by: decision.by,
          decided_at: decision.at,
          decision_note: decision.note ?? null,
          override: decision.override ? 1 : 0,
          decided_desk_id: this.deskId,
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returningAll(),
    );
    return decided !== undefined;
  }

  /**
   * On the center: the decision through the decider's session, or a manager override through the requester's session and
   * the approver's ticket. The center's refusals as main's codes; false when another decision came first.
   */
  private async decideAtCenter(id: string, decision: Decision): Promise<boolean> {
    if (decision.override && decision.status !== 'approved') throw new Error('refund requests: an override approves');
    const call = decision.override
      ? sql`refund_requests.decide_override(${this.sessionOf(decision.caller ?? decision.by)}, ${decision.ticket ?? null},
          ${id}, ${this.deskId})`
      : sql`refund_requests.decide(${this.sessionOf(decision.by)}, ${id}, ${decision.status}, ${decision.note ?? null},
          ${this.deskId})`;
    const { outcome } = await this.atCenter(id, call);
    switch (outcome) {
      case 'ok':
        return true;
      case 'closed':
        return false;
      case 'not_found':
        throw new RefundError('request_not_found');
      case 'approver_not_allowed':
      case 'same_person':
        throw new RefundError(outcome);
      case 'forbidden':
        // The decider (or, for an override, the operator at the screen) has no session open at this desk any more.
        throw new OperatorError('not_signed_in');
      case 'no_ticket':
        // The approver's password was proven over two minutes ago (or never here): they sign again.
        throw new OperatorError('invalid_credentials');
      default:
        throw new Error(`refund requests: the center answered ${outcome} to a decision`);
    }
  }

  /** The refund the approval became, or why the service refused it for good. */
  async settle(id: string, outcome: { refundId: string } | { failure: string }): Promise<StoredRequest> {
    if (this.store.backend === 'postgres') {
      const refundId = 'refundId' in outcome ? outcome.refundId : null;
      const failure = 'failure' in outcome ? outcome.failure : null;
      const answer = await this.atCenter(
        id,
        sql`refund_requests.settle(${id}, ${refundId}, ${failure}, ${this.deskId})`,
      );
      if (answer.request === undefined)
        throw new Error(`refund requests: request not settled (the center answered ${answer.outcome})`);
      return answer.request;
    }
    const set =
      'refundId' in outcome
        ? { refund_id: outcome.refundId, failure: null }
        : { status: 'failed' as const, failure: outcome.failure };
    const settled = await this.announced(id, (db) =>
      db.updateTable('requests').set(set).where('id', '=', id).returningAll(),
    );
    if (settled === undefined) throw new Error('refund requests: request not stored');
    return settled;
  }

  /** The center's queue (every desk's requests): the pending ones oldest first, or all of them newest first. */
  async list(status: 'pending' | 'all', limit = 200): Promise<StoredRequest[]> {
    const rows =
      status === 'pending'
        ? await this.db
            .selectFrom('requests')
            .selectAll()
            .where('status', '=', 'pending')
            .orderBy('requested_at')
            .orderBy('id')
            .limit(limit)
            .execute()
        : await this.db
            .selectFrom('requests')
            .selectAll()
            .orderBy('requested_at', 'desc')
            .orderBy('id')
            .limit(limit)
            .execute();
    return rows.map((row) => this.remember(toRequest(row)));
  }

  async forPayment(paymentId: string): Promise<StoredRequest[]> {
    const rows = await this.db
      .selectFrom('requests')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .orderBy('requested_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => this.remember(toRequest(row)));
  }

  /** This desk's approved requests whose refund is not yet known (it stopped while sending them): each desk recovers its own. */
  async unsettledApprovals(): Promise<StoredRequest[]> {
    const rows = await this.db
      .selectFrom('requests')
      .selectAll()
      .where('status', '=', 'approved')
      .where('refund_id', 'is', null)
      .where((eb) => eb.or([eb('decided_desk_id', '=', this.deskId), eb('decided_desk_id', 'is', null)]))
      .execute();
    return rows.map(toRequest);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private remember(request: StoredRequest): StoredRequest {
    this.known.delete(request.id);
    this.known.set(request.id, request.paymentId);
    if (this.known.size > KNOWN_PAYMENTS) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
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
    deskId: opt(row.desk_id),
    decidedDeskId: opt(row.decided_desk_id),
    ...(row.origin === null ? {} : { origin: row.origin }),
    ...(row.linked_payment_id === null ? {} : { linkedPaymentId: row.linked_payment_id }),
    ...(row.alert_desk_id === null ? {} : { alertDeskId: row.alert_desk_id }),
  };
}

/** The id of the one request the app puts in the queue for this payment and origin: the same at every desk (a UUID from a hash). */
export function systemRequestId(origin: RefundRequestOrigin, paymentId: string): string {
  const hex = createHash('sha256').update(`${origin}:${paymentId}`).digest('hex');
  // A UUID of version 8 (custom), RFC 9562 variant.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
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
    ...(r.deskId === undefined ? {} : { deskId: r.deskId }),
    ...(r.decidedBy === undefined ? {} : { decidedBy: r.decidedBy }),
    ...(r.decidedAt === undefined ? {} : { decidedAt: r.decidedAt }),
    ...(r.decisionNote === undefined ? {} : { decisionNote: r.decisionNote }),
    override: r.override,
    ...(r.refundId === undefined ? {} : { refundId: r.refundId }),
    ...(r.failure === undefined ? {} : { failure: r.failure }),
    ...(r.origin === undefined ? {} : { origin: r.origin }),
    ...(r.linkedPaymentId === undefined ? {} : { linkedPaymentId: r.linkedPaymentId }),
  };
}
