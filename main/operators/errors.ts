/** The operators capability's one error type: a code and its params (the renderer words them), never a password or hash. */
import { UserError, type UserErrorOptions } from '../errors';

export type OperatorErrorCode =
  /** A field failed its schema (id, name, role, password policy). */
  | 'invalid_input'
  /** createOperator: the id (compared case-insensitively) is taken. */
  | 'already_exists'
  | 'not_found'
  /** The acting operator may not do this (not an enabled admin, or lacks the role; params: role, the operator's own). */
  | 'forbidden'
  /** The change would leave no enabled admin. */
  | 'last_admin'
  /** createFirstAdmin once any operator exists. */
  | 'setup_done'
  | 'invalid_credentials'
  | 'locked'
  | 'disabled'
  | 'not_signed_in'
  /** The session is locked by the idle timeout: unlock first. */
  | 'session_locked'
  /** Someone else is signed in (or locked) on this desk: sign out first (or, locked, hand the desk over). */
  | 'session_active'
  /** A hand-over was asked while the session is open: that operator signs out instead (params: signedIn). */
  | 'not_locked'
  /** Sign-in refused: the operator's session is open at another desk of the center (params: deskId, sinceAt). */
  | 'session_elsewhere'
  /** This desk's session ended: its operator signed in at another desk and ended it (params: deskId, sinceAt). */
  | 'session_ended_elsewhere';

export class OperatorError extends UserError<OperatorErrorCode> {
  override readonly name = 'OperatorError';

  /** For `locked`: how long until sign-in is allowed again (ms, by the database's clock). */
  readonly lockedForMs: number | undefined;

  constructor(code: OperatorErrorCode, options: UserErrorOptions & { lockedForMs?: number } = {}) {
    super(code, options);
    this.lockedForMs = options.lockedForMs;
  }
}
