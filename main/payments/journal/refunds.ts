/** The refunds repository: each payment's refunds as the service last described them. */
import type { Kysely } from 'kysely';
import { FINAL_REFUND_STATUSES, IN_PROGRESS_REFUND_STATUSES } from '../../../shared/payments';
import type { PaymentResource, RefundResource } from '../resources';
import { run, upsertAnnounced, type JournalContext } from './context';
import { keptValue, valueLearnt } from './first-known';
import { reservationKey } from './reservation-key';
import { cents, toRefund } from './rows';
import { staleStatus } from './stale-status';
import { Statement, type Preparable } from './statement';
import type { JournalDB, RefundRecord, RefundsTable } from './tables';
import type { StoredRefund } from './types';

/** The refund's upsert, returning its id only when it wrote (the row is new, or says something new). */
function refundUpsert(db: Kysely<JournalDB>, v: RefundsTable) {
  return db
    .insertInto('refunds')
    .values({
      id: v.id,
      payment_id: v.payment_id,
      amount_cents: v.amount_cents,
      currency: v.currency,
      reason: v.reason,
      status: v.status,
      operator_id: v.operator_id,
      created_at: v.created_at,
      desk_id: v.desk_id,
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
          operator_id: keptValue<string | null>('refunds', 'operator_id'),
          amount_cents: keptValue<number | null>('refunds', 'amount_cents'),
        }))
        .where((eb) =>
          eb.or([
            eb.and([
              eb('refunds.status', 'is distinct from', eb.ref('excluded.status')),
              eb.not(staleStatus('refunds', FINAL_REFUND_STATUSES, IN_PROGRESS_REFUND_STATUSES)),
            ]),
            valueLearnt('refunds', 'operator_id'),
            valueLearnt('refunds', 'amount_cents'),
          ]),
        ),
    )
    .returning('id');
}

const UPSERT = new Statement(refundUpsert);

const OF_PAYMENT = new Statement((db, v: { paymentId: string }) =>
  db.selectFrom('refunds').selectAll().where('payment_id', '=', v.paymentId).orderBy('created_at').orderBy('id'),
);

export const REFUND_STATEMENTS: readonly Preparable[] = [UPSERT, OF_PAYMENT];

export class RefundsRepository {
  constructor(private readonly context: JournalContext) {}

  /** The row a refund is written as (its operator, when given: the first to write one stands). */
  private row(
    r: RefundResource,
    payment: Pick<PaymentResource, 'id' | 'currency'>,
    operatorId: string | undefined,
  ): RefundsTable {
    return {
      id: r.id,
      payment_id: r.paymentId ?? payment.id,
      amount_cents: r.amount === undefined ? null : cents(r.amount),
      currency: r.currency || payment.currency,
      reason: r.reason ?? null,
      status: r.status,
      operator_id: operatorId ?? null,
      created_at: r.createdAt ?? null,
      desk_id: this.context.deskId,
    };
  }

  /** A refund as the service described it; `payment.reservationId`, when known, tells the other desks whose it is (only when it said something new). */
  async saveRefund(
    r: RefundResource,
    payment: Pick<PaymentResource, 'id' | 'currency'> & { reservationId?: string },
    operatorId?: string,
  ): Promise<void> {
    const { context } = this;
    const row = this.row(r, payment, operatorId);
    await upsertAnnounced(context, refundUpsert, UPSERT, row, {
      kind: 'payment',
      deskId: context.deskId,
      paymentId: r.paymentId ?? payment.id,
      ...(payment.reservationId === undefined ? {} : { reservationKey: reservationKey(payment.reservationId) }),
    });
    context.changed();
  }

  /** Writes the refund where it says something new (its status, or who made it or its amount learnt later): answers whether it did. */
  async writeRefund(
    r: RefundResource,
    payment: Pick<PaymentResource, 'id' | 'currency'>,
    operatorId?: string,
  ): Promise<boolean> {
    return (await run(this.context, UPSERT, this.row(r, payment, operatorId))).rows.length > 0;
  }

  /** The refunds of these payments, oldest first. */
  async refundsOf(paymentIds: readonly string[]): Promise<RefundRecord[]> {
    const unique = [...new Set(paymentIds)];
    if (unique.length === 0) return [];
    if (unique.length === 1) return (await run(this.context, OF_PAYMENT, { paymentId: unique[0] ?? '' })).rows;
    return this.context.db
      .selectFrom('refunds')
      .selectAll()
      .where('payment_id', 'in', unique)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Refunds created in [from, to) (ISO instants) on every desk of the center, for the day's report. */
  async refundsCreatedBetween(from: string, to: string): Promise<StoredRefund[]> {
    const rows = await this.context.db
      .selectFrom('refunds')
      .selectAll()
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('created_at')
      .execute();
    return rows.map(toRefund);
  }
}
