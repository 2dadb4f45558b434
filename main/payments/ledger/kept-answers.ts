/** Answers the center could not take yet: kept on this desk and written as soon as it is back. */
import { isTransactionConflict, StorageError } from '../../storage';
import type { Journal, Operation, OperationKind } from '../journal';
import type { EngineLogger } from './index';
import { isOpen } from './states';

/** Delays in ms between tries to write an answer the center could not take; the last value repeats. */
const KEPT_ANSWER_SCHEDULE: readonly number[] = [250, 1000, 2000, 5000, 10_000, 30_000];

/** The center could not be reached, or the transaction collided: writing the same thing again later is the remedy. */
export const isCenterDown = (error: unknown): boolean =>
  (error instanceof StorageError && error.code === 'center_unavailable') || isTransactionConflict(error);

export interface KeptAnswer {
  operationId: string;
  kind: OperationKind;
  resultId: string | undefined;
}

/**
 * When the center cannot take an answer, it is not dropped: this desk keeps it in memory and writes it as soon as the
 * center is back (retried with backoff), while the agent is told the center is down. A desk closed or killed in that
 * window leaves the operation unanswered in the journal, and it is re-sent with its same key at the next start (the
 * service answers it again, no second charge).
 */
export class KeptAnswers {
  /** By idempotency key: the timer of the next try to write each. */
  private readonly kept = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly listeners = new Set<(answer: KeptAnswer) => void>();
  private closed = false;

  constructor(
    private readonly deps: {
      journal: Journal;
      logger?: EngineLogger | undefined;
      /** Once a kept answer is written: what follows it (its payment followed, open views told). */
      afterKeptAnswer: (op: Operation, resultId: string | undefined) => Promise<void>;
    },
  ) {}

  /** Whether an answer is waiting for the center. */
  get size(): number {
    return this.kept.size;
  }

  /** Subscribes to the answers kept while the center was down, once written; answers the unsubscribe. */
  onKeptAnswer(listener: (answer: KeptAnswer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes the service's answer to an operation, keeping it when the center cannot take it (the error still throws). */
  async write(op: Operation, write: () => Promise<string | undefined>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isCenterDown(error)) this.keepAnswer(op, write);
      throw error;
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.kept.values()) clearTimeout(timer);
    this.kept.clear();
    this.listeners.clear();
  }

  private keepAnswer(op: Operation, write: () => Promise<string | undefined>): void {
    if (this.kept.has(op.key) || this.closed) return;
    const { journal, logger } = this.deps;
    logger?.warn(
      { operationId: op.operationId, kind: op.kind },
      'the center cannot be written: the answer is kept on this desk until it is back',
    );
    let attempt = 0;
    const again = (): void => {
      const delay = KEPT_ANSWER_SCHEDULE[Math.min(attempt, KEPT_ANSWER_SCHEDULE.length - 1)] ?? 30_000;
      attempt++;
      const timer = setTimeout(() => {
        if (this.closed) return;
        // Answered meanwhile (the agent tried again with the same key once the center was back): that answer stands. One
        // marked for reconciliation meanwhile (another desk found it unanswered for 24 hours) still takes the answer, as
        // an answer written at once does: the service made it.
        const writeUnlessAnswered = async (): Promise<string | undefined> => {
          const now = await journal.operationByKey(op.key);
          return now !== undefined && !isOpen(now.state) ? now.resultId : write();
        };
        writeUnlessAnswered().then(
          (resultId) => {
            this.kept.delete(op.key);
            logger?.info({ operationId: op.operationId, kind: op.kind }, 'the kept answer is written in the center');
            void this.afterKeptAnswer(op, resultId);
          },
          (error: unknown) => {
            if (isCenterDown(error) && !this.closed) {
              again();
              return;
            }
            // Not the center's absence: left unanswered in the journal, re-sent with its key at the next start.
            this.kept.delete(op.key);
            logger?.warn(
              { operationId: op.operationId, kind: op.kind, code: error instanceof Error ? error.name : 'unknown' },
              'the kept answer could not be written',
            );
          },
        );
      }, delay);
      this.kept.set(op.key, timer);
    };
    again();
  }

  private afterKeptAnswer(op: Operation, resultId: string | undefined): Promise<void> {
    for (const listener of this.listeners) listener({ operationId: op.operationId, kind: op.kind, resultId });
    return this.deps.afterKeptAnswer(op, resultId);
  }
}
