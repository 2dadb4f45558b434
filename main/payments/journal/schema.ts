/** The journal's schema steps both backends' migrations share: the money rules' indexes, leases, notices, short references. */
import { sql, type Kysely } from 'kysely';
import { SHORT_REFERENCE_LENGTH } from '../../../shared/payments';
import { reservationKey } from './reservation-key';
import type { JournalDB } from './tables';

/** The unique indexes that hold the center's money rules (their names, as a violation reports them on each backend). */
export const ONE_UNANSWERED_PAYMENT_INDEX = 'operations_one_unanswered_payment';
export const ONE_REFUND_IN_FLIGHT_INDEX = 'operations_one_refund_in_flight';

/** A money rule: at most one operation of `kind` still unanswered per value of `column`, as the unique index `name`. */
async function onePending(db: Kysely<unknown>, name: string, kind: 'create_payment' | 'refund', column: string) {
  await db.schema
    .createIndex(name)
    .on('operations')
    .column(column)
    .unique()
    .where(sql<boolean>`kind = ${sql.lit(kind)} AND state = 'pending'`)
    .execute();
}

/**
 * The money rules, held by the database on both backends: one create_payment operation still unanswered
 * per reservation (its key), one refund operation still unanswered per payment. Plus the desk's own reads.
 */
export async function createCenterRules(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('operations_desk_state').on('operations').columns(['desk_id', 'state']).execute();
  await db.schema
    .createIndex('operations_reservation_key')
    .on('operations')
    .columns(['reservation_key', 'kind'])
    .execute();
  await onePending(db, ONE_UNANSWERED_PAYMENT_INDEX, 'create_payment', 'reservation_key');
  await onePending(db, ONE_REFUND_IN_FLIGHT_INDEX, 'refund', 'payment_id');
  await db.schema.createIndex('payments_reservation_key').on('payments').column('reservation_key').execute();
  await db.schema.createIndex('payments_desk').on('payments').column('desk_id').execute();
  await db.schema.createIndex('methods_reservation_key').on('methods').column('reservation_key').execute();
}

/** Each reservation's key, for rows written before the key existed; a second unanswered payment of one key keeps none (see below). */
export async function fillReservationKeys(untyped: Kysely<unknown>): Promise<void> {
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
export async function addServiceClock(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('operations').addColumn('service_created_at', 'bigint').execute();
}

/** The payments' leases, and the desk a payment was abandoned at: the same on both backends. */
export async function createPaymentLeases(db: Kysely<unknown>): Promise<void> {
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
export async function createRecovered(db: Kysely<unknown>): Promise<void> {
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
export const SHORT_REFERENCE_SQL = {
  sqlite: (column: string) => sql<string>`lower(substr(${sql.ref(column)}, -${sql.lit(SHORT_REFERENCE_LENGTH)}))`,
  postgres: (column: string) => sql<string>`lower(right(${sql.ref(column)}, ${sql.lit(SHORT_REFERENCE_LENGTH)}))`,
} as const;

/** The index a search by short reference reads (both backends). */
export const indexShortReference = (backend: keyof typeof SHORT_REFERENCE_SQL) => async (db: Kysely<unknown>) => {
  await db.schema
    .createIndex('payments_short_reference')
    .on('payments')
    .expression(SHORT_REFERENCE_SQL[backend]('id'))
    .execute();
};
