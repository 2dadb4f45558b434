/** Operators: accounts, sign-in with lockout, manager override's approver check, and the desk's idle-locked session; plain Node, no Electron imports. */
export { OperatorError, type OperatorErrorCode } from './errors';
export {
  OperatorDirectory,
  OPERATORS_SCHEMA_VERSION,
  MAX_FAILED_ATTEMPTS,
  LOCKOUT_MS,
  OVERRIDE_MAX_FAILURES,
  OVERRIDE_PAUSE_MS,
  type NewOperator,
  type OpenSessionResult,
  type OperatorDirectoryOptions,
  type OverrideResult,
  type SessionHolder,
  type SessionState,
  type SignInResult,
} from './directory';
export { OPERATORS_STORE, type OperatorsDB } from './store';
export {
  SessionGuard,
  MAX_IDLE_MS,
  MIN_IDLE_MS,
  clampIdleTimeout,
  signInError,
  type LockEvent,
  type LockReason,
  type SessionDirectory,
  type SessionGuardOptions,
  type SignInOptions,
  type SessionStatus,
  type SessionTimers,
} from './session';
export { DEFAULT_COST, MIN_COST, checkCost, type ScryptCost } from './password';
export { OPERATORS_MOVE_IN } from './move-in';
