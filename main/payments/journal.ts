/** Durable journal (the storage layer: this desk's journal.db, or the center): each keyed operation is written before it is sent; payments, methods and refunds as last known. */
import { createHash, randomUUID } from 'node:crypto';
import {
  sql,
  type Kysely,
  type Generated,
  type RawBuilder,
  type Selectable,
  type SqlBool,
  type Transaction,
} from 'kysely';
import {
  FINAL_PAYMENT_STATUSES,
  FINAL_REFUND_STATUSES,
  IN_PROGRESS_PAYMENT_STATUSES,
  IN_PROGRESS_REFUND_STATUSES,
  SHORT_REFERENCE_LENGTH,
} from '../../shared/payments';
import {
  databaseNowMs,
  isUniqueViolation,
  notificationIn,
  notifyChange,
  type Change,
  type Storage,
  type StoreDatabase,
  type StoreDefinition,
  type TransactionOptions,
} from '../storage';
import type { Attempt } from './client';
import type { MethodResource, PaymentResource, RefundResource } from './resources';

export type OperationKind = 'tokenize' | 'create_payment' | 'refund';
/**
 * pending: written, answer not yet known. done / failed: the service answered (failed = a definitive
 * refusal). reconcile: unanswered for 24 h, needs a person. abandoned: cannot be re-sent (a
 * tokenization: the card is never kept) and charged nothing.
 */
export type OperationState = 'pending' | 'done' | 'failed' | 'reconcile' | 'abandoned';

/** How an operation ends: answered, refused for good, past the window, or closed without being sent. */
export type Settlement =
  | { state: 'done'; resultId: string; httpStatus: number }
  | { state: 'failed' | 'reconcile' | 'abandoned'; errorCode: string; httpStatus?: number };

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
  /**
   * When it began by the service's clock (its Date header, read as early as it may be): what the service's 24-hour
   * window is measured from. Undefined when no answer of the service had been read yet, and for older operations.
   */
  serviceCreatedAt?: number | undefined;
  /** The desk that began it (its desk id): each desk recovers only its own. */
  deskId: string;
}

/** What recover() completed: a payment made or a refund made after a restart, for the operator who began it. */
export interface RecoveredNotice {
  id: string;
  kind: 'payment' | 'refund';
  operatorId: string;
  reservationId: string;
  paymentId: string;
  refundId: string | undefined;
  amountCents: number | undefined;
  currency: string;
  status: string;
  takenAt: number;
  completedAt: number;
  deskId: string;
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
  /** The desk that first wrote it (undefined for a refund written before desk ids). */
  deskId: string | undefined;
}

export interface PaymentFilter {
  reservationIds?: readonly string[];
  paymentId?: string;
  /** The key of a short reference (shortReferenceKey): the last 8 characters of the payment id, lower case. */
  shortReference?: string;
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
  /** The desk where it was taken (the first desk that wrote it). */
  deskId: string;
  /** The desk where it was abandoned (its alert goes there when it succeeds after all). */
  abandonedDeskId: string | undefined;
  /** Its card's brand and last 4 (the method as tokenized at a desk of the center); undefined when no desk holds it. */
  brand: string | undefined;
  last4: string | undefined;
}

/** Who holds a payment's lease now (another desk, or this desk's other window): a change of it waits for theirs. */
export interface LeaseHolder {
  deskId: string;
  operatorId: string;
}

/**
 * The journal's SQLite migrations of the SqliteFile era (PRAGMA user_version 1…4), each as it was released: a desk's
 * journal.db written by those versions is adopted with its rows. Never changed.
 */
export const LEGACY_SQLITE_MIGRATIONS: readonly string[] = [
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

/**
 * A reservation number as the journal holds a reservation: upper case, without spaces, dashes of any kind or dots, its
 * full-width letters and digits as ASCII ("cun 6b3d8f", "CUN6B3D8F" and "CUN–6B3D8F" are CUN-6B3D8F, as the lookup finds them).
 */
export function reservationKey(reservationId: string): string {
  return reservationId
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\p{Pd}.]+/gu, '');
}

interface OperationsTable {
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
  http_status: number | null;
  error_code: string | null;
  created_at: number;
  completed_at: number | null;
  /** Null only in a file of the SqliteFile era until Journal.open names this desk. */
  desk_id: string | null;
  reservation_key: string | null;
  service_created_at: number | null;
}

interface AttemptsTable {
  id: Generated<number>;
  idempotency_key: string | null;
  operation: string;
  attempt: number;
  request_id: string;
  status: string;
  elapsed_ms: number;
  at: number;
  desk_id: string | null;
}

interface MethodsTable {
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
  desk_id: string | null;
  reservation_key: string | null;
}

interface PaymentsTable {
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
  desk_id: string | null;
  reservation_key: string | null;
  abandoned_desk_id: string | null;
}

/**
 * One change of a payment at a time across the center (amount update, confirmation, abandon): the desk and operator
 * holding it, until `expires_at` (ms, the database's clock; 0 once released). A holder that crashed frees it by expiry.
 */
interface PaymentLeasesTable {
  payment_id: string;
  desk_id: string;
  operator_id: string;
  token: string;
  expires_at: number;
}

interface RefundsTable {
  id: string;
  payment_id: string;
  amount_cents: number | null;
  currency: string;
  reason: string | null;
  status: string;
  operator_id: string | null;
  created_at: string | null;
  desk_id: string | null;
}

/** What recover() completed at a start: told to the operator who began it until they acknowledge it. */
interface RecoveredTable {
  /** The operation's id: one notice per operation. */
  operation_id: string;
  kind: 'payment' | 'refund';
  operator_id: string;
  reservation_id: string;
  reservation_key: string;
  payment_id: string;
  refund_id: string | null;
  amount_cents: number | null;
  currency: string;
  status: string;
  /** When the operation was begun and when recover() completed it (epoch ms, the engine's clock). */
  taken_at: number;
  completed_at: number;
  desk_id: string;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
}

export interface JournalDB {
  operations: OperationsTable;
  attempts: AttemptsTable;
  methods: MethodsTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  payment_leases: PaymentLeasesTable;
  recovered: RecoveredTable;
}

type OperationRecord = Selectable<OperationsTable>;
type RecoveredRecord = Selectable<RecoveredTable>;
type PaymentRecord = Selectable<PaymentsTable>;
type RefundRecord = Selectable<RefundsTable>;
type MethodRecord = Selectable<MethodsTable>;

/** The unique indexes that hold the center's money rules (their names, as a violation reports them on each backend). */
export const ONE_UNANSWERED_PAYMENT_INDEX = 'operations_one_unanswered_payment';
export const ONE_REFUND_IN_FLIGHT_INDEX = 'operations_one_refund_in_flight';

/**
 * The money rules, held by the database on both backends: one create_payment operation still unanswered
 * per reservation (its key), one refund operation still unanswered per payment. Plus the desk's own reads.
 */
async function createCenterRules(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('operations_desk_state').on('operations').columns(['desk_id', 'state']).execute();
  await db.schema
    .createIndex('operations_reservation_key')
    .on('operations')
    .columns(['reservation_key', 'kind'])
    .execute();
  await db.schema
    .createIndex(ONE_UNANSWERED_PAYMENT_INDEX)
    .on('operations')
    .column('reservation_key')
    .unique()
    .where(sql<boolean>`kind = 'create_payment' AND state = 'pending'`)
    .execute();
  await db.schema
    .createIndex(ONE_REFUND_IN_FLIGHT_INDEX)
    .on('operations')
    .column('payment_id')
    .unique()
    .where(sql<boolean>`kind = 'refund' AND state = 'pending'`)
    .execute();
  await db.schema.createIndex('payments_reservation_key').on('payments').column('reservation_key').execute();
  await db.schema.createIndex('payments_desk').on('payments').column('desk_id').execute();
  await db.schema.createIndex('methods_reservation_key').on('methods').column('reservation_key').execute();
}

/** Each reservation's key, for rows written before the key existed; a second unanswered payment of one key keeps none (see below). */
async function fillReservationKeys(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<JournalDB>;
  for (const table of ['payments', 'methods'] as const) {
    const rows = await db
      .selectFrom(table)
      .select(['id', 'reservation_id'])
      .where('reservation_key', 'is', null)
      .execute();
    for (const row of rows)
      await db
        .updateTable(table)
        .set({ reservation_key: reservationKey(row.reservation_id) })
        .where('id', '=', row.id)
        .execute();
  }
  const ops = await db
    .selectFrom('operations')
    .select(['key', 'kind', 'state', 'reservation_id'])
    .where('reservation_key', 'is', null)
    .orderBy('created_at')
    .execute();
  const held = new Set<string>();
  for (const op of ops) {
    const key = reservationKey(op.reservation_id);
    // The earlier app let a reservation typed without its dash through its guard: a second unanswered payment of one
    // reservation keeps no key (the index allows one). It is still this desk's to recover at start, which answers it.
    if (op.kind === 'create_payment' && op.state === 'pending') {
      if (held.has(key)) continue;
      held.add(key);
    }
    await db.updateTable('operations').set({ reservation_key: key }).where('key', '=', op.key).execute();
  }
}

/** Each operation's start by the service's clock (Operation.serviceCreatedAt); none for the operations already written. */
async function addServiceClock(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('operations').addColumn('service_created_at', 'bigint').execute();
}

/** The payments' leases, and the desk a payment was abandoned at: the same on both backends. */
async function createPaymentLeases(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_leases')
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('desk_id', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('payments').addColumn('abandoned_desk_id', 'text').execute();
}

/** The notices of what recover() completed (both backends), read by operator and by reservation. */
async function createRecovered(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recovered')
    .addColumn('operation_id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('payment', 'refund')`))
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('reservation_id', 'text', (c) => c.notNull())
    .addColumn('reservation_key', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('refund_id', 'text')
    .addColumn('amount_cents', 'bigint')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint', (c) => c.notNull())
    .addColumn('desk_id', 'text', (c) => c.notNull())
    .addColumn('acknowledged_at', 'bigint')
    .addColumn('acknowledged_by', 'text')
    .execute();
  await db.schema
    .createIndex('recovered_operator')
    .on('recovered')
    .columns(['operator_id', 'acknowledged_at'])
    .execute();
  await db.schema.createIndex('recovered_reservation_key').on('recovered').column('reservation_key').execute();
}

/**
 * A payment's short reference (shared/payments shortReference) as the journal compares it: the last 8 characters of
 * its id in lower case, indexed on each backend by the same expression the search uses.
 */
const SHORT_REFERENCE_SQL = {
  sqlite: (column: string) => sql<string>`lower(substr(${sql.ref(column)}, -${sql.lit(SHORT_REFERENCE_LENGTH)}))`,
  postgres: (column: string) => sql<string>`lower(right(${sql.ref(column)}, ${sql.lit(SHORT_REFERENCE_LENGTH)}))`,
} as const;

/** The index a search by short reference reads (both backends). */
const indexShortReference = (backend: keyof typeof SHORT_REFERENCE_SQL) => async (db: Kysely<unknown>) => {
  await db.schema
    .createIndex('payments_short_reference')
    .on('payments')
    .expression(SHORT_REFERENCE_SQL[backend]('id'))
    .execute();
};

const LEGACY_NAMES = [
  '0001_operations',
  '0002_refund_amount_unknown',
  '0003_kept_cards',
  '0004_abandoned_payments',
] as const;

const sqliteMigrations = {
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

const postgresMigrations = {
  '0001_journal': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('operations')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('operation_id', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('tokenize', 'create_payment', 'refund')`))
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('resendable', 'integer', (c) => c.notNull().check(sql`resendable IN (0, 1)`))
        .addColumn('state', 'text', (c) =>
          c.notNull().check(sql`state IN ('pending', 'done', 'failed', 'reconcile', 'abandoned')`),
        )
        .addColumn('reservation_id', 'text', (c) => c.notNull())
        .addColumn('operator_id', 'text', (c) => c.notNull())
        .addColumn('payment_id', 'text')
        .addColumn('result_id', 'text')
        .addColumn('http_status', 'integer')
        .addColumn('error_code', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .addColumn('desk_id', 'text', (c) => c.notNull())
        .addColumn('reservation_key', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('operations_state').on('operations').column('state').execute();
      await db.schema
        .createTable('attempts')
        .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
        .addColumn('idempotency_key', 'text')
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('elapsed_ms', 'double precision', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('desk_id', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('methods')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('reservation_id', 'text', (c) => c.notNull())
        .addColumn('brand', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull().check(sql`length(last4) <= 4`))
        .addColumn('exp_month', 'integer', (c) => c.notNull())
        .addColumn('exp_year', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('kept_by', 'text')
        .addColumn('kept_at', 'text')
        .addColumn('desk_id', 'text', (c) => c.notNull())
        .addColumn('reservation_key', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('methods_reservation').on('methods').column('reservation_id').execute();
      await db.schema
        .createTable('payments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('reservation_id', 'text', (c) => c.notNull())
        .addColumn('operator_id', 'text')
        .addColumn('method_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount_cents', 'bigint', (c) => c.notNull())
        .addColumn('original_amount_cents', 'bigint')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('available_installments', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('installments_count', 'integer')
        .addColumn('per_installment_cents', 'bigint')
        .addColumn('next_action_url', 'text')
        .addColumn('failure_code', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('abandoned_by', 'text')
        .addColumn('abandoned_at', 'text')
        .addColumn('desk_id', 'text', (c) => c.notNull())
        .addColumn('reservation_key', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_reservation').on('payments').column('reservation_id').execute();
      await db.schema.createIndex('payments_status').on('payments').column('status').execute();
      await db.schema.createIndex('payments_created').on('payments').column('created_at').execute();
      await db.schema
        .createTable('refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
        .addColumn('amount_cents', 'bigint')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('operator_id', 'text')
        .addColumn('created_at', 'text')
        .addColumn('desk_id', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('refunds_payment').on('refunds').column('payment_id').execute();
      await createCenterRules(db);
    },
  },
  '0002_service_clock': { up: addServiceClock },
  '0003_payment_leases': { up: createPaymentLeases },
  '0004_recovered_notices': { up: createRecovered },
  '0005_short_reference': { up: indexShortReference('postgres') },
};

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

const cents = (amount: number): number => Math.round(amount * 100);

/**
 * In an upsert: the row's status is final and the word arriving is one the payment or refund passes through before it
 * ends. Such a word is stale (a read made before the end, answered after another desk wrote it), and a final status is
 * never taken back by it. A status this app does not know is taken: it may have moved money (shared/payments/status.ts).
 */
const staleStatus = (table: 'payments' | 'refunds', finals: readonly string[], inProgress: readonly string[]) =>
  sql<SqlBool>`(${sql.ref(`${table}.status`)} in (${sql.join(finals)}) and ${sql.ref('excluded.status')} in (${sql.join(inProgress)}))`;

/** The payment's columns the service's word sets again at each save (savePayment sets and compares these): one differing is something new. */
const PAYMENT_SERVICE_COLUMNS = [
  'status',
  'amount_cents',
  'original_amount_cents',
  'available_installments',
  'installments_count',
  'per_installment_cents',
  'next_action_url',
  'failure_code',
  'failure_message',
  'updated_at',
  'expires_at',
] as const;

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

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** What a unique index of the journal refused: the same operation begun twice, or one of the center's money rules. */
export type JournalConflict = 'operation_exists' | 'payment_unanswered' | 'refund_in_flight';

/** Which rule a unique violation broke: SQLite names the columns, PostgreSQL the index. */
export function journalConflict(error: unknown): JournalConflict | undefined {
  if (!isUniqueViolation(error)) return undefined;
  const constraint = error.constraint ?? '';
  if (constraint.includes(ONE_UNANSWERED_PAYMENT_INDEX) || /operations\.reservation_key/.test(constraint))
    return 'payment_unanswered';
  if (constraint.includes(ONE_REFUND_IN_FLIGHT_INDEX) || /operations\.payment_id/.test(constraint))
    return 'refund_in_flight';
  return 'operation_exists';
}

type JournalExecutor = Kysely<JournalDB> | Transaction<JournalDB>;

export class Journal {
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly store: StoreDatabase<JournalDB>,
    /** This desk: every record it writes names it; it recovers only its own operations. */
    readonly deskId: string,
    private readonly db: JournalExecutor,
    private readonly parent: Journal | undefined,
  ) {}

  /**
   * Opens the journal on the storage (created or migrated on the embedded file; at its version on the center). Every row
   * of the embedded file is this desk's: one written before desks had ids, or under an earlier id of this data folder
   * (desk.json made again), is given its id, so that this desk still recovers and follows it.
   */
  static async open(storage: Storage, desk: { deskId: string }): Promise<Journal> {
    const store = await storage.open<JournalDB>(JOURNAL_STORE);
    try {
      if (store.backend === 'sqlite') {
        await store.transaction(async (trx) => {
          for (const table of ['operations', 'attempts', 'methods', 'payments', 'refunds'] as const) {
            await trx
              .updateTable(table)
              .set({ desk_id: desk.deskId })
              .where((eb) => eb.or([eb('desk_id', 'is', null), eb('desk_id', '!=', desk.deskId)]))
              .execute();
          }
          await trx
            .updateTable('payments')
            .set({ abandoned_desk_id: desk.deskId })
            .where('abandoned_desk_id', '!=', desk.deskId)
            .execute();
        });
      }
    } catch (error) {
      await store.close();
      throw error;
    }
    return new Journal(store, desk.deskId, store.db, undefined);
  }

  get schemaVersion(): number {
    return this.store.schemaVersion;
  }

  /** The database's clock now (ms since the epoch): on the center, the one clock every desk's operations are timed by. */
  async databaseNow(): Promise<number> {
    const { rows } = await sql<{ now: number | string }>`SELECT ${databaseNowMs(this.store.backend)} AS now`.execute(
      this.db,
    );
    const now = Number(rows[0]?.now);
    if (!Number.isFinite(now)) throw new Error('journal: the database gave no time');
    return now;
  }

  get backend(): StoreDatabase<JournalDB>['backend'] {
    return this.store.backend;
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  /** Something this journal wrote (for the engine's "busy" state); called after the write. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    if (this.parent !== undefined) {
      this.parent.changed();
      return;
    }
    for (const listener of this.listeners) listener();
  }

  /** Runs `fn` in one transaction (the journal it is given writes in it): all of it is written, or none. */
  async transaction<T>(fn: (journal: Journal) => Promise<T>, options?: TransactionOptions): Promise<T> {
    if (this.parent !== undefined) return fn(this);
    return this.store.transaction((trx) => fn(new Journal(this.store, this.deskId, trx, this)), options);
  }

  /**
   * A write the other desks of the center are told of: its NOTIFY goes in the write's transaction (sent when it commits,
   * never for a write rolled back). On the embedded file there is nobody else to tell: the write runs as it is.
   */
  private async announced<T>(
    write: (journal: Journal) => Promise<{ value: T; changes: readonly Change[] }>,
  ): Promise<T> {
    if (this.store.backend !== 'postgres') return (await write(this)).value;
    return this.transaction(async (journal) => {
      const { value, changes } = await write(journal);
      for (const change of changes) await notifyChange(journal.db, 'postgres', change);
      return value;
    });
  }

  // ---- operations ----

  /**
   * Writes an operation before it is sent (committed when this answers). Its key is the Idempotency-Key of every
   * attempt. A UniqueViolationError (journalConflict says which) when its id or key was begun already, when the
   * reservation has a payment still unanswered, or when the payment has a refund still unanswered — on any desk.
   */
  async begin(op: Omit<Operation, 'state' | 'resultId' | 'errorCode' | 'fingerprint' | 'deskId'>): Promise<Operation> {
    const insert = this.db
      .insertInto('operations')
      .values({
        key: op.key,
        operation_id: op.operationId,
        kind: op.kind,
        fingerprint: fingerprint(op.payload),
        payload: JSON.stringify(op.payload),
        resendable: op.resendable ? 1 : 0,
        state: 'pending',
        reservation_id: op.reservationId,
        reservation_key: reservationKey(op.reservationId),
        operator_id: op.operatorId,
        payment_id: op.paymentId ?? null,
        created_at: op.createdAt,
        service_created_at: op.serviceCreatedAt ?? null,
        desk_id: this.deskId,
      })
      .returningAll();
    // On the center its NOTIFY is in the insert's own statement (sent only if it commits): one round trip, the row back.
    const row =
      this.store.backend === 'postgres'
        ? await this.db
            .with('w', () => insert)
            .selectFrom('w')
            .selectAll('w')
            .select(
              notificationIn({
                kind: 'operation',
                deskId: this.deskId,
                operationId: op.operationId,
                reservationKey: reservationKey(op.reservationId),
                paymentId: op.paymentId,
              }).as('notified'),
            )
            .executeTakeFirst()
        : await insert.executeTakeFirst();
    this.changed();
    if (!row) throw new Error('journal: operation not stored');
    return toOperation(row, this.deskId);
  }

  async operation(operationId: string): Promise<Operation | undefined> {
    const row = await this.db
      .selectFrom('operations')
      .selectAll()
      .where('operation_id', '=', operationId)
      .executeTakeFirst();
    return row && toOperation(row, this.deskId);
  }

  async operationByKey(key: string): Promise<Operation | undefined> {
    const row = await this.db.selectFrom('operations').selectAll().where('key', '=', key).executeTakeFirst();
    return row && toOperation(row, this.deskId);
  }

  /**
   * The service answered: the resource it made, or its definitive refusal. An answer, once written, stands: a refusal or
   * a reconciliation is written only over an operation still unanswered (another desk may have read it unanswered just
   * before its answer was written here), and the resource it made over anything but an earlier answer.
   */
  async settle(key: string, outcome: Settlement, at: number): Promise<void> {
    await this.transition(
      key,
      outcome,
      at,
      outcome.state === 'done' ? ['pending', 'failed', 'reconcile', 'abandoned'] : ['pending'],
    );
  }

  /**
   * A supervisor's word on an operation marked for reconciliation (only such an operation changes): false when it was no
   * longer waiting for one (another supervisor's word came first).
   */
  async resolve(
    key: string,
    outcome: { state: 'done'; resultId: string; httpStatus: number } | { state: 'abandoned'; errorCode: string },
    at: number,
  ): Promise<boolean> {
    return (await this.transition(key, outcome, at, ['reconcile'])) > 0;
  }

  /** Writes the outcome over an operation in one of the `from` states: how many it changed (0 or 1). */
  private async transition(
    key: string,
    outcome: Settlement,
    at: number,
    from: readonly OperationState[],
  ): Promise<number> {
    const update = this.db
      .updateTable('operations')
      .set({
        state: outcome.state,
        result_id: outcome.state === 'done' ? outcome.resultId : null,
        error_code: outcome.state === 'done' ? null : outcome.errorCode,
        http_status: outcome.httpStatus ?? null,
        completed_at: at,
      })
      .where('key', '=', key)
      .where('state', 'in', from)
      .returning(['operation_id', 'reservation_key', 'payment_id']);
    // On the center its NOTIFY is in the update's own statement: sent for the operation it answered, none when it answered nothing.
    let changed: number;
    if (this.store.backend === 'postgres') {
      const change = {
        kind: 'operation',
        deskId: this.deskId,
        operationId: sql.ref('w.operation_id'),
        reservationKey: sql.ref('w.reservation_key'),
        paymentId: sql.ref('w.payment_id'),
      } as const;
      changed = (
        await this.db
          .with('w', () => update)
          .selectFrom('w')
          .select(notificationIn(change).as('notified'))
          .execute()
      ).length;
    } else {
      changed = (await update.execute()).length;
    }
    this.changed();
    return changed;
  }

  /** This desk's unanswered operations, oldest first: each desk recovers only its own at start-up. */
  async pendingOperations(): Promise<Operation[]> {
    const rows = await this.db
      .selectFrom('operations')
      .selectAll()
      .where('state', '=', 'pending')
      .where('desk_id', '=', this.deskId)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => toOperation(row, this.deskId));
  }

  /** A payment's refund operations still unanswered, on any desk (the index allows one). */
  async pendingRefundsOf(paymentId: string): Promise<Operation[]> {
    const rows = await this.db
      .selectFrom('operations')
      .selectAll()
      .where('kind', '=', 'refund')
      .where('state', '=', 'pending')
      .where('payment_id', '=', paymentId)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => toOperation(row, this.deskId));
  }

  /**
   * A reservation's payment operations in these states, on every desk, oldest first. Its number is compared by its key
   * (reservationKey), as the lookup finds it: one reservation, one payment at a time.
   */
  async paymentOperationsOf(reservationId: string, states: readonly OperationState[]): Promise<Operation[]> {
    if (states.length === 0) return [];
    const rows = await this.db
      .selectFrom('operations')
      .selectAll()
      .where('kind', '=', 'create_payment')
      .where('reservation_key', '=', reservationKey(reservationId))
      .where('state', 'in', states)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => toOperation(row, this.deskId));
  }

  /** Operations in a state, on every desk, oldest first. */
  async operationsInState(state: OperationState): Promise<Operation[]> {
    const rows = await this.db
      .selectFrom('operations')
      .selectAll()
      .where('state', '=', state)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => toOperation(row, this.deskId));
  }

  /**
   * Refund operations begun in [from, to) (epoch ms, each desk's clock), in every state and on every desk of the
   * center: the daily refund cap counts an operator's refunds wherever they were made. With `operatorId`, only theirs
   * (compared without case): what one approval reads stays one operator's day, however many desks the center has.
   * `{ turn: true }` (in a transaction) first waits for that operator's turn at every desk (refundTurn).
   */
  async refundOperationsBegunBetween(
    from: number,
    to: number,
    operatorId?: string,
    options: { turn?: boolean } = {},
  ): Promise<Operation[]> {
    if (options.turn === true && operatorId !== undefined) await this.refundTurn(operatorId);
    let query = this.db
      .selectFrom('operations')
      .selectAll()
      .where('kind', '=', 'refund')
      .where('created_at', '>=', from)
      .where('created_at', '<', to);
    if (operatorId !== undefined)
      query = query.where((eb) => eb(eb.fn('lower', ['operator_id']), '=', operatorId.toLowerCase()));
    const rows = await query.orderBy('created_at').execute();
    return rows.map((row) => toOperation(row, this.deskId));
  }

  /**
   * In a transaction: waits until no other desk's transaction holding this operator's turn is open, and holds it until this
   * one ends. A read of the operator's refunds after it sees every refund another desk began for them and committed
   * (read committed reads each statement afresh); two desks refunding for one operator take turns, other operators never
   * wait. The embedded file needs none: its write transactions take turns already.
   */
  private async refundTurn(operatorId: string): Promise<void> {
    if (this.store.backend !== 'postgres') return;
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`refund-cap:${operatorId.toLowerCase()}`}, 0))`.execute(
      this.db,
    );
  }

  // ---- what recover() completed ----

  /** Writes the notice of an operation recover() completed (once: the operation's id is its id). */
  async addRecovered(notice: Omit<RecoveredNotice, 'deskId'>): Promise<void> {
    await this.db
      .insertInto('recovered')
      .values({
        operation_id: notice.id,
        kind: notice.kind,
        operator_id: notice.operatorId.toLowerCase(),
        reservation_id: notice.reservationId,
        reservation_key: reservationKey(notice.reservationId),
        payment_id: notice.paymentId,
        refund_id: notice.refundId ?? null,
        amount_cents: notice.amountCents ?? null,
        currency: notice.currency,
        status: notice.status,
        taken_at: notice.takenAt,
        completed_at: notice.completedAt,
        desk_id: this.deskId,
      })
      .onConflict((oc) => oc.column('operation_id').doNothing())
      .execute();
    this.changed();
  }

  /** The notices not yet acknowledged, on every desk: an operator's (compared without case), or a reservation's; oldest first. */
  async recoveredNotices(of: { operatorId: string } | { reservationId: string }): Promise<RecoveredNotice[]> {
    let query = this.db.selectFrom('recovered').selectAll().where('acknowledged_at', 'is', null);
    query =
      'operatorId' in of
        ? query.where('operator_id', '=', of.operatorId.toLowerCase())
        : query.where('reservation_key', '=', reservationKey(of.reservationId));
    return (await query.orderBy('completed_at').orderBy('operation_id').execute()).map(toRecovered);
  }

  /** The operator has seen these notices of theirs: they are not told again. Answers how many it acknowledged. */
  async acknowledgeRecovered(ids: readonly string[], operatorId: string, at: number): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db
      .updateTable('recovered')
      .set({ acknowledged_at: at, acknowledged_by: operatorId.toLowerCase() })
      .where('operation_id', 'in', [...ids])
      .where('operator_id', '=', operatorId.toLowerCase())
      .where('acknowledged_at', 'is', null)
      .executeTakeFirst();
    this.changed();
    return Number(result.numUpdatedRows);
  }

  async recordAttempt(attempt: Attempt, at: number): Promise<void> {
    await this.db
      .insertInto('attempts')
      .values({
        idempotency_key: attempt.idempotencyKey ?? null,
        operation: attempt.operation,
        attempt: attempt.attempt,
        request_id: attempt.requestId,
        status: String(attempt.status),
        elapsed_ms: attempt.elapsedMs,
        at,
        desk_id: this.deskId,
      })
      .execute();
  }

  // ---- leases: one change of a payment at a time, on every desk ----

  /**
   * Takes the payment's lease for this desk and operator until `ttlMs` from now by the database's clock, in one
   * statement: written when nobody holds it or the holder's lease has expired. Answers its token, or who holds it.
   */
  async takeLease(
    paymentId: string,
    operatorId: string,
    ttlMs: number,
  ): Promise<{ token: string } | { heldBy: LeaseHolder }> {
    const now = databaseNowMs(this.store.backend);
    for (;;) {
      const token = randomUUID();
      const taken = await this.db
        .insertInto('payment_leases')
        .values({
          payment_id: paymentId,
          desk_id: this.deskId,
          operator_id: operatorId,
          token,
          expires_at: sql<number>`${now} + ${ttlMs}`,
        })
        .onConflict((oc) =>
          oc
            .column('payment_id')
            .doUpdateSet((eb) => ({
              desk_id: eb.ref('excluded.desk_id'),
              operator_id: eb.ref('excluded.operator_id'),
              token: eb.ref('excluded.token'),
              expires_at: eb.ref('excluded.expires_at'),
            }))
            .where('payment_leases.expires_at', '<=', now),
        )
        .returning('token')
        .executeTakeFirst();
      if (taken !== undefined) return { token };
      const holder = await this.db
        .selectFrom('payment_leases')
        .select(['desk_id', 'operator_id'])
        .where('payment_id', '=', paymentId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      // Released or expired between the two statements: taken again.
      if (holder !== undefined) return { heldBy: { deskId: holder.desk_id, operatorId: holder.operator_id } };
    }
  }

  /** Releases the lease this token took (nothing when it expired and another desk took it since). */
  async releaseLease(paymentId: string, token: string): Promise<void> {
    await this.db
      .updateTable('payment_leases')
      .set({ expires_at: 0 })
      .where('payment_id', '=', paymentId)
      .where('token', '=', token)
      .execute();
  }

  // ---- resources, as last known ----

  async saveMethod(method: MethodResource, reservationId: string): Promise<void> {
    await this.db
      .insertInto('methods')
      .values({
        id: method.id,
        reservation_id: reservationId,
        reservation_key: reservationKey(reservationId),
        brand: method.card.brand,
        last4: method.card.last4.slice(-4),
        exp_month: method.card.expMonth,
        exp_year: method.card.expYear,
        expires_at: method.expiresAt ?? null,
        created_at: method.createdAt,
        desk_id: this.deskId,
      })
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') })))
      .execute();
  }

  /**
   * The guest agreed to keep this card of the reservation for later charges: who recorded it and when. The first
   * consent stands (a second one changes nothing). False when the reservation has no such card.
   */
  async keepMethod(methodId: string, reservationId: string, by: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('methods')
      .set((eb) => ({ kept_by: eb.fn.coalesce('kept_by', eb.val(by)), kept_at: eb.fn.coalesce('kept_at', eb.val(at)) }))
      .where('id', '=', methodId)
      .where('reservation_key', '=', reservationKey(reservationId))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The agent abandoned this payment in progress, at this desk; the first record stands. */
  async abandonPayment(paymentId: string, by: string, at: string): Promise<void> {
    await this.announced(async (journal) => {
      const rows = await journal.db
        .updateTable('payments')
        .set((eb) => ({
          abandoned_by: eb.fn.coalesce('abandoned_by', eb.val(by)),
          abandoned_at: eb.fn.coalesce('abandoned_at', eb.val(at)),
          abandoned_desk_id: eb.fn.coalesce('abandoned_desk_id', eb.val(this.deskId)),
        }))
        .where('id', '=', paymentId)
        .returning('reservation_id')
        .execute();
      return {
        value: undefined,
        changes: rows.map(
          (row): Change => ({
            kind: 'payment',
            deskId: this.deskId,
            paymentId,
            reservationKey: reservationKey(row.reservation_id),
          }),
        ),
      };
    });
    this.changed();
  }

  /**
   * Saves a payment and its refunds as the service last described them (its desk and agent: the first to write them). A
   * row is written only where it says something new, and the other desks are told only then: a poll that finds the
   * payment as it was writes nothing and wakes no one.
   */
  async savePayment(
    p: PaymentResource,
    by?: { operatorId?: string; refundOperator?: { refundId: string; operatorId: string } },
  ): Promise<void> {
    const change: Change = {
      kind: 'payment',
      deskId: this.deskId,
      paymentId: p.id,
      reservationKey: reservationKey(p.reservationId),
    };
    if (this.store.backend === 'postgres' && p.refunds.length === 0) {
      // The payment alone (most saves): one statement, its NOTIFY inside it, sent only when it wrote.
      await this.db
        .with('w', () => this.paymentWrite(p, by?.operatorId))
        .selectFrom('w')
        .select(notificationIn(change).as('notified'))
        .execute();
      this.changed();
      return;
    }
    await this.announced((journal) =>
      journal.transaction(async (journal) => {
        const written = await journal.paymentWrite(p, by?.operatorId).executeTakeFirst();
        let refundWritten = false;
        for (const r of p.refunds) {
          if (
            await journal.writeRefund(
              r,
              p,
              by?.refundOperator?.refundId === r.id ? by.refundOperator.operatorId : undefined,
            )
          )
            refundWritten = true;
        }
        return { value: undefined, changes: written !== undefined || refundWritten ? [change] : [] };
      }),
    );
    this.changed();
  }

  /** The payment's upsert (its desk and agent: the first to write them), returning its id only when it wrote. */
  private paymentWrite(p: PaymentResource, operatorId: string | undefined) {
    return this.db
      .insertInto('payments')
      .values({
        id: p.id,
        reservation_id: p.reservationId,
        reservation_key: reservationKey(p.reservationId),
        operator_id: operatorId ?? null,
        method_id: p.methodId,
        status: p.status,
        amount_cents: cents(p.amount),
        original_amount_cents: p.originalAmount === undefined ? null : cents(p.originalAmount),
        currency: p.currency,
        available_installments: JSON.stringify(p.availableInstallments ?? []),
        installments_count: p.installments?.count ?? null,
        per_installment_cents: p.installments ? cents(p.installments.perInstallment) : null,
        next_action_url: p.nextAction?.url ?? null,
        failure_code: p.failure?.code ?? null,
        failure_message: p.failure?.message ?? null,
        metadata: JSON.stringify(p.metadata),
        created_at: p.createdAt,
        updated_at: p.updatedAt ?? null,
        expires_at: p.expiresAt ?? null,
        desk_id: this.deskId,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          // The same list sets and compares: a column set again but not compared would not be written when it alone changed.
          .doUpdateSet((eb) => ({
            ...(Object.fromEntries(
              PAYMENT_SERVICE_COLUMNS.map((column) => [column, sql.ref(`excluded.${column}`)]),
            ) as Record<(typeof PAYMENT_SERVICE_COLUMNS)[number], RawBuilder<never>>),
            operator_id: eb.fn.coalesce(sql.ref<string | null>('payments.operator_id'), eb.ref('excluded.operator_id')),
          }))
          .where((eb) =>
            eb.and([
              eb.or([
                ...PAYMENT_SERVICE_COLUMNS.map((column) =>
                  eb(sql.ref(`payments.${column}`), 'is distinct from', sql.ref(`excluded.${column}`)),
                ),
                eb.and([eb('payments.operator_id', 'is', null), eb('excluded.operator_id', 'is not', null)]),
              ]),
              // A final status is never taken back: a word in progress that arrives after it (another desk's read, made
              // before the payment ended and answered late) is stale, and the whole of it with it.
              eb.not(staleStatus('payments', FINAL_PAYMENT_STATUSES, IN_PROGRESS_PAYMENT_STATUSES)),
            ]),
          ),
      )
      .returning('id');
  }

  /** A refund as the service described it; `payment.reservationId`, when known, tells the other desks whose it is (only when it said something new). */
  async saveRefund(
    r: RefundResource,
    payment: Pick<PaymentResource, 'id' | 'currency'> & { reservationId?: string },
    operatorId?: string,
  ): Promise<void> {
    const write = this.refundWrite(r, payment, operatorId);
    if (this.store.backend === 'postgres') {
      // Its NOTIFY in the write's own statement: sent only for a row written.
      const change = {
        kind: 'payment',
        deskId: this.deskId,
        paymentId: r.paymentId ?? payment.id,
        ...(payment.reservationId === undefined ? {} : { reservationKey: reservationKey(payment.reservationId) }),
      } as const;
      await this.db
        .with('w', () => write)
        .selectFrom('w')
        .select(notificationIn(change).as('notified'))
        .execute();
    } else {
      await write.execute();
    }
    this.changed();
  }

  /** Writes the refund where it says something new (its status, or who made it or its amount learnt later): answers whether it did. */
  private async writeRefund(
    r: RefundResource,
    payment: Pick<PaymentResource, 'id' | 'currency'>,
    operatorId?: string,
  ): Promise<boolean> {
    return (await this.refundWrite(r, payment, operatorId).executeTakeFirst()) !== undefined;
  }

  /** The refund's upsert, returning its id only when it wrote (the row is new, or says something new). */
  private refundWrite(r: RefundResource, payment: Pick<PaymentResource, 'id' | 'currency'>, operatorId?: string) {
    return this.db
      .insertInto('refunds')
      .values({
        id: r.id,
        payment_id: r.paymentId ?? payment.id,
        amount_cents: r.amount === undefined ? null : cents(r.amount),
        currency: r.currency || payment.currency,
        reason: r.reason ?? null,
        status: r.status,
        operator_id: operatorId ?? null,
        created_at: r.createdAt ?? null,
        desk_id: this.deskId,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({
            status: eb
              .case()
              .when(staleStatus('refunds', FINAL_REFUND_STATUSES, IN_PROGRESS_REFUND_STATUSES))
              .then(eb.ref('refunds.status'))
              .else(eb.ref('excluded.status'))
              .end(),
            operator_id: eb.fn.coalesce(sql.ref<string | null>('refunds.operator_id'), eb.ref('excluded.operator_id')),
            amount_cents: eb.fn.coalesce(
              sql.ref<number | null>('refunds.amount_cents'),
              eb.ref('excluded.amount_cents'),
            ),
          }))
          .where((eb) =>
            eb.or([
              eb.and([
                eb('refunds.status', 'is distinct from', eb.ref('excluded.status')),
                eb.not(staleStatus('refunds', FINAL_REFUND_STATUSES, IN_PROGRESS_REFUND_STATUSES)),
              ]),
              eb.and([eb('refunds.operator_id', 'is', null), eb('excluded.operator_id', 'is not', null)]),
              eb.and([eb('refunds.amount_cents', 'is', null), eb('excluded.amount_cents', 'is not', null)]),
            ]),
          ),
      )
      .returning('id');
  }

  async payment(id: string): Promise<StoredPayment | undefined> {
    const row = await this.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
    return row && (await this.toPayment(row));
  }

  /** The payments of these ids the journal holds (any order), with their refunds: two statements however many. */
  async payments(ids: readonly string[]): Promise<StoredPayment[]> {
    if (ids.length === 0) return [];
    return this.toPayments(
      await this.db
        .selectFrom('payments')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute(),
    );
  }

  /** A reservation's payments on every desk, its number compared by its key (as paymentOperationsOf and searchPayments). */
  async paymentsOf(reservationId: string): Promise<StoredPayment[]> {
    const rows = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('reservation_key', '=', reservationKey(reservationId))
      .orderBy('created_at')
      .execute();
    return this.toPayments(rows);
  }

  /** The cards tokenized for a reservation, on every desk. */
  async methodsOf(reservationId: string): Promise<StoredMethod[]> {
    const rows = await this.db
      .selectFrom('methods')
      .selectAll()
      .where('reservation_key', '=', reservationKey(reservationId))
      .orderBy('created_at')
      .execute();
    return rows.map(toMethod);
  }

  /** A card tokenized at a desk of the center, by its method id. */
  async method(id: string): Promise<StoredMethod | undefined> {
    const row = await this.db.selectFrom('methods').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toMethod(row);
  }

  /** The payments made with a card, oldest first. */
  async paymentsOfMethod(methodId: string): Promise<StoredPayment[]> {
    const rows = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('method_id', '=', methodId)
      .orderBy('created_at')
      .execute();
    return this.toPayments(rows);
  }

  /**
   * The payments a supervisor looks for, on every desk, newest first: every given filter must hold. Payment ids match
   * by prefix, reservations by their key, created dates as ISO instants [from, to).
   */
  async searchPayments(
    filter: PaymentFilter,
  ): Promise<(StoredPayment & { brand: string | undefined; last4: string | undefined })[]> {
    if (filter.reservationIds?.length === 0) return [];
    let query = this.db
      .selectFrom('payments as p')
      .leftJoin('methods as m', 'm.id', 'p.method_id')
      .selectAll('p')
      .select(['m.brand as card_brand', 'm.last4 as card_last4']);
    if (filter.reservationIds)
      query = query.where('p.reservation_key', 'in', [...new Set(filter.reservationIds.map(reservationKey))]);
    if (filter.paymentId !== undefined) {
      const pattern = `${filter.paymentId.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(sql<boolean>`p.id LIKE ${pattern} ESCAPE ${'\\'}`);
    }
    if (filter.shortReference !== undefined)
      query = query.where(SHORT_REFERENCE_SQL[this.store.backend]('p.id'), '=', filter.shortReference.toLowerCase());
    if (filter.last4 !== undefined) query = query.where('m.last4', '=', filter.last4);
    if (filter.operatorId !== undefined)
      query = query.where((eb) => eb(eb.fn('lower', ['p.operator_id']), '=', filter.operatorId?.toLowerCase() ?? ''));
    if (filter.createdFrom !== undefined) query = query.where('p.created_at', '>=', filter.createdFrom);
    if (filter.createdTo !== undefined) query = query.where('p.created_at', '<', filter.createdTo);
    const rows = await query.orderBy('p.created_at', 'desc').limit(filter.limit).execute();
    const payments = await this.toPayments(rows);
    return payments.map((payment, index) => ({
      ...payment,
      brand: opt(rows[index]?.card_brand ?? null),
      last4: opt(rows[index]?.card_last4 ?? null),
    }));
  }

  /** Payments created in [from, to) (ISO instants) on every desk of the center, for the day's report. */
  async paymentsCreatedBetween(from: string, to: string): Promise<StoredPayment[]> {
    const rows = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('created_at')
      .execute();
    return this.toPayments(rows);
  }

  /** Refunds created in [from, to) (ISO instants) on every desk of the center, for the day's report. */
  async refundsCreatedBetween(from: string, to: string): Promise<StoredRefund[]> {
    const rows = await this.db
      .selectFrom('refunds')
      .selectAll()
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('created_at')
      .execute();
    return rows.map(toRefund);
  }

  /**
   * This desk's payments whose status may still change, or with a refund not yet final (shared vocabulary: an unknown
   * status is not final): the desk follows them, and no update restarts it meanwhile.
   */
  async unsettledPaymentIds(): Promise<string[]> {
    const open = await this.db
      .selectFrom('payments')
      .select('id')
      .where('desk_id', '=', this.deskId)
      .where('status', 'not in', [...FINAL_PAYMENT_STATUSES])
      .execute();
    const refunding = await this.db
      .selectFrom('refunds')
      .innerJoin('payments', 'payments.id', 'refunds.payment_id')
      .select('refunds.payment_id as id')
      .where('payments.desk_id', '=', this.deskId)
      .where('refunds.status', 'not in', [...FINAL_REFUND_STATUSES])
      .execute();
    return [...new Set([...open, ...refunding].map((row) => row.id))];
  }

  /**
   * Whether this desk has an unanswered operation or an unsettled payment (unsettledPaymentIds), in one statement: what the
   * engine reads back after its writes, for the update guard.
   */
  async hasUnfinished(): Promise<boolean> {
    const row = await this.db
      .selectNoFrom((eb) =>
        eb
          .or([
            eb.exists(
              eb
                .selectFrom('operations')
                .select('key')
                .where('state', '=', 'pending')
                .where('desk_id', '=', this.deskId),
            ),
            eb.exists(
              eb
                .selectFrom('payments')
                .select('id')
                .where('desk_id', '=', this.deskId)
                .where('status', 'not in', [...FINAL_PAYMENT_STATUSES]),
            ),
            eb.exists(
              eb
                .selectFrom('refunds')
                .innerJoin('payments', 'payments.id', 'refunds.payment_id')
                .select('refunds.id')
                .where('payments.desk_id', '=', this.deskId)
                .where('refunds.status', 'not in', [...FINAL_REFUND_STATUSES]),
            ),
          ])
          .as('unfinished'),
      )
      .executeTakeFirstOrThrow();
    // PostgreSQL answers a boolean, SQLite 0 or 1.
    return Boolean(row.unfinished);
  }

  private async toPayments(rows: readonly PaymentRecord[]): Promise<StoredPayment[]> {
    if (rows.length === 0) return [];
    const refunds = await this.db
      .selectFrom('refunds')
      .selectAll()
      .where('payment_id', 'in', [...new Set(rows.map((row) => row.id))])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // Brand and last 4 only: what a payment's view may show of its card.
    const cards = new Map(
      (
        await this.db
          .selectFrom('methods')
          .select(['id', 'brand', 'last4'])
          .where('id', 'in', [...new Set(rows.map((row) => row.method_id))])
          .execute()
      ).map((m) => [m.id, m]),
    );
    return rows.map((row) =>
      toPayment(
        row,
        refunds.filter((r) => r.payment_id === row.id).map(toRefund),
        this.deskId,
        cards.get(row.method_id),
      ),
    );
  }

  private async toPayment(row: PaymentRecord): Promise<StoredPayment> {
    const [payment] = await this.toPayments([row]);
    if (payment === undefined) throw new Error('journal: payment not read');
    return payment;
  }
}

function toPayment(
  row: PaymentRecord,
  refunds: StoredRefund[],
  deskId: string,
  card: { brand: string; last4: string } | undefined,
): StoredPayment {
  return {
    id: row.id,
    reservationId: row.reservation_id,
    operatorId: opt(row.operator_id),
    methodId: row.method_id,
    status: row.status,
    amountCents: Number(row.amount_cents),
    originalAmountCents: row.original_amount_cents === null ? undefined : Number(row.original_amount_cents),
    currency: row.currency,
    availableInstallments: JSON.parse(row.available_installments) as number[],
    installments:
      row.installments_count === null || row.per_installment_cents === null
        ? undefined
        : { count: row.installments_count, perInstallmentCents: Number(row.per_installment_cents) },
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
    deskId: row.desk_id ?? deskId,
    abandonedDeskId: opt(row.abandoned_desk_id) ?? (row.abandoned_at === null ? undefined : (row.desk_id ?? deskId)),
    brand: card?.brand,
    last4: card?.last4,
  };
}

function toRefund(r: RefundRecord): StoredRefund {
  return {
    id: r.id,
    paymentId: r.payment_id,
    amountCents: r.amount_cents === null ? undefined : Number(r.amount_cents),
    currency: r.currency,
    reason: opt(r.reason),
    status: r.status,
    operatorId: opt(r.operator_id),
    createdAt: opt(r.created_at),
    deskId: opt(r.desk_id),
  };
}

function toOperation(row: OperationRecord, deskId: string): Operation {
  return {
    key: row.key,
    operationId: row.operation_id,
    kind: row.kind,
    fingerprint: row.fingerprint,
    payload: JSON.parse(row.payload) as unknown,
    resendable: Number(row.resendable) === 1,
    state: row.state,
    reservationId: row.reservation_id,
    operatorId: row.operator_id,
    paymentId: opt(row.payment_id),
    resultId: opt(row.result_id),
    errorCode: opt(row.error_code),
    createdAt: Number(row.created_at),
    serviceCreatedAt: row.service_created_at === null ? undefined : Number(row.service_created_at),
    deskId: row.desk_id ?? deskId,
  };
}

const toRecovered = (r: RecoveredRecord): RecoveredNotice => ({
  id: r.operation_id,
  kind: r.kind,
  operatorId: r.operator_id,
  reservationId: r.reservation_id,
  paymentId: r.payment_id,
  refundId: opt(r.refund_id),
  amountCents: r.amount_cents === null ? undefined : Number(r.amount_cents),
  currency: r.currency,
  status: r.status,
  takenAt: Number(r.taken_at),
  completedAt: Number(r.completed_at),
  deskId: r.desk_id,
});

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
