/** The recovered-notices repository: what recover() completed at a start, told to the operator who began it until acknowledged. */
import { run, type JournalContext } from './context';
import { reservationKey } from './reservation-key';
import { toRecovered } from './rows';
import { Statement, type Preparable } from './statement';
import type { RecoveredTable } from './tables';
import type { RecoveredNotice } from './types';

type NewNotice = Omit<RecoveredTable, 'acknowledged_at' | 'acknowledged_by'>;

const ADD = new Statement((db, v: NewNotice) =>
  db
    .insertInto('recovered')
    .values({
      operation_id: v.operation_id,
      kind: v.kind,
      operator_id: v.operator_id,
      reservation_id: v.reservation_id,
      reservation_key: v.reservation_key,
      payment_id: v.payment_id,
      refund_id: v.refund_id,
      amount_cents: v.amount_cents,
      currency: v.currency,
      status: v.status,
      taken_at: v.taken_at,
      completed_at: v.completed_at,
      desk_id: v.desk_id,
    })
    .onConflict((oc) => oc.column('operation_id').doNothing()),
);

/** The notices not yet acknowledged whose `column` is the value given, oldest first. */
const unacknowledgedOf = (column: 'operator_id' | 'reservation_key') =>
  new Statement((db, v: { value: string }) =>
    db
      .selectFrom('recovered')
      .selectAll()
      .where('acknowledged_at', 'is', null)
      .where(column, '=', v.value)
      .orderBy('completed_at')
      .orderBy('operation_id'),
  );

const OF_OPERATOR = unacknowledgedOf('operator_id');
const OF_RESERVATION = unacknowledgedOf('reservation_key');

export const RECOVERED_STATEMENTS: readonly Preparable[] = [ADD, OF_OPERATOR, OF_RESERVATION];

export class RecoveredRepository {
  constructor(private readonly context: JournalContext) {}

  /** Writes the notice of an operation recover() completed (once: the operation's id is its id). */
  async addRecovered(notice: Omit<RecoveredNotice, 'deskId'>): Promise<void> {
    await run(this.context, ADD, {
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
      desk_id: this.context.deskId,
    });
    this.context.changed();
  }

  /** The notices not yet acknowledged, on every desk: an operator's (compared without case), or a reservation's; oldest first. */
  async recoveredNotices(of: { operatorId: string } | { reservationId: string }): Promise<RecoveredNotice[]> {
    const { rows } =
      'operatorId' in of
        ? await run(this.context, OF_OPERATOR, { value: of.operatorId.toLowerCase() })
        : await run(this.context, OF_RESERVATION, { value: reservationKey(of.reservationId) });
    return rows.map(toRecovered);
  }

  /** The operator has seen these notices of theirs: they are not told again. Answers how many it acknowledged. */
  async acknowledgeRecovered(ids: readonly string[], operatorId: string, at: number): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.context.db
      .updateTable('recovered')
      .set({ acknowledged_at: at, acknowledged_by: operatorId.toLowerCase() })
      .where('operation_id', 'in', [...ids])
      .where('operator_id', '=', operatorId.toLowerCase())
      .where('acknowledged_at', 'is', null)
      .executeTakeFirst();
    this.context.changed();
    return Number(result.numUpdatedRows);
  }
}
