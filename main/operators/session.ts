/**
 * The desk's session: who is signed in, the idle lock (at most 15 minutes, PCI DSS 8.2.8), unlock by the same operator,
 * role checks in main; and one open session per operator in the center (the directory's sessions).
 */
import type { OperatorView, Role } from '../../shared/operators';
import type { OperatorDirectory, SessionHolder, SignInResult } from './directory';
import { OperatorError } from './errors';

/** PCI DSS 8.2.8: a session idle for more than 15 minutes must be re-authenticated. */
export const MAX_IDLE_MS = 15 * 60_000;
/** The shortest idle timeout accepted; anything lower is raised to it. */
export const MIN_IDLE_MS = 1_000;

/** The clock and the one timer the guard uses; injectable for tests. */
export interface SessionTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the guard needs of the directory. */
export type SessionDirectory = Pick<
  OperatorDirectory,
  'signIn' | 'needsFirstAdmin' | 'openSession' | 'sessionState' | 'markSession' | 'closeSession'
>;

/** The desk's last activity is written to its session row at most this often. */
export const SEEN_EVERY_MS = 60_000;

/**
 * Why the screen must be wiped: `idle` (the timeout), `manual` (lock() was called), `disabled` (the
 * account was disabled or removed while signed in; the session has ended), `ended_elsewhere` (the operator signed in
 * at another desk and chose to end this session there; `endedBy` says which desk).
 */
export type LockReason = 'idle' | 'manual' | 'disabled' | 'ended_elsewhere';
export interface LockEvent {
  operator: OperatorView;
  reason: LockReason;
  endedBy?: SessionHolder | undefined;
}

export interface SessionGuardOptions {
  directory: SessionDirectory;
  /** Default and maximum 15 minutes; a higher (or non-finite) value is clamped to 15 minutes, a lower one is kept (at least 1 s). */
  idleTimeoutMs?: number;
  /** Called after the session locks: the shell wipes card data from the screen. Runs from a timer: it must not throw. */
  onLock?: (event: LockEvent) => void;
  /**
   * Called once per quiet spell, `warningMs` before the idle lock (a minute, or half the timeout when that is shorter),
   * with when it will lock: the screen warns the operator. Runs from a timer: it must not throw.
   */
  onIdleWarning?: (event: { operator: OperatorView; locksAt: number }) => void;
  /** An operator signed in here and ended their session at another desk (they chose to): for the audit trail. */
  onTakeOver?: (event: { operator: OperatorView; ended: SessionHolder }) => void;
  timers?: Partial<SessionTimers>;
}

export interface SignInOptions {
  /** End the operator's session open at another desk of the center, if there is one (else it is refused, `session_elsewhere`). */
  endSessionElsewhere?: boolean;
}

export interface SessionStatus {
  /** Undefined while nobody is signed in or the session is locked. */
  operator: OperatorView | undefined;
  locked: boolean;
  needsFirstAdmin: boolean;
}

interface Session {
  operator: OperatorView;
  /** Its row in the directory's sessions. */
  sessionId: string;
  locked: boolean;
  lastActivity: number;
  /** When the last activity was written to the row. */
  seenWritten: number;
  /** The activity time the last warning was given for (one warning per quiet spell). */
  warnedFor?: number;
}

/** The idle lock is announced this long before it falls. */
export const IDLE_WARNING_MS = 60_000;

/** Clamps a configured idle timeout into [MIN_IDLE_MS, MAX_IDLE_MS]; never longer than 15 minutes. */
export function clampIdleTimeout(ms: number | undefined): number {
  if (ms === undefined || !Number.isFinite(ms) || ms > MAX_IDLE_MS) return MAX_IDLE_MS;
  return Math.max(MIN_IDLE_MS, Math.floor(ms));
}

const defaultTimers: SessionTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const normalizeId = (id: string): string => id.trim().toLowerCase();

/** The refusal of a sign-in or unlock, as an error a person understands. */
export function signInError(result: Extract<SignInResult, { ok: false }>): OperatorError {
  switch (result.reason) {
    case 'invalid_credentials':
      return new OperatorError('invalid_credentials');
    case 'disabled':
      return new OperatorError('disabled');
    case 'locked': {
      // From how long the database says the lock lasts: the desk's own clock may be off.
      const minutes = Math.max(1, Math.ceil(result.lockedForMs / 60_000));
      return new OperatorError('locked', { lockedForMs: result.lockedForMs, params: { minutes } });
    }
  }
}

export class SessionGuard {
  readonly idleTimeoutMs: number;
  /** How long before the idle lock the warning comes: a minute, or half the timeout when that is shorter. */
  readonly warningMs: number;
  private readonly directory: SessionDirectory;
  private readonly onLock: (event: LockEvent) => void;
  private readonly onIdleWarning: (event: { operator: OperatorView; locksAt: number }) => void;
  private readonly onTakeOver: (event: { operator: OperatorView; ended: SessionHolder }) => void;
  private readonly timers: SessionTimers;
  private session: Session | undefined;
  private timer: unknown;
  /** Why the last session ended without this desk signing it out (another desk took it over): told at the next call. */
  private endedElsewhere: { operator: OperatorView; endedBy: SessionHolder | undefined } | undefined;

  constructor(options: SessionGuardOptions) {
    this.directory = options.directory;
    this.idleTimeoutMs = clampIdleTimeout(options.idleTimeoutMs);
    this.warningMs = Math.min(IDLE_WARNING_MS, Math.floor(this.idleTimeoutMs / 2));
    this.onLock = options.onLock ?? (() => undefined);
    this.onIdleWarning = options.onIdleWarning ?? (() => undefined);
    this.onTakeOver = options.onTakeOver ?? (() => undefined);
    this.timers = { ...defaultTimers, ...options.timers };
  }

  /**
   * Signs an operator in on this desk. While a session exists (even locked), only the same operator
   * may sign in, which unlocks it; anyone else must sign out first. An operator whose session is open at another desk
   * of the center is refused (`session_elsewhere`, naming that desk and since when) unless they choose to end it.
   */
  async signIn(id: string, password: string, options: SignInOptions = {}): Promise<OperatorView> {
    const existing = this.session;
    if (existing) {
      if (normalizeId(id) !== existing.operator.id) {
        // Who holds the desk: locked, the renderer offers "Sign in as someone else"; open, that operator signs out.
        throw new OperatorError('session_active', {
          params: existing.locked
            ? { lockedFor: existing.operator.displayName }
            : { signedIn: existing.operator.displayName },
        });
      }
      return this.unlock(password);
    }
    const result = await this.directory.signIn(id, password, this.timers.now());
    if (this.session) throw new OperatorError('session_active');
    if (!result.ok) throw signInError(result);
    // Only someone who knows the password learns where the operator's session is.
    const opened = await this.directory.openSession(result.operator.id, this.timers.now(), {
      takeOver: options.endSessionElsewhere === true,
    });
    if (!opened.ok) throw sessionElsewhere(opened.heldBy);
    if (this.session) {
      await this.directory.closeSession(opened.sessionId);
      throw new OperatorError('session_active');
    }
    const now = this.timers.now();
    this.endedElsewhere = undefined;
    this.session = {
      operator: result.operator,
      sessionId: opened.sessionId,
      locked: false,
      lastActivity: now,
      seenWritten: now,
    };
    this.schedule(this.idleTimeoutMs - this.warningMs);
    if (opened.ended) this.onTakeOver({ operator: result.operator, ended: opened.ended });
    return result.operator;
  }

  /** Re-verifies the signed-in operator's password (same lockout rules as sign-in) and lifts the idle lock. */
  async unlock(password: string): Promise<OperatorView> {
    const session = this.session;
    if (!session) throw notSignedIn();
    const result = await this.directory.signIn(session.operator.id, password, this.timers.now());
    if (this.session !== session) throw new OperatorError('not_signed_in');
    if (!result.ok) {
      if (result.reason === 'disabled') await this.end('disabled');
      throw signInError(result);
    }
    // The session may have been ended from another desk while it was locked here.
    if (!(await this.directory.markSession(session.sessionId, false, this.timers.now()))) {
      const state = await this.directory.sessionState(session.operator.id, session.sessionId);
      const endedBy = state.session === 'open' ? undefined : state.session.endedBy;
      if (this.session === session) await this.end('ended_elsewhere', endedBy);
      throw sessionEnded(endedBy);
    }
    if (this.session !== session) throw new OperatorError('not_signed_in');
    session.operator = result.operator;
    session.locked = false;
    session.lastActivity = this.timers.now();
    this.schedule(this.idleTimeoutMs - this.warningMs);
    return result.operator;
  }

  /** Activity (input in the window, a call to main): postpones the idle lock. No effect once locked or overdue. */
  touch(): void {
    const session = this.session;
    if (!session || session.locked) return;
    const now = this.timers.now();
    if (now - session.lastActivity >= this.idleTimeoutMs) {
      // The timer is late (the machine slept): activity now does not undo the lock that was due.
      this.lockNow('idle');
      return;
    }
    session.lastActivity = now;
  }

  /** Locks now (e.g. the agent stepped away and pressed Lock). */
  lock(): void {
    if (this.session && !this.session.locked) this.lockNow('manual');
  }

  /**
   * Ends the session on this desk and in the center. The desk is signed out even when the center cannot be reached:
   * the row left behind is this desk's, replaced at its next sign-in or start, or ended by the operator at another desk.
   */
  async signOut(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.clearTimer();
    if (session) await this.directory.closeSession(session.sessionId).catch(() => undefined);
  }

  /**
   * Hands a locked desk over ("Sign in as someone else"): the locked session ends, and whoever is at the desk may
   * sign in. The card data on screen was wiped when the session locked. Refused while the session is open (its
   * operator signs out instead). Answers the operator whose session ended; undefined when nobody was signed in.
   */
  async endLocked(): Promise<OperatorView | undefined> {
    // An overdue idle lock is applied first: a session past its timeout is a locked one.
    if (this.session && !this.session.locked) await this.current();
    const session = this.session;
    if (!session) return undefined;
    if (!session.locked) {
      throw new OperatorError('not_locked', { params: { signedIn: session.operator.displayName } });
    }
    await this.signOut();
    return session.operator;
  }

  /**
   * The signed-in operator as the directory has them now; undefined when nobody is signed in, the session is locked,
   * or it has ended (the account disabled, or the operator ended it from another desk: `endedElsewhere()` says where).
   */
  async current(): Promise<OperatorView | undefined> {
    const session = this.session;
    if (!session || session.locked) return undefined;
    const now = this.timers.now();
    if (now - session.lastActivity >= this.idleTimeoutMs) {
      this.lockNow('idle');
      return undefined;
    }
    const seen = now - session.seenWritten >= SEEN_EVERY_MS ? session.lastActivity : undefined;
    const state = await this.directory.sessionState(session.operator.id, session.sessionId, seen);
    if (seen !== undefined) session.seenWritten = now;
    if (this.session !== session) return undefined;
    if (!state.operator || state.operator.disabled) {
      await this.end('disabled');
      return undefined;
    }
    if (state.session !== 'open') {
      await this.end('ended_elsewhere', state.session.endedBy);
      return undefined;
    }
    session.operator = state.operator;
    return session.locked ? undefined : state.operator;
  }

  /** Why nobody is signed in, when this desk's session was ended from another desk (until the next sign-in). */
  endedElsewhereError(): OperatorError | undefined {
    return this.endedElsewhere === undefined ? undefined : sessionEnded(this.endedElsewhere.endedBy);
  }

  async isLocked(): Promise<boolean> {
    await this.current();
    return this.session?.locked ?? false;
  }

  async status(): Promise<SessionStatus> {
    const operator = await this.current();
    return { operator, locked: this.session?.locked ?? false, needsFirstAdmin: await this.directory.needsFirstAdmin() };
  }

  /** The signed-in operator if their current role is one of `roles`; otherwise an OperatorError (forbidden, not_signed_in or session_locked). */
  async requireRole(roles: readonly Role[]): Promise<OperatorView> {
    const operator = await this.current();
    if (!operator) {
      if (this.session?.locked) throw new OperatorError('session_locked');
      throw this.endedElsewhereError() ?? notSignedIn();
    }
    if (!roles.includes(operator.role)) {
      throw new OperatorError('forbidden', { params: { role: operator.role } });
    }
    return operator;
  }

  private lockNow(reason: 'idle' | 'manual'): void {
    const session = this.session;
    if (!session || session.locked) return;
    session.locked = true;
    this.clearTimer();
    // The center's row says the session is locked (for whoever looks at sessions); the desk locks whatever it answers.
    void this.directory.markSession(session.sessionId, true, this.timers.now()).catch(() => undefined);
    this.onLock({ operator: session.operator, reason });
  }

  /** The session may no longer be used here: it ends and the screen is wiped. */
  private async end(reason: 'disabled' | 'ended_elsewhere', endedBy?: SessionHolder): Promise<void> {
    const session = this.session;
    if (reason === 'ended_elsewhere') {
      // Not this desk's row any more: only the desk forgets it.
      this.session = undefined;
      this.clearTimer();
      if (session) this.endedElsewhere = { operator: session.operator, endedBy };
    } else {
      await this.signOut();
    }
    if (session) this.onLock({ operator: session.operator, reason, ...(endedBy === undefined ? {} : { endedBy }) });
  }

  /** One timer at most: when it fires early because of activity, it sets itself again for the rest. */
  private schedule(delay: number): void {
    this.clearTimer();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      const session = this.session;
      if (!session || session.locked) return;
      const idle = this.timers.now() - session.lastActivity;
      if (idle >= this.idleTimeoutMs) {
        this.lockNow('idle');
        return;
      }
      const untilWarning = this.idleTimeoutMs - this.warningMs - idle;
      if (untilWarning > 0) {
        this.schedule(untilWarning);
        return;
      }
      if (session.warnedFor !== session.lastActivity) {
        session.warnedFor = session.lastActivity;
        this.onIdleWarning({ operator: session.operator, locksAt: session.lastActivity + this.idleTimeoutMs });
      }
      this.schedule(this.idleTimeoutMs - idle);
    }, delay);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

const notSignedIn = (): OperatorError => new OperatorError('not_signed_in');

const iso = (ms: number): string => new Date(ms).toISOString();

/** Sign-in refused: the operator's session is open at another desk (which, and since when, for the renderer to say). */
function sessionElsewhere(heldBy: SessionHolder): OperatorError {
  return new OperatorError('session_elsewhere', { params: { deskId: heldBy.deskId, sinceAt: iso(heldBy.since) } });
}

/** This desk's session was ended by its operator signing in at another desk. */
function sessionEnded(endedBy: SessionHolder | undefined): OperatorError {
  return new OperatorError(
    'session_ended_elsewhere',
    endedBy === undefined ? {} : { params: { deskId: endedBy.deskId, sinceAt: iso(endedBy.since) } },
  );
}
