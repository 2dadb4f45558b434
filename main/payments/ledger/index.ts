/** The operation ledger: every operation that may move money is begun in the journal, sent with its key, and settled. */
import { randomUUID } from 'node:crypto';
import type { LevelLogger } from '../../logging';
import { isTransactionConflict } from '../../storage';
import { ServiceError } from '../errors';
import { fingerprint, journalConflict, type Journal, type Operation, type OperationKind } from '../journal';
import type { ServiceClock } from '../service-clock';
import type { TokenManager } from '../tokens';
import { isPastWindow } from '../window';
import { isCenterDown, KeptAnswers, type KeptAnswer } from './kept-answers';
import { isDefinitive, reconcileError, RESUME_REFUSED } from './states';

export { isCenterDown, type KeptAnswer } from './kept-answers';
export { isOpen, isReconcile, mayMove, reconcileError, TRANSITIONS } from './states';

/** Where the engine logs: pino fits. Nothing but ids, statuses and times is ever passed. */
export type EngineLogger = LevelLogger<'info' | 'warn'>;

/**
 * A rule checked where a new operation is written (in its transaction, its row included, read committed on the center):
 * it takes the turn its read needs so that another desk cannot overtake it (Journal.refundOperationsBegunBetween's
 * `turn`). It refuses by throwing. `operationId` is the new operation's.
 */
export type BeginCheck = (journal: Journal, operationId: string) => Promise<void>;

/** What a new operation is written with besides its payload. */
export interface OperationMeta {
  reservationId: string;
  operatorId: string;
  /** False for a tokenization: the card is not kept, so it can never be sent again. */
  resendable: boolean;
  paymentId?: string;
}

export interface LedgerDeps {
  journal: Journal;
  tokens: TokenManager;
  /** The service's clock, from the Date of its answers: what its 24-hour window follows. */
  serviceClock: ServiceClock;
  /** The time operations are stamped and aged by. */
  now: () => number;
  logger?: EngineLogger | undefined;
  /**
   * What identifies a kind's request when it is asked for again by its id (a payment: its money fields, never a note or
   * the operator); the whole payload for a kind not named.
   */
  identity?: Partial<Record<OperationKind, (payload: unknown) => string>>;
  /** Once an answer kept while the center was down is written: its payment followed and every open view told. */
  afterKeptAnswer: (op: Operation, resultId: string | undefined) => Promise<void>;
  /** A refund begun while another of the same payment is unanswered (the journal's unique index said so). */
  refundInFlight: () => Error;
}

/** A guard of beginUnlessTaken found the operation must not begin: its transaction is rolled back. */
class NotBegun extends Error {}

export class Ledger {
  /** Keys begun by this ledger and not sent yet: their first send needs no look at the window. */
  private readonly unsent = new Set<string>();
  readonly kept: KeptAnswers;

  constructor(private readonly deps: LedgerDeps) {
    this.kept = new KeptAnswers({
      journal: deps.journal,
      logger: deps.logger,
      afterKeptAnswer: deps.afterKeptAnswer,
    });
  }

  /** Subscribes to the answers this desk kept while the center was down, once written; answers the unsubscribe. */
  onKeptAnswer(listener: (answer: KeptAnswer) => void): () => void {
    return this.kept.onKeptAnswer(listener);
  }

  /** The operation for this logical request: new (journaled before anything is sent), or the one already begun. */
  async beginOrResume(
    operationId: string | undefined,
    kind: OperationKind,
    payload: unknown,
    meta: OperationMeta,
    /** Run in the transaction that writes a new operation (not for one begun already): throwing writes nothing. */
    whenBegun?: BeginCheck,
    /**
     * What the caller just read of this id ('none': not begun), so the first turn does not read it again. Begun since
     * (a call at once), the unique index refuses the new row and the next turn reads it.
     */
    readAlready?: Operation | 'none',
  ): Promise<Operation> {
    const id = operationId ?? randomUUID();
    let known = operationId === undefined ? undefined : readAlready;
    for (;;) {
      const existing =
        known === undefined ? await this.deps.journal.operation(id) : known === 'none' ? undefined : known;
      known = undefined;
      if (existing) {
        this.checkResumable(existing, kind, payload, meta.paymentId);
        return existing;
      }
      const check = whenBegun && (async (journal: Journal): Promise<boolean> => (await whenBegun(journal, id), false));
      const begun = await this.beginUnlessTaken(id, kind, payload, meta, check);
      if (begun) return begun;
    }
  }

  /**
   * Begins the operation unless the journal's unique indexes refuse it: undefined when its id was begun meanwhile (by a
   * call at once on this desk, or another desk) or, for a payment, when another payment of the reservation was (the
   * caller decides again, finding it). A refund while another of the payment is unanswered, on any desk, is refused.
   */
  async beginUnlessTaken(
    operationId: string,
    kind: OperationKind,
    payload: unknown,
    meta: OperationMeta,
    /** Read in the same transaction, after the row is written: true rolls the operation back (undefined is answered). */
    blocked?: (journal: Journal) => Promise<boolean>,
  ): Promise<Operation | undefined> {
    const { journal, serviceClock, tokens } = this.deps;
    // The service's clock is read before the first operation (a token's answer; none asked again while one is held), and
    // again when the desk's clocks disagree on the time since (a sleep): its start is stamped by it, or not by it at all.
    if (serviceClock.readAt() === undefined) await tokens.get().catch(() => undefined);
    else if (serviceClock.drifted()) await tokens.renew().catch(() => undefined);
    try {
      if (blocked === undefined && meta.resendable) return await this.begin(journal, operationId, kind, payload, meta);
      // Never sent again, a tokenization's beginning need not wait for the disk: a power cut that takes it takes no key.
      if (blocked === undefined)
        return await journal.unsynced((tx) => this.begin(tx, operationId, kind, payload, meta));
      return await journal.transaction(async (tx) => {
        const op = await this.begin(tx, operationId, kind, payload, meta);
        if (await blocked(tx)) throw new NotBegun();
        return op;
      });
    } catch (error) {
      // Not begun, or (the embedded file) another connection was writing: decided again, from what is written now.
      if (error instanceof NotBegun || (blocked !== undefined && isTransactionConflict(error))) return undefined;
      const conflict = journalConflict(error);
      if (conflict === undefined) throw error;
      if (conflict === 'refund_in_flight' && (await journal.operation(operationId)) === undefined)
        throw this.deps.refundInFlight();
      return undefined;
    }
  }

  /**
   * An operation asked for again by its id must be the same operation: the same identity of its kind (`identity`);
   * otherwise the whole request, and for a refund the same payment (its body does not name it: another payment's refund
   * would be sent with this key). Never one recovery closed, nor one whose key the service may have forgotten.
   */
  checkResumable(existing: Operation, kind: OperationKind, payload: unknown, paymentId?: string): void {
    const identity = this.deps.identity?.[kind];
    const same =
      identity === undefined
        ? existing.fingerprint === fingerprint(payload)
        : identity(existing.payload) === identity(payload);
    const samePayment = paymentId === undefined || existing.paymentId === undefined || existing.paymentId === paymentId;
    if (existing.kind !== kind || !same || !samePayment) throw new ServiceError('invalid_input', 'operation_changed');
    const refused = RESUME_REFUSED[existing.state];
    if (refused !== undefined) throw new ServiceError('invalid_input', refused);
    if (existing.state !== 'done' && isPastWindow(existing.createdAt, this.deps.now()))
      throw new ServiceError('invalid_input', 'operation_too_old');
  }

  /**
   * Sends with the operation's key; the journal is completed only once the answer is in hand. `keep` writes what the
   * answer made, in the transaction that settles the operation, and names it (the operation's result).
   */
  async run<T>(
    op: Operation,
    send: (key: string) => Promise<{ value: T }>,
    keep: (value: T, journal: Journal) => Promise<string>,
  ): Promise<T> {
    const { journal, now } = this.deps;
    // A key the service may have seen goes again only inside its window, whichever path sends it (retry, check, recovery).
    if (!this.unsent.delete(op.key) && (await this.closeIfPastWindow(op))) throw reconcileError();
    let value: T;
    try {
      ({ value } = await send(op.key));
    } catch (error) {
      // A definitive refusal closes the operation; otherwise the answer is unknown and it stays
      // pending, to be re-sent with the same key (by the same operation id, or at the next start).
      if (isDefinitive(error)) {
        const failed = {
          state: 'failed' as const,
          errorCode: error.code,
          ...(error.details.status ? { httpStatus: error.details.status } : {}),
        };
        const at = now();
        await this.kept
          .write(op, async () => {
            await journal.settle(op.key, failed, at);
            return undefined;
          })
          .catch((lost: unknown) => {
            // The refusal stands whatever became of its record: the agent is told of it, not of the center.
            if (!isCenterDown(lost)) throw lost;
          });
      }
      throw error;
    }
    const at = now();
    // The answer need not wait for the disk: a power cut that takes it leaves the operation unanswered, and the service
    // answers its key, written synced before it was sent, the same again (recovery). A refusal (above) waits.
    await this.kept.write(op, () =>
      journal.transaction(
        async (tx) => {
          const resultId = await keep(value, tx);
          await tx.settle(op.key, { state: 'done', resultId, httpStatus: 201 }, at);
          return resultId;
        },
        { synced: false },
      ),
    );
    return value;
  }

  /** Marks an unanswered operation for a supervisor to reconcile (`errorCode` says why): never sent again. */
  markForReconciliation(op: Operation, errorCode = 'unanswered_24h'): Promise<void> {
    return this.deps.journal.settle(op.key, { state: 'reconcile', errorCode }, this.deps.now());
  }

  /** Closes an operation that cannot be sent again and charged nothing (a tokenization after a restart). */
  abandon(op: Operation, errorCode: string): Promise<void> {
    return this.deps.journal.settle(op.key, { state: 'abandoned', errorCode }, this.deps.now());
  }

  close(): void {
    this.kept.close();
  }

  /** Journals a new operation before anything is sent: its key is the Idempotency-Key of every try. */
  private async begin(
    journal: Journal,
    operationId: string,
    kind: OperationKind,
    payload: unknown,
    meta: OperationMeta,
  ): Promise<Operation> {
    const key = randomUUID();
    this.unsent.add(key);
    try {
      return await journal.begin({
        key,
        operationId,
        kind,
        payload,
        createdAt: this.deps.now(),
        serviceCreatedAt: this.deps.serviceClock.earliest(),
        paymentId: meta.paymentId,
        ...meta,
      });
    } catch (error) {
      this.unsent.delete(key);
      throw error;
    }
  }

  /**
   * Whether an operation may be past the service's window, by the ledger's clock and by the service's own, read again
   * now (a new token: its answer's Date) so that neither a clock set back on this desk nor one read minutes ago can
   * make the operation look younger. When the service cannot be read now, its clock as last read and carried forward
   * monotonically decides; an operation begun before any reading is aged by the ledger's clock alone.
   */
  private async pastWindow(op: Operation): Promise<boolean> {
    if (isPastWindow(op.createdAt, this.deps.now())) return true;
    if (op.serviceCreatedAt === undefined) return false;
    await this.deps.tokens.renew().catch(() => undefined);
    const serviceNow = this.deps.serviceClock.latest();
    return serviceNow !== undefined && isPastWindow(op.serviceCreatedAt, serviceNow);
  }

  /** Marks an operation that may be past the service's window for a supervisor to reconcile; true when it did. */
  private async closeIfPastWindow(op: Operation): Promise<boolean> {
    if (!(await this.pastWindow(op))) return false;
    await this.markForReconciliation(op);
    this.deps.logger?.warn(
      { operationId: op.operationId, kind: op.kind },
      'an unanswered operation reached the end of the service’s window: not sent again, for a supervisor to reconcile',
    );
    return true;
  }
}
