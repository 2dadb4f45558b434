/** Where an operation may go from each state, and which service refusals close it for good. */
import type { OperationState } from '../journal';
import { ServiceError } from '../errors';

/**
 * The one table of an operation's states. `pending`: begun, its answer not in hand (sent again with its key).
 * `reconcile`: unanswered past the service's window, for a supervisor; an answer that still arrives is taken (the
 * service made it), and the supervisor's word closes it. `done`, `failed` and `abandoned` are final.
 */
export const TRANSITIONS: Readonly<Record<OperationState, readonly OperationState[]>> = {
  pending: ['done', 'failed', 'reconcile', 'abandoned'],
  reconcile: ['done', 'abandoned'],
  done: [],
  failed: [],
  abandoned: [],
};

/** Whether an operation in `from` may be moved to `to`. */
export const mayMove = (from: OperationState, to: OperationState): boolean => TRANSITIONS[from].includes(to);

/** Whether an operation is still open (the service's answer would still be written to it). */
export const isOpen = (state: OperationState): boolean => mayMove(state, 'done');

/**
 * An operation asked for again by its id, refused by its state: one a supervisor must reconcile, or one recovery
 * closed. Every other state is resumed (a done one answers what it made).
 */
export const RESUME_REFUSED: Readonly<
  Partial<Record<OperationState, 'operation_needs_reconciliation' | 'operation_closed'>>
> = {
  reconcile: 'operation_needs_reconciliation',
  abandoned: 'operation_closed',
};

/** A refusal that will not change by asking again (so the journal can close the operation). */
export const isDefinitive = (e: unknown): e is ServiceError =>
  e instanceof ServiceError &&
  e.kind === 'http' &&
  (e.details.status ?? 0) >= 400 &&
  (e.details.status ?? 0) < 500 &&
  ![401, 408, 429].includes(e.details.status ?? 0) &&
  e.code !== 'idempotency_in_progress';

/** An operation marked for reconciliation instead of being sent (past the service's window, or over its operator's caps now). */
export const reconcileError = (): ServiceError => new ServiceError('invalid_input', 'operation_needs_reconciliation');

export const isReconcile = (error: unknown): boolean =>
  error instanceof ServiceError && error.code === 'operation_needs_reconciliation';
