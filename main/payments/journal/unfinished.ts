/** What this desk still follows: its unanswered operations, its payments and refunds not yet final. */
import { FINAL_PAYMENT_STATUSES, FINAL_REFUND_STATUSES } from '../../../shared/payments';
import { run, type JournalContext } from './context';
import { Statement, type Preparable } from './statement';

const OPEN_PAYMENTS = new Statement((db, v: { deskId: string }) =>
  db
    .selectFrom('payments')
    .select('id')
    .where('desk_id', '=', v.deskId)
    .where('status', 'not in', [...FINAL_PAYMENT_STATUSES]),
);

const REFUNDING_PAYMENTS = new Statement((db, v: { deskId: string }) =>
  db
    .selectFrom('refunds')
    .innerJoin('payments', 'payments.id', 'refunds.payment_id')
    .select('refunds.payment_id as id')
    .where('payments.desk_id', '=', v.deskId)
    .where('refunds.status', 'not in', [...FINAL_REFUND_STATUSES]),
);

const UNFINISHED = new Statement((db, v: { deskId: string }) =>
  db.selectNoFrom((eb) =>
    eb
      .or([
        eb.exists(
          eb.selectFrom('operations').select('key').where('state', '=', 'pending').where('desk_id', '=', v.deskId),
        ),
        eb.exists(
          eb
            .selectFrom('payments')
            .select('id')
            .where('desk_id', '=', v.deskId)
            .where('status', 'not in', [...FINAL_PAYMENT_STATUSES]),
        ),
        eb.exists(
          eb
            .selectFrom('refunds')
            .innerJoin('payments', 'payments.id', 'refunds.payment_id')
            .select('refunds.id')
            .where('payments.desk_id', '=', v.deskId)
            .where('refunds.status', 'not in', [...FINAL_REFUND_STATUSES]),
        ),
      ])
      .as('unfinished'),
  ),
);

export const UNFINISHED_STATEMENTS: readonly Preparable[] = [OPEN_PAYMENTS, REFUNDING_PAYMENTS, UNFINISHED];

export class UnfinishedRepository {
  constructor(private readonly context: JournalContext) {}

  /**
   * This desk's payments whose status may still change, or with a refund not yet final (shared vocabulary: an unknown
   * status is not final): the desk follows them, and no update restarts it meanwhile.
   */
  async unsettledPaymentIds(): Promise<string[]> {
    const desk = { deskId: this.context.deskId };
    const open = (await run(this.context, OPEN_PAYMENTS, desk)).rows;
    const refunding = (await run(this.context, REFUNDING_PAYMENTS, desk)).rows;
    return [...new Set([...open, ...refunding].map((row) => row.id))];
  }

  /**
   * Whether this desk has an unanswered operation or an unsettled payment (unsettledPaymentIds), in one statement: what the
   * engine reads back after its writes, for the update guard.
   */
  async hasUnfinished(): Promise<boolean> {
    const [row] = (await run(this.context, UNFINISHED, { deskId: this.context.deskId })).rows;
    if (row === undefined) throw new Error('journal: no answer to whether anything is unfinished');
    // PostgreSQL answers a boolean, SQLite 0 or 1.
    return Boolean(row.unfinished);
  }
}
