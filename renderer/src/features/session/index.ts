// The operator's session: sign-in, first run, lock screen and hand-over, sign-out, activity postponing the lock.
export { lockSession, readSessionStatus, signOut, useSessionLocked, type SessionStatus } from './api';
export { useActivityReport } from './activity';
export { FirstAdmin, SignIn } from './ui/SignIn';
