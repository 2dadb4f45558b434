/** Durable journal (the storage layer: this desk's journal.db, or the center): each keyed operation is written before it is sent; payments, methods and refunds as last known. */
import { sql } from 'kysely';
import { databaseNowMs, type Storage, type StoreDatabase, type TransactionOptions } from '../../storage';
import type { Attempt } from '../client';
import type { MethodResource, PaymentResource, RefundResource } from '../resources';
import type { JournalContext } from './context';
import { LEASE_STATEMENTS, LeasesRepository } from './leases';
import { METHOD_STATEMENTS, MethodsRepository } from './methods';
import { OPERATION_STATEMENTS, OperationsRepository } from './operations';
import { PAYMENT_STATEMENTS, PaymentsRepository } from './payments';
import { RECOVERED_STATEMENTS, RecoveredRepository } from './recovered';
import { REFUND_STATEMENTS, RefundsRepository } from './refunds';
import type { Preparable } from './statement';
import { JOURNAL_STORE } from './store';
import type { JournalDB, JournalExecutor } from './tables';
import type {
  LeaseHolder,
  Operation,
  OperationState,
  PaymentFilter,
  RecoveredNotice,
  Settlement,
  StoredMethod,
  StoredPayment,
  StoredRefund,
} from './types';
import { reservationKey } from './reservation-key';
import { UNFINISHED_STATEMENTS, UnfinishedRepository } from './unfinished';

export type * from './types';
export type { JournalDB } from './tables';
export { LEGACY_SQLITE_MIGRATIONS } from './legacy-sqlite';
export { reservationKey } from './reservation-key';
export { ONE_REFUND_IN_FLIGHT_INDEX, ONE_UNANSWERED_PAYMENT_INDEX } from './schema';
export { JOURNAL_STORE, SCHEMA_VERSION } from './store';
export { fingerprint } from './fingerprint';
export { journalConflict } from './conflicts';

/** Every statement of a fixed shape the repositories run: compiled when the journal opens. */
const STATEMENTS: readonly Preparable[] = [
  ...OPERATION_STATEMENTS,
  ...PAYMENT_STATEMENTS,
  ...REFUND_STATEMENTS,
  ...METHOD_STATEMENTS,
  ...RECOVERED_STATEMENTS,
  ...LEASE_STATEMENTS,
  ...UNFINISHED_STATEMENTS,
];

/** The journal's facade: one repository per entity, all writing where this journal writes (its transaction, if any). */
export class Journal {
  private readonly listeners = new Set<() => void>();
  private readonly context: JournalContext;
  private readonly operations: OperationsRepository;
  private readonly paymentRows: PaymentsRepository;
  private readonly refunds: RefundsRepository;
  private readonly methods: MethodsRepository;
  private readonly recovered: RecoveredRepository;
  private readonly leases: LeasesRepository;
  private readonly unfinished: UnfinishedRepository;

  private constructor(
    private readonly store: StoreDatabase<JournalDB>,
    /** This desk: every record it writes names it; it recovers only its own operations. */
    readonly deskId: string,
    private readonly db: JournalExecutor,
    private readonly parent: Journal | undefined,
  ) {
    this.context = {
      store,
      db,
      deskId,
      changed: () => this.changed(),
      transaction: (fn, options) => this.transaction((journal) => fn(journal.context), options),
    };
    this.operations = new OperationsRepository(this.context);
    this.paymentRows = new PaymentsRepository(this.context);
    this.refunds = new RefundsRepository(this.context);
    this.methods = new MethodsRepository(this.context);
    this.recovered = new RecoveredRepository(this.context);
    this.leases = new LeasesRepository(this.context);
    this.unfinished = new UnfinishedRepository(this.context);
  }

  /**
   * Opens the journal on the storage (created or migrated on the embedded file; at its version on the center). Every row
   * of the embedded file is this desk's: one written before desks had ids, or under an earlier id of this data folder
   * (desk.json made again), is given its id, so that this desk still recovers and follows it. Its statements are compiled
   * here, at the app's start, not at the first payment.
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
      for (const statement of STATEMENTS) statement.prepare(store);
      // The Unicode normalizer's data every reservation number goes through, loaded now rather than at the first payment.
      reservationKey('A-1');
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
   * Runs `fn`'s writes without waiting for the disk at their commit (TransactionOptions.synced): in one transaction on
   * the embedded file; as they are elsewhere (the center always waits, and is sent no transaction more for it).
   */
  /** Whether unsynced() commits without waiting for the disk here (the embedded file in WAL). */
  get defersCommits(): boolean {
    return this.store.unsynced !== undefined;
  }

  async unsynced<T>(fn: (journal: Journal) => Promise<T>): Promise<T> {
    if (this.parent !== undefined || this.store.unsynced === undefined) return fn(this);
    return this.transaction(fn, { synced: false });
  }

  // ---- operations (operations.ts) ----

  begin(op: Omit<Operation, 'state' | 'resultId' | 'errorCode' | 'fingerprint' | 'deskId'>): Promise<Operation> {
    return this.operations.begin(op);
  }

  operation(operationId: string): Promise<Operation | undefined> {
    return this.operations.operation(operationId);
  }

  operationByKey(key: string): Promise<Operation | undefined> {
    return this.operations.operationByKey(key);
  }

  settle(key: string, outcome: Settlement, at: number): Promise<void> {
    return this.operations.settle(key, outcome, at);
  }

  resolve(
    key: string,
    outcome: { state: 'done'; resultId: string; httpStatus: number } | { state: 'abandoned'; errorCode: string },
    at: number,
  ): Promise<boolean> {
    return this.operations.resolve(key, outcome, at);
  }

  pendingOperations(): Promise<Operation[]> {
    return this.operations.pendingOperations();
  }

  pendingRefundsOf(paymentId: string): Promise<Operation[]> {
    return this.operations.pendingRefundsOf(paymentId);
  }

  paymentOperationsOf(reservationId: string, states: readonly OperationState[]): Promise<Operation[]> {
    return this.operations.paymentOperationsOf(reservationId, states);
  }

  operationsInState(state: OperationState): Promise<Operation[]> {
    return this.operations.operationsInState(state);
  }

  refundOperationsBegunBetween(
    from: number,
    to: number,
    operatorId?: string,
    options: { turn?: boolean } = {},
  ): Promise<Operation[]> {
    return this.operations.refundOperationsBegunBetween(from, to, operatorId, options);
  }

  // ---- what recover() completed (recovered.ts) ----

  addRecovered(notice: Omit<RecoveredNotice, 'deskId'>): Promise<void> {
    return this.recovered.addRecovered(notice);
  }

  recoveredNotices(of: { operatorId: string } | { reservationId: string }): Promise<RecoveredNotice[]> {
    return this.recovered.recoveredNotices(of);
  }

  acknowledgeRecovered(ids: readonly string[], operatorId: string, at: number): Promise<number> {
    return this.recovered.acknowledgeRecovered(ids, operatorId, at);
  }

  // ---- attempts and leases: one change of a payment at a time, on every desk (leases.ts) ----

  recordAttempt(attempt: Attempt, at: number): Promise<void> {
    return this.leases.recordAttempt(attempt, at);
  }

  takeLease(
    paymentId: string,
    operatorId: string,
    ttlMs: number,
  ): Promise<{ token: string } | { heldBy: LeaseHolder }> {
    return this.leases.takeLease(paymentId, operatorId, ttlMs);
  }

  releaseLease(paymentId: string, token: string): Promise<void> {
    return this.leases.releaseLease(paymentId, token);
  }

  // ---- resources, as last known (methods.ts, payments.ts, refunds.ts) ----

  saveMethod(method: MethodResource, reservationId: string): Promise<void> {
    return this.methods.saveMethod(method, reservationId);
  }

  keepMethod(methodId: string, reservationId: string, by: string, at: string): Promise<boolean> {
    return this.methods.keepMethod(methodId, reservationId, by, at);
  }

  methodsOf(reservationId: string): Promise<StoredMethod[]> {
    return this.methods.methodsOf(reservationId);
  }

  method(id: string): Promise<StoredMethod | undefined> {
    return this.methods.method(id);
  }

  abandonPayment(paymentId: string, by: string, at: string): Promise<void> {
    return this.paymentRows.abandonPayment(paymentId, by, at);
  }

  savePayment(
    p: PaymentResource,
    by?: { operatorId?: string; refundOperator?: { refundId: string; operatorId: string } },
  ): Promise<void> {
    return this.paymentRows.savePayment(p, by);
  }

  saveRefund(
    r: RefundResource,
    payment: Pick<PaymentResource, 'id' | 'currency'> & { reservationId?: string },
    operatorId?: string,
  ): Promise<void> {
    return this.refunds.saveRefund(r, payment, operatorId);
  }

  payment(id: string): Promise<StoredPayment | undefined> {
    return this.paymentRows.payment(id);
  }

  payments(ids: readonly string[]): Promise<StoredPayment[]> {
    return this.paymentRows.payments(ids);
  }

  paymentsOf(reservationId: string): Promise<StoredPayment[]> {
    return this.paymentRows.paymentsOf(reservationId);
  }

  paymentsOfMethod(methodId: string): Promise<StoredPayment[]> {
    return this.paymentRows.paymentsOfMethod(methodId);
  }

  searchPayments(
    filter: PaymentFilter,
  ): Promise<(StoredPayment & { brand: string | undefined; last4: string | undefined })[]> {
    return this.paymentRows.searchPayments(filter);
  }

  paymentsCreatedBetween(from: string, to: string): Promise<StoredPayment[]> {
    return this.paymentRows.paymentsCreatedBetween(from, to);
  }

  refundsCreatedBetween(from: string, to: string): Promise<StoredRefund[]> {
    return this.refunds.refundsCreatedBetween(from, to);
  }

  // ---- what this desk still follows (unfinished.ts) ----

  unsettledPaymentIds(): Promise<string[]> {
    return this.unfinished.unsettledPaymentIds();
  }

  hasUnfinished(): Promise<boolean> {
    return this.unfinished.hasUnfinished();
  }
}
