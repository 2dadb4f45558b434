// The operator's session: sign-in, first run, lock screen and hand-over, sign-out, activity postponing the lock, the warning before it.
export { lockSession, readSessionStatus, signOut, useSessionLocked, type SessionStatus } from './api';
export { IdleWarning } from './ui/IdleWarning';
export { useActivityReport } from './activity';
export { FirstAdmin, SignIn } from './ui/SignIn';
