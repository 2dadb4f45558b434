/** The journal's SQLite schema as the SqliteFile era released it, frozen: files of that era are adopted with it. */
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
