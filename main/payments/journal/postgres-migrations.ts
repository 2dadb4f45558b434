/** The journal's migrations on the center's PostgreSQL (its `journal` schema). */
import { sql, type Kysely } from 'kysely';
import { deskHeldTable, deskStampedTable } from '../../storage';
import {
  addServiceClock,
  createCenterRules,
  createPaymentLeases,
  createRecovered,
  indexShortReference,
} from './schema';

/** The journal's tables whose rows name the desk that wrote them. */
const DESK_TABLES = ['operations', 'attempts', 'methods', 'payments', 'refunds', 'recovered'];

export const postgresMigrations = {
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
  // Every desk reads every row; a row is added only with the adding desk's own id, and its desk never changes (a lease's
  // names who holds it now).
  '0006_desk_rows': {
    up: async (db: Kysely<unknown>) => {
      for (const table of DESK_TABLES) await sql.raw(deskStampedTable('journal', table)).execute(db);
      // A lease names the desk that holds it now: taken over once it ran out (by the center's clock), it names the taker.
      await sql
        .raw(
          deskHeldTable(
            'journal',
            'payment_leases',
            'expires_at <= CAST(floor(extract(epoch FROM now()) * 1000) AS BIGINT)',
          ),
        )
        .execute(db);
    },
  },
};
