/** Durable journal (SQLite, WAL): each keyed operation is written before it is sent; payments, methods and refunds as last known. */
import { createHash } from 'node:crypto';
import { FINAL_PAYMENT_STATUSES, FINAL_REFUND_STATUSES } from '../../shared/payments';
import { SqliteFile } from '../storage/sqlite';
import type { Attempt } from './client';
import type { MethodResource, PaymentResource, RefundResource } from './resources';

export type OperationKind = 'tokenize' | 'create_payment' | 'refund';
/**
 * pending: written, answer not yet known. done / failed: the service answered (failed = a definitive
 * refusal). reconcile: unanswered for 24 h, needs a person. abandoned: cannot be re-sent (a
 * tokenization: the card is never kept) and charged nothing.
 */
export type OperationState = 'pending' | 'done' | 'failed' | 'reconcile' | 'abandoned';

export interface Operation {
  key: string;
  operationId: string;
  kind: OperationKind;
  fingerprint: string;
  /** The request body as it will be re-sent; for a tokenization, without the card number or CVV. */
  payload: unknown;
  resendable: boolean;
  state: OperationState;
  reservationId: string;
  operatorId: string;
  paymentId: string | undefined;
  resultId: string | undefined;
  errorCode: string | undefined;
  createdAt: number;
}

export interface StoredMethod {
  id: string;
  reservationId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  expiresAt: string | undefined;
  createdAt: string;
  /** The guest agreed to keep the card for later charges: the operator who said so, and when (ISO). */
  keptBy: string | undefined;
  keptAt: string | undefined;
}

export interface StoredRefund {
  id: string;
  paymentId: string;
  /** Undefined when the service listed the refund without an amount (and it was never seen with one). */
  amountCents: number | undefined;
  currency: string;
  reason: string | undefined;
  status: string;
  operatorId: string | undefined;
  createdAt: string | undefined;
}

export interface PaymentFilter {
  reservationIds?: readonly string[];
  paymentId?: string;
  last4?: string;
  operatorId?: string;
  createdFrom?: string;
  createdTo?: string;
  limit: number;
}

export interface StoredPayment {
  id: string;
  reservationId: string;
  operatorId: string | undefined;
  methodId: string;
  status: string;
  amountCents: number;
  originalAmountCents: number | undefined;
  currency: string;
  availableInstallments: number[];
  installments: { count: number; perInstallmentCents: number } | undefined;
  nextActionUrl: string | undefined;
  failureCode: string | undefined;
  failureMessage: string | undefined;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string | undefined;
  expiresAt: string | undefined;
  refunds: StoredRefund[];
  /** The agent abandoned it while in progress (it is left to expire on the service): who, and when (ISO). */
  abandonedBy: string | undefined;
  abandonedAt: string | undefined;
}

/** Versioned migrations: index + 1 is the schema version kept in PRAGMA user_version. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE operations (
     key TEXT PRIMARY KEY,
     operation_id TEXT NOT NULL UNIQUE,
     kind TEXT NOT NULL CHECK (kind IN ('tokenize', 'create_payment', 'refund')),
     fingerprint TEXT NOT NULL,
     payload TEXT NOT NULL,
     resendable INTEGER NOT NULL CHECK (resendable IN (0, 1)),
     state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed', 'reconcile', 'abandoned')),
     reservation_id TEXT NOT NULL,
     operator_id TEXT NOT NULL,
     payment_id TEXT,
     result_id TEXT,
     http_status INTEGER,
     error_code TEXT,
     created_at INTEGER NOT NULL,
     completed_at INTEGER
   );
   CREATE INDEX operations_state ON operations (state);
   CREATE TABLE attempts (
     id INTEGER PRIMARY KEY,
     idempotency_key TEXT,
     operation TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     request_id TEXT NOT NULL,
     status TEXT NOT NULL,
     elapsed_ms REAL NOT NULL,
     at INTEGER NOT NULL
   );
   CREATE TABLE methods (
     id TEXT PRIMARY KEY,
     reservation_id TEXT NOT NULL,
     brand TEXT NOT NULL,
     last4 TEXT NOT NULL CHECK (length(last4) <= 4),
     exp_month INTEGER NOT NULL,
     exp_year INTEGER NOT NULL,
     expires_at TEXT,
     created_at TEXT NOT NULL
   );
   CREATE INDEX methods_reservation ON methods (reservation_id);
   CREATE TABLE payments (
     id TEXT PRIMARY KEY,
     reservation_id TEXT NOT NULL,
     operator_id TEXT,
     method_id TEXT NOT NULL,
     status TEXT NOT NULL,
     amount_cents INTEGER NOT NULL,
     original_amount_cents INTEGER,
     currency TEXT NOT NULL,
     available_installments TEXT NOT NULL DEFAULT '[]',
     installments_count INTEGER,
     per_installment_cents INTEGER,
     next_action_url TEXT,
     failure_code TEXT,
     failure_message TEXT,
     metadata TEXT NOT NULL DEFAULT '{}',
     created_at TEXT NOT NULL,
     updated_at TEXT,
     expires_at TEXT
   );
   CREATE INDEX payments_reservation ON payments (reservation_id);
   CREATE INDEX payments_status ON payments (status);
   CREATE TABLE refunds (
     id TEXT PRIMARY KEY,
     payment_id TEXT NOT NULL REFERENCES payments (id),
     amount_cents INTEGER NOT NULL,
     currency TEXT NOT NULL,
     reason TEXT,
     status TEXT NOT NULL,
     operator_id TEXT,
     created_at TEXT
   );
   CREATE INDEX refunds_payment ON refunds (payment_id);`,
  // 2: a refund listed by the service without an amount is kept, its amount unknown (NULL).
  `CREATE TABLE refunds_v2 (
     id TEXT PRIMARY KEY,
     payment_id TEXT NOT NULL REFERENCES payments (id),
     amount_cents INTEGER,
     currency TEXT NOT NULL,
     reason TEXT,
     status TEXT NOT NULL,
     operator_id TEXT,
     created_at TEXT
   );
   INSERT INTO refunds_v2 (id, payment_id, amount_cents, currency, reason, status, operator_id, created_at)
     SELECT id, payment_id, amount_cents, currency, reason, status, operator_id, created_at FROM refunds;
   DROP TABLE refunds;
   ALTER TABLE refunds_v2 RENAME TO refunds;
   CREATE INDEX refunds_payment ON refunds (payment_id);`,
  // 3: a card is kept for later charges only with the guest's consent, recorded with who and when (none before this).
  `ALTER TABLE methods ADD COLUMN kept_by TEXT;
   ALTER TABLE methods ADD COLUMN kept_at TEXT;`,
  // 4: a payment in progress the agent abandoned (left to expire on the service), with who and when.
  `ALTER TABLE payments ADD COLUMN abandoned_by TEXT;
   ALTER TABLE payments ADD COLUMN abandoned_at TEXT;`,
];

/** SQL list of quoted statuses, from the shared vocabulary (never hard-coded here). */
const sqlList = (statuses: readonly string[]): string => statuses.map((s) => `'${s.replaceAll("'", "''")}'`).join(', ');

export const SCHEMA_VERSION = MIGRATIONS.length;

const cents = (amount: number): number => Math.round(amount * 100);

/** sha256 of the canonical JSON (object keys sorted) of what is sent. */
export function fingerprint(payload: unknown): string {
  return createHash('sha256').update(canonical(payload)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface OperationRecord {
  key: string;
  operation_id: string;
  kind: OperationKind;
  fingerprint: string;
  payload: string;
  resendable: number;
  state: OperationState;
  reservation_id: string;
  operator_id: string;
  payment_id: string | null;
  result_id: string | null;
  error_code: string | null;
  created_at: number;
}

interface PaymentRecord {
  id: string;
  reservation_id: string;
  operator_id: string | null;
  method_id: string;
  status: string;
  amount_cents: number;
  original_amount_cents: number | null;
  currency: string;
  available_installments: string;
  installments_count: number | null;
  per_installment_cents: number | null;
  next_action_url: string | null;
  failure_code: string | null;
  failure_message: string | null;
  metadata: string;
  created_at: string;
  updated_at: string | null;
  expires_at: string | null;
  abandoned_by: string | null;
  abandoned_at: string | null;
}

interface RefundRecord {
  id: string;
  payment_id: string;
  amount_cents: number | null;
  currency: string;
  reason: string | null;
  status: string;
  operator_id: string | null;
  created_at: string | null;
}

interface MethodRecord {
  id: string;
  reservation_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  expires_at: string | null;
  created_at: string;
  kept_by: string | null;
  kept_at: string | null;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export class Journal {
  private readonly file: SqliteFile;

  /** Opens (or creates) the journal file and brings its schema up to date. */
  constructor(path: string) {
    this.file = new SqliteFile(path, { label: 'journal', migrations: MIGRATIONS, pragmas: ['foreign_keys = ON'] });
  }

  get schemaVersion(): number {
    return this.file.schemaVersion;
  }

  close(): void {
    this.file.close();
  }

  /** Runs `fn` in one transaction: all of it is written, or none. */
  transaction<T>(fn: () => T): T {
    return this.file.transaction(fn);
  }

  // ---- operations ----

  /** Writes an operation before it is sent. Its key is the Idempotency-Key of every attempt. */
  begin(op: Omit<Operation, 'state' | 'resultId' | 'errorCode' | 'fingerprint'>): Operation {
    this.file.stmt(
        `INSERT INTO operations (key, operation_id, kind, fingerprint, payload, resendable, state, reservation_id, operator_id, payment_id, created_at)
         VALUES (@key, @operationId, @kind, @fingerprint, @payload, @resendable, 'pending', @reservationId, @operatorId, @paymentId, @createdAt)`,
      )
      .run({
        key: op.key,
        operationId: op.operationId,
        kind: op.kind,
        fingerprint: fingerprint(op.payload),
        payload: JSON.stringify(op.payload),
        resendable: op.resendable ? 1 : 0,
        reservationId: op.reservationId,
        operatorId: op.operatorId,
        paymentId: op.paymentId ?? null,
        createdAt: op.createdAt,
      });
    const stored = this.operationByKey(op.key);
    if (!stored) throw new Error('journal: operation not stored');
    return stored;
  }

  operation(operationId: string): Operation | undefined {
    const row = this.file.stmt(`SELECT * FROM operations WHERE operation_id = ?`).get(operationId) as OperationRecord | undefined;
    return row && toOperation(row);
  }

  operationByKey(key: string): Operation | undefined {
    const row = this.file.stmt(`SELECT * FROM operations WHERE key = ?`).get(key) as OperationRecord | undefined;
    return row && toOperation(row);
  }

  /** The service answered: the resource it made, or its definitive refusal. */
  settle(key: string, outcome: { state: 'done'; resultId: string; httpStatus: number } | { state: 'failed' | 'reconcile' | 'abandoned'; errorCode: string; httpStatus?: number }, at: number): void {
    this.file.stmt(`UPDATE operations SET state = @state, result_id = @resultId, error_code = @errorCode, http_status = @httpStatus, completed_at = @at WHERE key = @key`)
      .run({
        key,
        state: outcome.state,
        resultId: outcome.state === 'done' ? outcome.resultId : null,
        errorCode: outcome.state === 'done' ? null : outcome.errorCode,
        httpStatus: outcome.httpStatus ?? null,
        at,
      });
  }

  pendingOperations(): Operation[] {
    const rows = this.file.stmt(`SELECT * FROM operations WHERE state = 'pending' ORDER BY created_at`).all() as OperationRecord[];
    return rows.map(toOperation);
  }

  /**
   * A reservation's payment operations in these states, oldest first. Its number is compared without case, as the desk
   * compares confirmation numbers everywhere (a re-import may write it in capitals): one reservation, one payment at a time.
   */
  paymentOperationsOf(reservationId: string, states: readonly OperationState[]): Operation[] {
    const rows = this.file
      .stmt(`SELECT * FROM operations WHERE kind = 'create_payment' AND lower(reservation_id) = lower(?) AND state IN (SELECT value FROM json_each(?)) ORDER BY created_at`)
      .all(reservationId, JSON.stringify(states)) as OperationRecord[];
    return rows.map(toOperation);
  }

  operationsInState(state: OperationState): Operation[] {
    const rows = this.file.stmt(`SELECT * FROM operations WHERE state = ? ORDER BY created_at`).all(state) as OperationRecord[];
    return rows.map(toOperation);
  }

  /** Refund operations begun in [from, to) (epoch ms, this desk's clock), in every state: the daily refund cap counts them. */
  refundOperationsBegunBetween(from: number, to: number): Operation[] {
    const rows = this.file.stmt(`SELECT * FROM operations WHERE kind = 'refund' AND created_at >= ? AND created_at < ? ORDER BY created_at`).all(from, to) as OperationRecord[];
    return rows.map(toOperation);
  }

  recordAttempt(attempt: Attempt, at: number): void {
    this.file.stmt(
        `INSERT INTO attempts (idempotency_key, operation, attempt, request_id, status, elapsed_ms, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(attempt.idempotencyKey ?? null, attempt.operation, attempt.attempt, attempt.requestId, String(attempt.status), attempt.elapsedMs, at);
  }

  // ---- resources, as last known ----

  saveMethod(method: MethodResource, reservationId: string): void {
    this.file.stmt(
        `INSERT INTO methods (id, reservation_id, brand, last4, exp_month, exp_year, expires_at, created_at)
         VALUES (@id, @reservationId, @brand, @last4, @expMonth, @expYear, @expiresAt, @createdAt)
         ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at`,
      )
      .run({
        id: method.id,
        reservationId,
        brand: method.card.brand,
        last4: method.card.last4.slice(-4),
        expMonth: method.card.expMonth,
        expYear: method.card.expYear,
        expiresAt: method.expiresAt ?? null,
        createdAt: method.createdAt,
      });
  }

  /**
   * The guest agreed to keep this card of the reservation for later charges: who recorded it and when. The first
   * consent stands (a second one changes nothing). False when the reservation has no such card.
   */
  keepMethod(methodId: string, reservationId: string, by: string, at: string): boolean {
    const result = this.file
      .stmt(`UPDATE methods SET kept_by = COALESCE(kept_by, @by), kept_at = COALESCE(kept_at, @at) WHERE id = @methodId AND lower(reservation_id) = lower(@reservationId)`)
      .run({ methodId, reservationId, by, at });
    return result.changes > 0;
  }

  /** The agent abandoned this payment in progress; the first record stands. */
  abandonPayment(paymentId: string, by: string, at: string): void {
    this.file.stmt(`UPDATE payments SET abandoned_by = COALESCE(abandoned_by, @by), abandoned_at = COALESCE(abandoned_at, @at) WHERE id = @paymentId`).run({ paymentId, by, at });
  }

  /** Saves a payment and its refunds as the service last described them. */
  savePayment(p: PaymentResource, by?: { operatorId?: string; refundOperator?: { refundId: string; operatorId: string } }): void {
    this.transaction(() => {
      this.file.stmt(
          `INSERT INTO payments (id, reservation_id, operator_id, method_id, status, amount_cents, original_amount_cents, currency,
             available_installments, installments_count, per_installment_cents, next_action_url, failure_code, failure_message,
             metadata, created_at, updated_at, expires_at)
           VALUES (@id, @reservationId, @operatorId, @methodId, @status, @amountCents, @originalAmountCents, @currency,
             @availableInstallments, @installmentsCount, @perInstallmentCents, @nextActionUrl, @failureCode, @failureMessage,
             @metadata, @createdAt, @updatedAt, @expiresAt)
           ON CONFLICT (id) DO UPDATE SET status = excluded.status, amount_cents = excluded.amount_cents,
             original_amount_cents = excluded.original_amount_cents, available_installments = excluded.available_installments,
             installments_count = excluded.installments_count, per_installment_cents = excluded.per_installment_cents,
             next_action_url = excluded.next_action_url, failure_code = excluded.failure_code,
             failure_message = excluded.failure_message, updated_at = excluded.updated_at, expires_at = excluded.expires_at,
             operator_id = COALESCE(payments.operator_id, excluded.operator_id)`,
        )
        .run({
          id: p.id,
          reservationId: p.reservationId,
          operatorId: by?.operatorId ?? null,
          methodId: p.methodId,
          status: p.status,
          amountCents: cents(p.amount),
          originalAmountCents: p.originalAmount === undefined ? null : cents(p.originalAmount),
          currency: p.currency,
          availableInstallments: JSON.stringify(p.availableInstallments ?? []),
          installmentsCount: p.installments?.count ?? null,
          perInstallmentCents: p.installments ? cents(p.installments.perInstallment) : null,
          nextActionUrl: p.nextAction?.url ?? null,
          failureCode: p.failure?.code ?? null,
          failureMessage: p.failure?.message ?? null,
          metadata: JSON.stringify(p.metadata),
          createdAt: p.createdAt,
          updatedAt: p.updatedAt ?? null,
          expiresAt: p.expiresAt ?? null,
        });
      for (const r of p.refunds) this.saveRefund(r, p, by?.refundOperator?.refundId === r.id ? by.refundOperator.operatorId : undefined);
    });
  }

  saveRefund(r: RefundResource, payment: Pick<PaymentResource, 'id' | 'currency'>, operatorId?: string): void {
    this.file.stmt(
        `INSERT INTO refunds (id, payment_id, amount_cents, currency, reason, status, operator_id, created_at)
         VALUES (@id, @paymentId, @amountCents, @currency, @reason, @status, @operatorId, @createdAt)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, operator_id = COALESCE(refunds.operator_id, excluded.operator_id),
           amount_cents = COALESCE(refunds.amount_cents, excluded.amount_cents)`,
      )
      .run({
        id: r.id,
        paymentId: r.paymentId ?? payment.id,
        amountCents: r.amount === undefined ? null : cents(r.amount),
        currency: r.currency || payment.currency,
        reason: r.reason ?? null,
        status: r.status,
        operatorId: operatorId ?? null,
        createdAt: r.createdAt ?? null,
      });
  }

  payment(id: string): StoredPayment | undefined {
    const row = this.file.stmt(`SELECT * FROM payments WHERE id = ?`).get(id) as PaymentRecord | undefined;
    return row && this.toPayment(row);
  }

  /** A reservation's payments, its number compared without case (as paymentOperationsOf and searchPayments). */
  paymentsOf(reservationId: string): StoredPayment[] {
    const rows = this.file.stmt(`SELECT * FROM payments WHERE lower(reservation_id) = lower(?) ORDER BY created_at`).all(reservationId) as PaymentRecord[];
    return rows.map((row) => this.toPayment(row));
  }

  methodsOf(reservationId: string): StoredMethod[] {
    const rows = this.file.stmt(`SELECT * FROM methods WHERE lower(reservation_id) = lower(?) ORDER BY created_at`).all(reservationId) as MethodRecord[];
    return rows.map(toMethod);
  }

  /** A card this desk tokenized, by its method id. */
  method(id: string): StoredMethod | undefined {
    const row = this.file.stmt(`SELECT * FROM methods WHERE id = ?`).get(id) as MethodRecord | undefined;
    return row && toMethod(row);
  }

  /** The payments made with a card, oldest first. */
  paymentsOfMethod(methodId: string): StoredPayment[] {
    const rows = this.file.stmt(`SELECT * FROM payments WHERE method_id = ? ORDER BY created_at`).all(methodId) as PaymentRecord[];
    return rows.map((row) => this.toPayment(row));
  }

  /**
   * The payments a supervisor looks for, newest first: every given filter must hold. Payment ids match
   * by prefix, reservations exactly (ignoring case), created dates as ISO instants [from, to).
   */
  searchPayments(filter: PaymentFilter): (StoredPayment & { brand: string | undefined; last4: string | undefined })[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: filter.limit };
    if (filter.reservationIds) {
      if (filter.reservationIds.length === 0) return [];
      where.push(`lower(p.reservation_id) IN (SELECT lower(value) FROM json_each(@reservationIds))`);
      params['reservationIds'] = JSON.stringify(filter.reservationIds);
    }
    if (filter.paymentId !== undefined) {
      where.push(`p.id LIKE @paymentId ESCAPE '\\'`);
      params['paymentId'] = `${filter.paymentId.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    }
    if (filter.last4 !== undefined) {
      where.push('m.last4 = @last4');
      params['last4'] = filter.last4;
    }
    if (filter.operatorId !== undefined) {
      where.push('lower(p.operator_id) = lower(@operatorId)');
      params['operatorId'] = filter.operatorId;
    }
    if (filter.createdFrom !== undefined) {
      where.push('p.created_at >= @createdFrom');
      params['createdFrom'] = filter.createdFrom;
    }
    if (filter.createdTo !== undefined) {
      where.push('p.created_at < @createdTo');
      params['createdTo'] = filter.createdTo;
    }
    const rows = this.file
      .stmt(
        `SELECT p.*, m.brand AS card_brand, m.last4 AS card_last4 FROM payments p LEFT JOIN methods m ON m.id = p.method_id
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY p.created_at DESC LIMIT @limit`,
      )
      .all(params) as (PaymentRecord & { card_brand: string | null; card_last4: string | null })[];
    return rows.map((row) => ({ ...this.toPayment(row), brand: opt(row.card_brand), last4: opt(row.card_last4) }));
  }

  /** Payments created in [from, to) (ISO instants), for the day's report. */
  paymentsCreatedBetween(from: string, to: string): StoredPayment[] {
    const rows = this.file.stmt(`SELECT * FROM payments WHERE created_at >= ? AND created_at < ? ORDER BY created_at`).all(from, to) as PaymentRecord[];
    return rows.map((row) => this.toPayment(row));
  }

  /** Refunds created in [from, to) (ISO instants), for the day's report. */
  refundsCreatedBetween(from: string, to: string): StoredRefund[] {
    const rows = this.file.stmt(`SELECT * FROM refunds WHERE created_at >= ? AND created_at < ? ORDER BY created_at`).all(from, to) as RefundRecord[];
    return rows.map(toRefund);
  }

  /** Payments whose status may still change, or with a refund not yet final (shared vocabulary: an unknown status is not final). */
  unsettledPaymentIds(): string[] {
    const rows = this.file.stmt(
        `SELECT id FROM payments WHERE status NOT IN (${sqlList(FINAL_PAYMENT_STATUSES)})
         UNION SELECT payment_id AS id FROM refunds WHERE status NOT IN (${sqlList(FINAL_REFUND_STATUSES)})`,
      )
      .all() as { id: string }[];
    return rows.map((r) => r.id);
  }

  private toPayment(row: PaymentRecord): StoredPayment {
    const refunds = (this.file.stmt(`SELECT * FROM refunds WHERE payment_id = ? ORDER BY created_at`).all(row.id) as RefundRecord[]).map(toRefund);
    return {
      id: row.id,
      reservationId: row.reservation_id,
      operatorId: opt(row.operator_id),
      methodId: row.method_id,
      status: row.status,
      amountCents: row.amount_cents,
      originalAmountCents: opt(row.original_amount_cents),
      currency: row.currency,
      availableInstallments: JSON.parse(row.available_installments) as number[],
      installments:
        row.installments_count === null || row.per_installment_cents === null
          ? undefined
          : { count: row.installments_count, perInstallmentCents: row.per_installment_cents },
      nextActionUrl: opt(row.next_action_url),
      failureCode: opt(row.failure_code),
      failureMessage: opt(row.failure_message),
      metadata: JSON.parse(row.metadata) as Record<string, unknown>,
      createdAt: row.created_at,
      updatedAt: opt(row.updated_at),
      expiresAt: opt(row.expires_at),
      refunds,
      abandonedBy: opt(row.abandoned_by),
      abandonedAt: opt(row.abandoned_at),
    };
  }
}

function toRefund(r: RefundRecord): StoredRefund {
  return {
    id: r.id,
    paymentId: r.payment_id,
    amountCents: opt(r.amount_cents),
    currency: r.currency,
    reason: opt(r.reason),
    status: r.status,
    operatorId: opt(r.operator_id),
    createdAt: opt(r.created_at),
  };
}

function toOperation(row: OperationRecord): Operation {
  return {
    key: row.key,
    operationId: row.operation_id,
    kind: row.kind,
    fingerprint: row.fingerprint,
    payload: JSON.parse(row.payload) as unknown,
    resendable: row.resendable === 1,
    state: row.state,
    reservationId: row.reservation_id,
    operatorId: row.operator_id,
    paymentId: opt(row.payment_id),
    resultId: opt(row.result_id),
    errorCode: opt(row.error_code),
    createdAt: row.created_at,
  };
}

const toMethod = (m: MethodRecord): StoredMethod => ({
  id: m.id,
  reservationId: m.reservation_id,
  brand: m.brand,
  last4: m.last4,
  expMonth: m.exp_month,
  expYear: m.exp_year,
  expiresAt: opt(m.expires_at),
  createdAt: m.created_at,
  keptBy: opt(m.kept_by),
  keptAt: opt(m.kept_at),
});
