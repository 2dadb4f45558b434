/** The operations repository: each keyed operation written before it is sent, its answer, and the reads of them. */
import { sql, type Insertable } from 'kysely';
import { notificationIn } from '../../storage';
import { run, type JournalContext } from './context';
import { fingerprint } from './fingerprint';
import { reservationKey } from './reservation-key';
import { toOperation } from './rows';
import { Statement, type Preparable } from './statement';
import type { OperationRecord, OperationsTable } from './tables';
import type { Operation, OperationState, Settlement } from './types';

type NewOperation = Required<
  Omit<Insertable<OperationsTable>, 'result_id' | 'http_status' | 'error_code' | 'completed_at'>
>;

const INSERT = new Statement((db, v: NewOperation) =>
  db
    .insertInto('operations')
    .values({
      key: v.key,
      operation_id: v.operation_id,
      kind: v.kind,
      fingerprint: v.fingerprint,
      payload: v.payload,
      resendable: v.resendable,
      state: v.state,
      reservation_id: v.reservation_id,
      reservation_key: v.reservation_key,
      operator_id: v.operator_id,
      payment_id: v.payment_id,
      created_at: v.created_at,
      service_created_at: v.service_created_at,
      desk_id: v.desk_id,
    })
    .returningAll(),
);

const BY_ID = new Statement((db, v: { operationId: string }) =>
  db.selectFrom('operations').selectAll().where('operation_id', '=', v.operationId),
);

const BY_KEY = new Statement((db, v: { key: string }) =>
  db.selectFrom('operations').selectAll().where('key', '=', v.key),
);

const PENDING_OF_DESK = new Statement((db, v: { deskId: string }) =>
  db
    .selectFrom('operations')
    .selectAll()
    .where('state', '=', 'pending')
    .where('desk_id', '=', v.deskId)
    .orderBy('created_at'),
);

const PENDING_REFUNDS_OF = new Statement((db, v: { paymentId: string }) =>
  db
    .selectFrom('operations')
    .selectAll()
    .where('kind', '=', 'refund')
    .where('state', '=', 'pending')
    .where('payment_id', '=', v.paymentId)
    .orderBy('created_at'),
);

const IN_STATE = new Statement((db, v: { state: OperationState }) =>
  db.selectFrom('operations').selectAll().where('state', '=', v.state).orderBy('created_at'),
);

interface TransitionValues {
  key: string;
  state: OperationState;
  resultId: string | null;
  errorCode: string | null;
  httpStatus: number | null;
  at: number;
}

/** The states an outcome may be written over: an answer over anything but an earlier answer; the rest over `pending`. */
const FROM = {
  answer: ['pending', 'failed', 'reconcile', 'abandoned'],
  unanswered: ['pending'],
  reconcile: ['reconcile'],
} as const satisfies Record<string, readonly OperationState[]>;

function transitionQuery(from: readonly OperationState[]) {
  return new Statement((db, v: TransitionValues) =>
    db
      .updateTable('operations')
      .set({
        state: v.state,
        result_id: v.resultId,
        error_code: v.errorCode,
        http_status: v.httpStatus,
        completed_at: v.at,
      })
      .where('key', '=', v.key)
      .where('state', 'in', from)
      .returning(['operation_id', 'reservation_key', 'payment_id']),
  );
}

const TRANSITIONS = {
  answer: transitionQuery(FROM.answer),
  unanswered: transitionQuery(FROM.unanswered),
  reconcile: transitionQuery(FROM.reconcile),
};

/** A reservation's payment operations in some states: one statement per list of states asked for. */
const paymentOperationsQueries = new Map<string, Statement<{ reservationKey: string }, OperationRecord>>();

function paymentOperationsQuery(
  states: readonly OperationState[],
): Statement<{ reservationKey: string }, OperationRecord> {
  const name = states.join(',');
  let statement = paymentOperationsQueries.get(name);
  if (statement === undefined) {
    statement = new Statement((db, v: { reservationKey: string }) =>
      db
        .selectFrom('operations')
        .selectAll()
        .where('kind', '=', 'create_payment')
        .where('reservation_key', '=', v.reservationKey)
        .where('state', 'in', [...states])
        .orderBy('created_at'),
    );
    paymentOperationsQueries.set(name, statement);
  }
  return statement;
}

/** What the journal compiles when it opens (a store's first payment then compiles nothing). */
export const OPERATION_STATEMENTS: readonly Preparable[] = [
  INSERT,
  BY_ID,
  BY_KEY,
  PENDING_OF_DESK,
  PENDING_REFUNDS_OF,
  IN_STATE,
  ...Object.values(TRANSITIONS),
  paymentOperationsQuery(['pending']),
  paymentOperationsQuery(['reconcile']),
  paymentOperationsQuery(['pending', 'reconcile']),
];

export class OperationsRepository {
  constructor(private readonly context: JournalContext) {}

  /**
   * Writes an operation before it is sent (committed when this answers). Its key is the Idempotency-Key of every
   * attempt. A UniqueViolationError (journalConflict says which) when its id or key was begun already, when the
   * reservation has a payment still unanswered, or when the payment has a refund still unanswered — on any desk.
   */
  async begin(op: Omit<Operation, 'state' | 'resultId' | 'errorCode' | 'fingerprint' | 'deskId'>): Promise<Operation> {
    const { context } = this;
    const values: NewOperation = {
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
      desk_id: context.deskId,
    };
    // On the center its NOTIFY is in the insert's own statement (sent only if it commits): one round trip, the row back.
    const row =
      context.store.backend === 'postgres'
        ? await context.db
            .with('w', () => context.db.insertInto('operations').values(values).returningAll())
            .selectFrom('w')
            .selectAll('w')
            .select(
              notificationIn({
                kind: 'operation',
                deskId: context.deskId,
                operationId: op.operationId,
                reservationKey: reservationKey(op.reservationId),
                paymentId: op.paymentId,
              }).as('notified'),
            )
            .executeTakeFirst()
        : (await run(context, INSERT, values)).rows[0];
    context.changed();
    if (!row) throw new Error('journal: operation not stored');
    return toOperation(row, context.deskId);
  }

  async operation(operationId: string): Promise<Operation | undefined> {
    const [row] = (await run(this.context, BY_ID, { operationId })).rows;
    return row && toOperation(row, this.context.deskId);
  }

  async operationByKey(key: string): Promise<Operation | undefined> {
    const [row] = (await run(this.context, BY_KEY, { key })).rows;
    return row && toOperation(row, this.context.deskId);
  }

  /**
   * The service answered: the resource it made, or its definitive refusal. An answer, once written, stands: a refusal or
   * a reconciliation is written only over an operation still unanswered (another desk may have read it unanswered just
   * before its answer was written here), and the resource it made over anything but an earlier answer.
   */
  async settle(key: string, outcome: Settlement, at: number): Promise<void> {
    await this.transition(key, outcome, at, outcome.state === 'done' ? 'answer' : 'unanswered');
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
    return (await this.transition(key, outcome, at, 'reconcile')) > 0;
  }

  /** Writes the outcome over an operation in one of the `from` states: how many it changed (0 or 1). */
  private async transition(key: string, outcome: Settlement, at: number, from: keyof typeof FROM): Promise<number> {
    const { context } = this;
    const values: TransitionValues = {
      key,
      state: outcome.state,
      resultId: outcome.state === 'done' ? outcome.resultId : null,
      errorCode: outcome.state === 'done' ? null : outcome.errorCode,
      httpStatus: outcome.httpStatus ?? null,
      at,
    };
    // On the center its NOTIFY is in the update's own statement: sent for the operation it answered, none when it answered nothing.
    let changed: number;
    if (context.store.backend === 'postgres') {
      const change = {
        kind: 'operation',
        deskId: context.deskId,
        operationId: sql.ref('w.operation_id'),
        reservationKey: sql.ref('w.reservation_key'),
        paymentId: sql.ref('w.payment_id'),
      } as const;
      const update = context.db
        .updateTable('operations')
        .set({
          state: values.state,
          result_id: values.resultId,
          error_code: values.errorCode,
          http_status: values.httpStatus,
          completed_at: at,
        })
        .where('key', '=', key)
        .where('state', 'in', FROM[from])
        .returning(['operation_id', 'reservation_key', 'payment_id']);
      changed = (
        await context.db
          .with('w', () => update)
          .selectFrom('w')
          .select(notificationIn(change).as('notified'))
          .execute()
      ).length;
    } else {
      changed = (await run(context, TRANSITIONS[from], values)).rows.length;
    }
    context.changed();
    return changed;
  }

  /** This desk's unanswered operations, oldest first: each desk recovers only its own at start-up. */
  async pendingOperations(): Promise<Operation[]> {
    const { rows } = await run(this.context, PENDING_OF_DESK, { deskId: this.context.deskId });
    return rows.map((row) => toOperation(row, this.context.deskId));
  }

  /** A payment's refund operations still unanswered, on any desk (the index allows one). */
  async pendingRefundsOf(paymentId: string): Promise<Operation[]> {
    const { rows } = await run(this.context, PENDING_REFUNDS_OF, { paymentId });
    return rows.map((row) => toOperation(row, this.context.deskId));
  }

  /**
   * A reservation's payment operations in these states, on every desk, oldest first. Its number is compared by its key
   * (reservationKey), as the lookup finds it: one reservation, one payment at a time.
   */
  async paymentOperationsOf(reservationId: string, states: readonly OperationState[]): Promise<Operation[]> {
    if (states.length === 0) return [];
    const { rows } = await run(this.context, paymentOperationsQuery(states), {
      reservationKey: reservationKey(reservationId),
    });
    return rows.map((row) => toOperation(row, this.context.deskId));
  }

  /** Operations in a state, on every desk, oldest first. */
  async operationsInState(state: OperationState): Promise<Operation[]> {
    const { rows } = await run(this.context, IN_STATE, { state });
    return rows.map((row) => toOperation(row, this.context.deskId));
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
    let query = this.context.db
      .selectFrom('operations')
      .selectAll()
      .where('kind', '=', 'refund')
      .where('created_at', '>=', from)
      .where('created_at', '<', to);
    if (operatorId !== undefined)
      query = query.where((eb) => eb(eb.fn('lower', ['operator_id']), '=', operatorId.toLowerCase()));
    const rows = await query.orderBy('created_at').execute();
    return rows.map((row) => toOperation(row, this.context.deskId));
  }

  /**
   * In a transaction: waits until no other desk's transaction holding this operator's turn is open, and holds it until this
   * one ends. A read of the operator's refunds after it sees every refund another desk began for them and committed
   * (read committed reads each statement afresh); two desks refunding for one operator take turns, other operators never
   * wait. The embedded file needs none: its write transactions take turns already.
   */
  private async refundTurn(operatorId: string): Promise<void> {
    if (this.context.store.backend !== 'postgres') return;
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`refund-cap:${operatorId.toLowerCase()}`}, 0))`.execute(
      this.context.db,
    );
  }
}
