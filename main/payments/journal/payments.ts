/** The payments repository: each payment as the service last described it, with its refunds and card, and the reads of them. */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { FINAL_PAYMENT_STATUSES, IN_PROGRESS_PAYMENT_STATUSES } from '../../../shared/payments';
import type { Change } from '../../storage';
import type { PaymentResource } from '../resources';
import { announced, run, upsertAnnounced, type JournalContext } from './context';
import { keptValue, valueLearnt } from './first-known';
import { MethodsRepository } from './methods';
import { RefundsRepository } from './refunds';
import { reservationKey } from './reservation-key';
import { cents, opt, toPayment, toRefund } from './rows';
import { SHORT_REFERENCE_SQL } from './schema';
import { staleStatus } from './stale-status';
import { Statement, type Preparable } from './statement';
import type { JournalDB, PaymentRecord, PaymentsTable } from './tables';
import type { PaymentFilter, StoredPayment } from './types';

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

type NewPayment = Omit<PaymentsTable, 'abandoned_by' | 'abandoned_at' | 'abandoned_desk_id'>;

/** The payment's upsert (its desk and agent: the first to write them), returning its id only when it wrote. */
function paymentUpsert(db: Kysely<JournalDB>, v: NewPayment) {
  return db
    .insertInto('payments')
    .values({
      id: v.id,
      reservation_id: v.reservation_id,
      reservation_key: v.reservation_key,
      operator_id: v.operator_id,
      method_id: v.method_id,
      status: v.status,
      amount_cents: v.amount_cents,
      original_amount_cents: v.original_amount_cents,
      currency: v.currency,
      available_installments: v.available_installments,
      installments_count: v.installments_count,
      per_installment_cents: v.per_installment_cents,
      next_action_url: v.next_action_url,
      failure_code: v.failure_code,
      failure_message: v.failure_message,
      metadata: v.metadata,
      created_at: v.created_at,
      updated_at: v.updated_at,
      expires_at: v.expires_at,
      desk_id: v.desk_id,
    })
    .onConflict((oc) =>
      oc
        .column('id')
        // The same list sets and compares: a column set again but not compared would not be written when it alone changed.
        .doUpdateSet(() => ({
          ...(Object.fromEntries(
            PAYMENT_SERVICE_COLUMNS.map((column) => [column, sql.ref(`excluded.${column}`)]),
          ) as Record<(typeof PAYMENT_SERVICE_COLUMNS)[number], RawBuilder<never>>),
          operator_id: keptValue<string | null>('payments', 'operator_id'),
        }))
        .where((eb) =>
          eb.and([
            eb.or([
              ...PAYMENT_SERVICE_COLUMNS.map((column) =>
                eb(sql.ref(`payments.${column}`), 'is distinct from', sql.ref(`excluded.${column}`)),
              ),
              valueLearnt('payments', 'operator_id'),
            ]),
            // A final status is never taken back: a word in progress that arrives after it (another desk's read, made
            // before the payment ended and answered late) is stale, and the whole of it with it.
            eb.not(staleStatus('payments', FINAL_PAYMENT_STATUSES, IN_PROGRESS_PAYMENT_STATUSES)),
          ]),
        ),
    )
    .returning('id');
}

const UPSERT = new Statement(paymentUpsert);

const ABANDON = new Statement((db, v: { id: string; by: string; at: string; deskId: string }) =>
  db
    .updateTable('payments')
    .set((eb) => ({
      abandoned_by: eb.fn.coalesce('abandoned_by', eb.val(v.by)),
      abandoned_at: eb.fn.coalesce('abandoned_at', eb.val(v.at)),
      abandoned_desk_id: eb.fn.coalesce('abandoned_desk_id', eb.val(v.deskId)),
    }))
    .where('id', '=', v.id)
    .returning('reservation_id'),
);

const BY_ID = new Statement((db, v: { id: string }) => db.selectFrom('payments').selectAll().where('id', '=', v.id));

const OF_RESERVATION = new Statement((db, v: { reservationKey: string }) =>
  db.selectFrom('payments').selectAll().where('reservation_key', '=', v.reservationKey).orderBy('created_at'),
);

const OF_METHOD = new Statement((db, v: { methodId: string }) =>
  db.selectFrom('payments').selectAll().where('method_id', '=', v.methodId).orderBy('created_at'),
);

export const PAYMENT_STATEMENTS: readonly Preparable[] = [UPSERT, ABANDON, BY_ID, OF_RESERVATION, OF_METHOD];

export class PaymentsRepository {
  private readonly refunds: RefundsRepository;
  private readonly methods: MethodsRepository;

  constructor(private readonly context: JournalContext) {
    this.refunds = new RefundsRepository(context);
    this.methods = new MethodsRepository(context);
  }

  /** The agent abandoned this payment in progress, at this desk; the first record stands. */
  async abandonPayment(paymentId: string, by: string, at: string): Promise<void> {
    const { deskId } = this.context;
    await announced(this.context, async (context) => {
      const { rows } = await run(context, ABANDON, { id: paymentId, by, at, deskId });
      return {
        value: undefined,
        changes: rows.map(
          (row): Change => ({ kind: 'payment', deskId, paymentId, reservationKey: reservationKey(row.reservation_id) }),
        ),
      };
    });
    this.context.changed();
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
    const { context } = this;
    const change: Change = {
      kind: 'payment',
      deskId: context.deskId,
      paymentId: p.id,
      reservationKey: reservationKey(p.reservationId),
    };
    const row = this.row(p, by?.operatorId);
    if (p.refunds.length === 0) {
      // The payment alone (most saves): one statement, atomic by itself; on the center its NOTIFY inside it, sent only
      // when it wrote.
      await upsertAnnounced(context, paymentUpsert, UPSERT, row, change);
      context.changed();
      return;
    }
    await announced(context, (outer) =>
      outer.transaction(async (inner) => {
        const written = (await run(inner, UPSERT, row)).rows.length > 0;
        const refunds = new RefundsRepository(inner);
        let refundWritten = false;
        for (const r of p.refunds) {
          if (
            await refunds.writeRefund(
              r,
              p,
              by?.refundOperator?.refundId === r.id ? by.refundOperator.operatorId : undefined,
            )
          )
            refundWritten = true;
        }
        return { value: undefined, changes: written || refundWritten ? [change] : [] };
      }),
    );
    context.changed();
  }

  /** The row a payment is written as. */
  private row(p: PaymentResource, operatorId: string | undefined): NewPayment {
    return {
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
      desk_id: this.context.deskId,
    };
  }

  async payment(id: string): Promise<StoredPayment | undefined> {
    const [row] = (await run(this.context, BY_ID, { id })).rows;
    if (row === undefined) return undefined;
    const [payment] = await this.toPayments([row]);
    if (payment === undefined) throw new Error('journal: payment not read');
    return payment;
  }

  /** The payments of these ids the journal holds (any order), with their refunds: two statements however many. */
  async payments(ids: readonly string[]): Promise<StoredPayment[]> {
    if (ids.length === 0) return [];
    return this.toPayments(
      await this.context.db
        .selectFrom('payments')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute(),
    );
  }

  /** A reservation's payments on every desk, its number compared by its key (as paymentOperationsOf and searchPayments). */
  async paymentsOf(reservationId: string): Promise<StoredPayment[]> {
    const { rows } = await run(this.context, OF_RESERVATION, { reservationKey: reservationKey(reservationId) });
    return this.toPayments(rows);
  }

  /** The payments made with a card, oldest first. */
  async paymentsOfMethod(methodId: string): Promise<StoredPayment[]> {
    return this.toPayments((await run(this.context, OF_METHOD, { methodId })).rows);
  }

  /**
   * The payments a supervisor looks for, on every desk, newest first: every given filter must hold. Payment ids match
   * by prefix, reservations by their key, created dates as ISO instants [from, to).
   */
  async searchPayments(
    filter: PaymentFilter,
  ): Promise<(StoredPayment & { brand: string | undefined; last4: string | undefined })[]> {
    if (filter.reservationIds?.length === 0) return [];
    let query = this.context.db
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
      query = query.where(
        SHORT_REFERENCE_SQL[this.context.store.backend]('p.id'),
        '=',
        filter.shortReference.toLowerCase(),
      );
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
    const rows = await this.context.db
      .selectFrom('payments')
      .selectAll()
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('created_at')
      .execute();
    return this.toPayments(rows);
  }

  /** The payments with their refunds and their card's brand and last 4. */
  private async toPayments(rows: readonly PaymentRecord[]): Promise<StoredPayment[]> {
    if (rows.length === 0) return [];
    const refunds = await this.refunds.refundsOf(rows.map((row) => row.id));
    // Brand and last 4 only: what a payment's view may show of its card.
    const cards = await this.methods.cards(rows.map((row) => row.method_id));
    return rows.map((row) =>
      toPayment(
        row,
        refunds.filter((r) => r.payment_id === row.id).map(toRefund),
        this.context.deskId,
        cards.get(row.method_id),
      ),
    );
  }
}
