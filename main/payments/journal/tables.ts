/** The journal's tables as the database holds them (snake case, one interface per table) and their rows as read. */
import type { Generated, Kysely, Selectable, Transaction } from 'kysely';
import type { OperationKind, OperationState } from './types';

export interface OperationsTable {
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

export interface AttemptsTable {
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

export interface MethodsTable {
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

export interface PaymentsTable {
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
export interface PaymentLeasesTable {
  payment_id: string;
  desk_id: string;
  operator_id: string;
  token: string;
  expires_at: number;
}

export interface RefundsTable {
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
export interface RecoveredTable {
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

export type OperationRecord = Selectable<OperationsTable>;
export type RecoveredRecord = Selectable<RecoveredTable>;
export type PaymentRecord = Selectable<PaymentsTable>;
export type RefundRecord = Selectable<RefundsTable>;
export type MethodRecord = Selectable<MethodsTable>;

/** Where a repository reads and writes: the store's database, or the transaction it runs in. */
export type JournalExecutor = Kysely<JournalDB> | Transaction<JournalDB>;
