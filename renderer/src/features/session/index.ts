// The operator's session: sign-in and first run, the lock screen and its hand-over, sign-out, and the activity that
// postpones the idle lock.
export { lockSession, readSessionStatus, signOut, useSessionLocked, type SessionStatus } from './api';
export { useActivityReport } from './activity';
export { FirstAdmin, SignIn } from './ui/SignIn';
