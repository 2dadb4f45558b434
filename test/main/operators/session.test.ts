// The desk's session: idle lock (never later than 15 min), activity, unlock by the same operator, sign-out, role checks in main.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionPort } from '../../../main/ipc/handlers';
import {
  MAX_FAILED_ATTEMPTS,
  MAX_IDLE_MS,
  SessionGuard,
  clampIdleTimeout,
  type LockEvent,
  type OperatorDirectory,
  type SessionGuardOptions,
} from '../../../main/operators';
import { ADMIN, AGENT, SUPERVISOR, expectCode, openQuickDirectory, seeded, tempDir } from './helpers';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

let dir: string;
let cleanup: () => void;
let directory: OperatorDirectory;
let locks: LockEvent[];

beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  directory = await seeded(dir);
  locks = [];
  // Fakes setTimeout and Date; scrypt runs on libuv's thread pool, which fake timers do not touch.
  vi.useFakeTimers({ now: T0 });
});
afterEach(async () => {
  vi.useRealTimers();
  await directory.close();
  cleanup();
});

function guard(options: Partial<SessionGuardOptions> = {}): SessionGuard {
  return new SessionGuard({ directory, onLock: (e) => locks.push(e), ...options });
}

async function signedIn(
  id = AGENT.id,
  password = AGENT.password,
  options: Partial<SessionGuardOptions> = {},
): Promise<SessionGuard> {
  const g = guard(options);
  await g.signIn(id, password);
  return g;
}

describe('idle timeout', () => {
  it('defaults to 15 minutes, is configurable lower, and is clamped to 15 minutes when set higher', () => {
    expect(MAX_IDLE_MS).toBe(15 * MIN);
    expect(guard().idleTimeoutMs).toBe(15 * MIN);
    expect(guard({ idleTimeoutMs: 5 * MIN }).idleTimeoutMs).toBe(5 * MIN);
    expect(guard({ idleTimeoutMs: 60 * MIN }).idleTimeoutMs).toBe(15 * MIN);
    expect(clampIdleTimeout(Number.POSITIVE_INFINITY)).toBe(15 * MIN);
    expect(clampIdleTimeout(Number.NaN)).toBe(15 * MIN);
    expect(clampIdleTimeout(0)).toBe(1_000);
  });

  it('locks exactly at the configured timeout and calls onLock once', async () => {
    const g = await signedIn(AGENT.id, AGENT.password, { idleTimeoutMs: 5 * MIN });
    await vi.advanceTimersByTimeAsync(5 * MIN - 1);
    expect(await g.current()).toMatchObject({ id: AGENT.id });
    expect(locks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(locks).toEqual([
      { operator: { id: 'ana', displayName: AGENT.displayName, role: 'agent', disabled: false }, reason: 'idle' },
    ]);
    expect(await g.current()).toBeUndefined();
    expect(await g.status()).toEqual({ operator: undefined, locked: true, needsFirstAdmin: false });
    await vi.advanceTimersByTimeAsync(60 * MIN);
    expect(locks).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never locks later than 15 minutes, even when configured for 60', async () => {
    const g = await signedIn(AGENT.id, AGENT.password, { idleTimeoutMs: 60 * MIN });
    await vi.advanceTimersByTimeAsync(15 * MIN - 1);
    expect(await g.isLocked()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await g.isLocked()).toBe(true);
    expect(locks.map((e) => e.reason)).toEqual(['idle']);
  });

  it('is postponed by activity, with a single timer however often touch() is called', async () => {
    const g = await signedIn(AGENT.id, AGENT.password, { idleTimeoutMs: 15 * MIN });
    await vi.advanceTimersByTimeAsync(10 * MIN);
    for (let i = 0; i < 100; i++) g.touch();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(15 * MIN - 1); // 24:59.999 since sign-in, 14:59.999 since the activity
    expect(await g.current()).toBeDefined();
    expect(locks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await g.current()).toBeUndefined();
    expect(locks.map((e) => e.reason)).toEqual(['idle']);
  });

  it('is not undone by activity after it was due, even when the timer ran late (the machine slept)', async () => {
    const g = await signedIn();
    vi.setSystemTime(T0 + 20 * MIN); // the clock moved on, the timer has not fired yet
    g.touch();
    expect(locks.map((e) => e.reason)).toEqual(['idle']);
    expect(await g.current()).toBeUndefined();
    g.touch();
    expect(await g.isLocked()).toBe(true);
  });

  it('uses the injected clock and timer when given', async () => {
    let now = T0;
    const pending: { fn: () => void; at: number }[] = [];
    const warnings: number[] = [];
    const g = await signedIn(AGENT.id, AGENT.password, {
      idleTimeoutMs: 2 * MIN,
      onIdleWarning: ({ locksAt }) => warnings.push(locksAt),
      timers: {
        now: () => now,
        setTimeout: (fn, ms) => pending.push({ fn, at: now + ms }),
        clearTimeout: () => pending.splice(0),
      },
    });
    // The timer wakes a minute before the lock to warn, then at the lock.
    expect(pending.map((p) => p.at)).toEqual([T0 + MIN]);
    now = T0 + MIN;
    pending.shift()?.fn();
    expect(warnings).toEqual([T0 + 2 * MIN]);
    expect(pending.map((p) => p.at)).toEqual([T0 + 2 * MIN]);
    now = T0 + 2 * MIN;
    pending.shift()?.fn();
    expect(await g.isLocked()).toBe(true);
  });

  it('warns once a minute before the idle lock; activity postpones both, and the next quiet spell is warned again', async () => {
    const warnings: number[] = [];
    const g = await signedIn(AGENT.id, AGENT.password, {
      idleTimeoutMs: 5 * MIN,
      onIdleWarning: ({ operator, locksAt }) => {
        expect(operator.id).toBe(AGENT.id);
        warnings.push(locksAt - T0);
      },
    });
    await vi.advanceTimersByTimeAsync(4 * MIN - 1);
    expect(warnings).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(warnings).toEqual([5 * MIN]);
    // Activity during the warning: no lock at 5 minutes, a new warning a minute before the new time.
    await vi.advanceTimersByTimeAsync(30_000);
    g.touch();
    await vi.advanceTimersByTimeAsync(MIN);
    expect(await g.isLocked()).toBe(false);
    await vi.advanceTimersByTimeAsync(3 * MIN + 30_000);
    expect(warnings).toEqual([5 * MIN, 4 * MIN + 30_000 + 5 * MIN]);
    await vi.advanceTimersByTimeAsync(MIN);
    expect(await g.isLocked()).toBe(true);
    expect(warnings).toHaveLength(2);
  });

  it('warns half the timeout before a lock shorter than two minutes', async () => {
    const warnings: number[] = [];
    await signedIn(AGENT.id, AGENT.password, {
      idleTimeoutMs: 10_000,
      onIdleWarning: ({ locksAt }) => warnings.push(locksAt - T0),
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(warnings).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(warnings).toEqual([10_000]);
  });
});

describe("endLocked (the lock screen's hand-over)", () => {
  it('ends a locked session and answers whose it was; the desk is then free for anyone', async () => {
    const g = await signedIn(AGENT.id, AGENT.password, { idleTimeoutMs: MIN });
    await vi.advanceTimersByTimeAsync(MIN);
    expect(await g.isLocked()).toBe(true);
    expect(await g.endLocked()).toMatchObject({ id: AGENT.id });
    expect(await g.status()).toMatchObject({ operator: undefined, locked: false });
    expect(await g.signIn(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({ id: SUPERVISOR.id });
  });

  it('refuses an open session (not_locked), but treats one past its idle timeout as locked', async () => {
    const g = await signedIn(AGENT.id, AGENT.password, { idleTimeoutMs: MIN });
    await expectCode(() => g.endLocked(), 'not_locked');
    expect(await g.current()).toMatchObject({ id: AGENT.id });
    // The clock moves past the timeout without the timer having fired yet (a machine waking from sleep).
    vi.setSystemTime(Date.now() + MIN);
    expect(await g.endLocked()).toMatchObject({ id: AGENT.id });
    expect(await g.endLocked()).toBeUndefined();
  });
});

describe('unlock', () => {
  it('needs the same operator: another operator’s valid password does not unlock, nor can they sign in over it', async () => {
    const g = await signedIn(AGENT.id, AGENT.password, { idleTimeoutMs: MIN });
    await vi.advanceTimersByTimeAsync(MIN);
    expect(await g.isLocked()).toBe(true);

    await expectCode(() => g.unlock(SUPERVISOR.password), 'invalid_credentials');
    expect(await g.isLocked()).toBe(true);
    const other = await expectCode(() => g.signIn(SUPERVISOR.id, SUPERVISOR.password), 'session_active');
    // Locked: the refusal points at the lock screen's hand-over, not at a Sign out nobody can reach.
    expect(other.params).toEqual({ lockedFor: AGENT.displayName });
    expect(await g.current()).toBeUndefined();

    expect(await g.unlock(AGENT.password)).toMatchObject({ id: AGENT.id });
    expect(await g.current()).toMatchObject({ id: AGENT.id });
    // The idle timer runs again from the unlock.
    await vi.advanceTimersByTimeAsync(MIN);
    expect(await g.isLocked()).toBe(true);
    // Signing in again as the same operator also unlocks.
    expect(await g.signIn('ANA', AGENT.password)).toMatchObject({ id: AGENT.id });
    expect(await g.isLocked()).toBe(false);
  });

  it('follows the same lockout rules as sign-in', async () => {
    const g = await signedIn(AGENT.id, AGENT.password, { idleTimeoutMs: MIN });
    g.lock();
    expect(locks.map((e) => e.reason)).toEqual(['manual']);
    for (let i = 1; i < MAX_FAILED_ATTEMPTS; i++)
      await expectCode(() => g.unlock('wrong password 9'), 'invalid_credentials');
    const locked = await expectCode(() => g.unlock('wrong password 9'), 'locked');
    // How long, by the database's clock (this test's faked Date moves no database).
    expect(locked.lockedForMs).toBe(30 * MIN);
    expect(locked.params).toEqual({ minutes: 30 });
    await expectCode(() => g.unlock(AGENT.password), 'locked');
    expect(await g.isLocked()).toBe(true);
    // The way out is signing out; someone else may then use the desk.
    await g.signOut();
    expect(await g.signIn(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({ id: SUPERVISOR.id });
  });

  it('is refused when nobody is signed in', async () => {
    await expectCode(() => guard().unlock(AGENT.password), 'not_signed_in');
  });
});

describe('sign-in and sign-out', () => {
  it('signs in through the directory and reports refusals as OperatorErrors without the password', async () => {
    const g = guard();
    const wrong = await expectCode(() => g.signIn(AGENT.id, 'wrong password 9'), 'invalid_credentials');
    const unknown = await expectCode(() => g.signIn('nobody', 'wrong password 9'), 'invalid_credentials');
    expect(unknown.toIpcError()).toEqual(wrong.toIpcError());
    expect(wrong.message).not.toContain('wrong password 9');
    await directory.setDisabled(ADMIN.id, SUPERVISOR.id, true);
    await expectCode(() => g.signIn(SUPERVISOR.id, SUPERVISOR.password), 'disabled');
    expect(await g.status()).toEqual({ operator: undefined, locked: false, needsFirstAdmin: false });
    expect(await g.signIn(AGENT.id, AGENT.password)).toEqual({
      id: 'ana',
      displayName: AGENT.displayName,
      role: 'agent',
      disabled: false,
    });
  });

  it('signOut ends the session and its timer', async () => {
    const g = await signedIn();
    await g.signOut();
    expect(await g.current()).toBeUndefined();
    expect(await g.status()).toEqual({ operator: undefined, locked: false, needsFirstAdmin: false });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60 * MIN);
    expect(locks).toEqual([]);
  });

  it('reports a first run', async () => {
    const other = tempDir();
    const empty = await openQuickDirectory(other.dir);
    const g = new SessionGuard({ directory: empty });
    expect(await g.status()).toEqual({ operator: undefined, locked: false, needsFirstAdmin: true });
    await empty.close();
    other.cleanup();
  });

  it('fits the session port the IPC handlers expect (first-admin creation comes from the directory)', async () => {
    const port: Omit<SessionPort, 'createFirstAdmin'> = guard();
    expect(await port.signIn(AGENT.id, AGENT.password)).toMatchObject({ id: AGENT.id });
    expect(await port.status()).toMatchObject({ operator: { id: AGENT.id }, locked: false });
    await port.signOut();
  });
});

describe('requireRole', () => {
  it('returns the operator when their role is allowed, and throws forbidden otherwise', async () => {
    const g = await signedIn();
    expect(await g.requireRole(['agent', 'supervisor'])).toMatchObject({ id: AGENT.id });
    const error = await expectCode(() => g.requireRole(['supervisor', 'admin']), 'forbidden');
    expect(error.params).toEqual({ role: 'agent' });
  });

  it('refuses while locked or signed out', async () => {
    const g = await signedIn();
    g.lock();
    await expectCode(() => g.requireRole(['agent']), 'session_locked');
    await g.signOut();
    await expectCode(() => g.requireRole(['agent']), 'not_signed_in');
  });

  it('follows role changes and disabling made while the operator is signed in', async () => {
    const g = await signedIn();
    await directory.setRole(ADMIN.id, AGENT.id, 'supervisor');
    expect(await g.requireRole(['supervisor'])).toMatchObject({ role: 'supervisor' });
    await directory.setRole(ADMIN.id, AGENT.id, 'agent');
    await expectCode(() => g.requireRole(['supervisor']), 'forbidden');
    await directory.setDisabled(ADMIN.id, AGENT.id, true);
    await expectCode(() => g.requireRole(['agent']), 'not_signed_in');
    expect(locks.map((e) => e.reason)).toEqual(['disabled']);
    expect(await g.status()).toEqual({ operator: undefined, locked: false, needsFirstAdmin: false });
  });
});
