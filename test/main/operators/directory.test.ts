// The operators file: first admin, sign-in and lockout (PCI DSS 8.3.4), admin-only changes, last-admin protection.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LOCKOUT_MS,
  MAX_FAILED_ATTEMPTS,
  OPERATORS_SCHEMA_VERSION,
  OPERATORS_STORE,
  OVERRIDE_MAX_FAILURES,
  OVERRIDE_PAUSE_MS,
  OperatorDirectory,
  type SignInResult,
} from '../../../main/operators';
import { DEFAULT_COST } from '../../../main/operators';
import { hashPassword } from '../../../main/operators/password';
import { useStoreBackends } from '../../support/backends';
import { ADMIN, AGENT, SUPERVISOR, endsIn, expectCode, openQuickDirectory, seeded, tempDir, signedIn } from './helpers';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const MIN = 60_000;

let dir: string;
let cleanup: () => void;
const opened: OperatorDirectory[] = [];
const track = <T extends OperatorDirectory>(d: T): T => {
  opened.push(d);
  return d;
};

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(async () => {
  for (const d of opened.splice(0)) await d.close();
  cleanup();
});

async function fail(d: OperatorDirectory, id: string, times: number, now: number): Promise<SignInResult[]> {
  const results: SignInResult[] = [];
  for (let i = 0; i < times; i++) results.push(await d.signIn(id, 'wrong password 9', now));
  return results;
}

describe('the operators file', () => {
  it('is created in WAL mode with its schema version, and reopens without losing anyone', async () => {
    const path = join(dir, 'operators.db');
    const first = await openQuickDirectory(dir);
    expect(first.schemaVersion).toBe(OPERATORS_SCHEMA_VERSION);
    await first.createFirstAdmin(ADMIN);
    await first.close();
    const again = track(await openQuickDirectory(dir));
    expect(again.schemaVersion).toBe(OPERATORS_SCHEMA_VERSION);
    expect(await again.needsFirstAdmin()).toBe(false);
    expect((await again.signIn(ADMIN.id, ADMIN.password)).ok).toBe(true);
    await again.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('refuses a file written by a newer version of the app', async () => {
    const path = join(dir, 'operators.db');
    const raw = new Database(path);
    raw.pragma(`user_version = ${OPERATORS_SCHEMA_VERSION + 1}`);
    raw.close();
    await expect(openQuickDirectory(dir)).rejects.toThrow(/newer version of the app/);
  });

  it('adopts a file written before the storage layer (user_version 1) with its accounts and lockouts', async () => {
    const path = join(dir, 'operators.db');
    // What the app of the SqliteFile era wrote: its one migration, user_version 1, an admin with two failures.
    const raw = new Database(path);
    raw.exec(`CREATE TABLE operators (
     id TEXT PRIMARY KEY COLLATE NOCASE,
     display_name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('agent', 'supervisor', 'admin')),
     disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
     password_hash TEXT NOT NULL CHECK (password_hash LIKE '$scrypt$%'),
     failed_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
     locked_until INTEGER,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT;`);
    raw.pragma('user_version = 1');
    raw.close();
    const hash = await hashPassword(ADMIN.password, DEFAULT_COST);
    const old = new Database(path);
    old.prepare(`INSERT INTO operators VALUES ('root', 'Root Admin', 'admin', 0, ?, 2, NULL, 1, 1)`).run(hash);
    old.close();

    const d = track(await openQuickDirectory(dir));
    expect(d.schemaVersion).toBe(OPERATORS_SCHEMA_VERSION);
    expect(await d.needsFirstAdmin()).toBe(false);
    expect(await d.view('ROOT')).toEqual({ id: 'root', displayName: 'Root Admin', role: 'admin', disabled: false });
    await fail(d, 'root', MAX_FAILED_ATTEMPTS - 2, T0);
    expect(await d.signIn(ADMIN.id, ADMIN.password, T0)).toMatchObject({ ok: false, reason: 'locked' });
  });
});

describe.each(useStoreBackends([OPERATORS_STORE]))('the operator directory on $name', (backend) => {
  it('names operators by their ids as given, in one read; an id no one has is left out', async () => {
    const d = track(await seeded(await backend.storage()));
    const names = await d.displayNames(['ANA', 'sam', 'nobody', 'ana']);
    expect(Object.fromEntries(names)).toEqual({
      ANA: AGENT.displayName,
      ana: AGENT.displayName,
      sam: SUPERVISOR.displayName,
    });
    expect((await d.displayNames([])).size).toBe(0);
  });

  describe('first run', () => {
    it('needs a first admin only while there is no operator, and creates it once', async () => {
      const d = track(await openQuickDirectory(await backend.storage()));
      expect(await d.needsFirstAdmin()).toBe(true);
      const admin = await d.createFirstAdmin({ ...ADMIN, id: 'Root' });
      expect(admin).toEqual({ id: 'root', displayName: ADMIN.displayName, role: 'admin', disabled: false });
      expect(await d.needsFirstAdmin()).toBe(false);
      const error = await expectCode(
        () => d.createFirstAdmin({ id: 'mallory', displayName: 'M', password: 'another password 2' }),
        'setup_done',
      );
      expect(error.toIpcError()).toEqual({ code: 'setup_done' });
      expect((await d.list(ADMIN.id)).map((o) => o.id)).toEqual(['root']);
    });

    it('lets only one of two simultaneous first-admin requests through', async () => {
      const d = track(await openQuickDirectory(await backend.storage()));
      const results = await Promise.allSettled([
        d.createFirstAdmin(ADMIN),
        d.createFirstAdmin({ id: 'other', displayName: 'Other', password: 'other password 3' }),
      ]);
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(won).toHaveLength(1);
      expect(results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []))).toEqual([
        'setup_done',
      ]);
      expect(await d.list(won[0]?.id ?? '')).toEqual(won);
    });

    it('applies the shared password and id policies, with their own sentences and without echoing the password', async () => {
      const d = track(await openQuickDirectory(await backend.storage()));
      const short = await expectCode(() => d.createFirstAdmin({ ...ADMIN, password: 'short1' }), 'invalid_input');
      expect(short.toIpcError()).toEqual({ code: 'invalid_input', field: 'password' });
      expect(short.message).not.toContain('short1');
      const letters = await expectCode(
        () => d.createFirstAdmin({ ...ADMIN, password: 'onlylettershere' }),
        'invalid_input',
      );
      expect(letters.toIpcError()).toEqual({ code: 'invalid_input', field: 'password' });
      const badId = await expectCode(() => d.createFirstAdmin({ ...ADMIN, id: 'no spaces' }), 'invalid_input');
      expect(badId.toIpcError()).toEqual({ code: 'invalid_input', field: 'id' });
      expect(await d.needsFirstAdmin()).toBe(true);
    });
  });

  describe('signIn', () => {
    it('answers the public view only, whatever the case of the id', async () => {
      const d = track(await seeded(await backend.storage()));
      const result = await d.signIn('ANA', AGENT.password, T0);
      expect(result).toEqual({
        ok: true,
        operator: { id: 'ana', displayName: AGENT.displayName, role: 'agent', disabled: false },
      });
      expect(JSON.stringify(result)).not.toMatch(/scrypt|password/i);
    });

    it('gives the same answer for a wrong password and an unknown id, up to and including the lockout', async () => {
      const d = track(await seeded(await backend.storage()));
      const wrong = await d.signIn(AGENT.id, 'wrong password 9', T0);
      const unknown = await d.signIn('nobody', 'wrong password 9', T0);
      const invalidId = await d.signIn('x', 'wrong password 9', T0);
      expect(wrong).toEqual({ ok: false, reason: 'invalid_credentials' });
      expect(unknown).toEqual(wrong);
      expect(invalidId).toEqual(wrong);
      // The lockout itself must not tell which ids exist either.
      const known = await fail(d, SUPERVISOR.id, MAX_FAILED_ATTEMPTS, T0);
      const ghost = await fail(d, 'ghost', MAX_FAILED_ATTEMPTS, T0);
      expect(ghost).toEqual(known);
      expect(known.at(-1)).toEqual({ ok: false, reason: 'locked', lockedForMs: LOCKOUT_MS });
    });

    it(`locks at exactly ${MAX_FAILED_ATTEMPTS} consecutive failures for 30 minutes (the database's clock): locked with a second left, open at its end`, async () => {
      const storage = await backend.storage();
      const d = track(await seeded(storage));
      const results = await fail(d, AGENT.id, MAX_FAILED_ATTEMPTS, T0);
      expect(results.slice(0, MAX_FAILED_ATTEMPTS - 1).every((r) => !r.ok && r.reason === 'invalid_credentials')).toBe(
        true,
      );
      expect(results[MAX_FAILED_ATTEMPTS - 1]).toEqual({ ok: false, reason: 'locked', lockedForMs: LOCKOUT_MS });
      // Even the right password is refused while locked, whatever this desk's clock says.
      const refused = await d.signIn(AGENT.id, AGENT.password, T0 + LOCKOUT_MS);
      expect(refused).toMatchObject({ ok: false, reason: 'locked' });
      expect(!refused.ok && refused.reason === 'locked' && refused.lockedForMs).toBeGreaterThan(LOCKOUT_MS - MIN);
      // Time passes by the database's clock only: the lock's end moved to a few seconds from now, then to now.
      await endsIn(storage, AGENT.id, 5_000, 'locked_until', backend.center());
      const lastSeconds = await d.signIn(AGENT.id, AGENT.password, T0 + 1);
      expect(!lastSeconds.ok && lastSeconds.reason === 'locked' && lastSeconds.lockedForMs).toBeLessThanOrEqual(5_000);
      // Other operators are not affected.
      expect((await d.signIn(SUPERVISOR.id, SUPERVISOR.password, T0 + 1)).ok).toBe(true);
      await endsIn(storage, AGENT.id, 0, 'locked_until', backend.center());
      expect((await d.signIn(AGENT.id, AGENT.password, T0 + 1)).ok).toBe(true);
    });

    it(`does not lock at ${MAX_FAILED_ATTEMPTS - 1} failures, and a success resets the count`, async () => {
      const d = track(await seeded(await backend.storage()));
      await fail(d, AGENT.id, MAX_FAILED_ATTEMPTS - 1, T0);
      expect((await d.signIn(AGENT.id, AGENT.password, T0)).ok).toBe(true);
      const again = await fail(d, AGENT.id, MAX_FAILED_ATTEMPTS - 1, T0);
      expect(again.every((r) => !r.ok && r.reason === 'invalid_credentials')).toBe(true);
      expect((await d.signIn(AGENT.id, AGENT.password, T0)).ok).toBe(true);
    });

    it('starts the count again once a lockout has run out', async () => {
      const storage = await backend.storage();
      const d = track(await seeded(storage));
      await fail(d, AGENT.id, MAX_FAILED_ATTEMPTS, T0);
      await endsIn(storage, AGENT.id, 0, 'locked_until', backend.center());
      expect(await d.signIn(AGENT.id, 'wrong password 9', T0)).toEqual({ ok: false, reason: 'invalid_credentials' });
      expect((await d.signIn(AGENT.id, AGENT.password, T0)).ok).toBe(true);
    });

    it('counts simultaneous failures without losing any', async () => {
      const d = track(await seeded(await backend.storage()));
      await Promise.all(Array.from({ length: MAX_FAILED_ATTEMPTS }, () => d.signIn(AGENT.id, 'wrong password 9', T0)));
      expect(await d.signIn(AGENT.id, AGENT.password, T0)).toMatchObject({ ok: false, reason: 'locked' });
    });

    it('refuses a disabled operator (and tells so only to someone who knows the password)', async () => {
      const d = track(await seeded(await backend.storage()));
      await d.setDisabled(ADMIN.id, AGENT.id, true);
      expect(await d.signIn(AGENT.id, AGENT.password, T0)).toEqual({ ok: false, reason: 'disabled' });
      expect(await d.signIn(AGENT.id, 'wrong password 9', T0)).toEqual({ ok: false, reason: 'invalid_credentials' });
      await d.setDisabled(ADMIN.id, AGENT.id, false);
      expect((await d.signIn(AGENT.id, AGENT.password, T0)).ok).toBe(true);
    });
  });

  describe('verifyOverride (a signature that is not a sign-in: the manager override)', () => {
    const wrongOverride = (d: OperatorDirectory, id: string) => d.verifyOverride(id, 'wrong password 9', T0);

    it(`counts its own failures per approver: ${OVERRIDE_MAX_FAILURES} wrong in a row pause override for that id, never its sign-in, and the right password after the pause resets the count`, async () => {
      const storage = await backend.storage();
      const d = track(await seeded(storage));
      // The pausing failure is still told as a wrong password; from then on, paused even with the right one.
      for (let i = 0; i < OVERRIDE_MAX_FAILURES; i++)
        expect(await wrongOverride(d, SUPERVISOR.id)).toEqual({ ok: false, reason: 'invalid_credentials' });
      expect(await d.verifyOverride(SUPERVISOR.id, SUPERVISOR.password)).toEqual({
        ok: false,
        reason: 'override_paused',
        pausedForMs: expect.any(Number) as number,
      });
      const paused = await d.verifyOverride(SUPERVISOR.id, SUPERVISOR.password);
      expect(!paused.ok && paused.reason === 'override_paused' && paused.pausedForMs).toBeGreaterThan(
        OVERRIDE_PAUSE_MS - MIN,
      );
      expect(!paused.ok && paused.reason === 'override_paused' && paused.pausedForMs).toBeLessThanOrEqual(
        OVERRIDE_PAUSE_MS,
      );
      // Nothing on the sign-in: the supervisor signs in, and that lifts nothing on override either.
      expect(await d.signIn(SUPERVISOR.id, SUPERVISOR.password, T0)).toMatchObject({ ok: true });
      expect(await d.verifyOverride(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({
        ok: false,
        reason: 'override_paused',
      });
      // Another approver is not paused.
      expect(await d.verifyOverride(ADMIN.id, ADMIN.password)).toMatchObject({ ok: true, operator: { id: ADMIN.id } });

      await endsIn(storage, SUPERVISOR.id, 0, 'override_paused_until', backend.center());
      expect(await d.verifyOverride(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({
        ok: true,
        operator: { id: SUPERVISOR.id },
      });
      // Started over: one short of the pause, and a success resets again.
      for (let i = 0; i < OVERRIDE_MAX_FAILURES - 1; i++) await wrongOverride(d, SUPERVISOR.id);
      expect(await d.verifyOverride(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({ ok: true });
      for (let i = 0; i < OVERRIDE_MAX_FAILURES - 1; i++)
        expect(await wrongOverride(d, SUPERVISOR.id)).toMatchObject({ reason: 'invalid_credentials' });
      expect(await d.verifyOverride(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({ ok: true });
    });

    it('counts simultaneous failures without losing any (one atomic update each)', async () => {
      const d = track(await seeded(await backend.storage()));
      await Promise.all(Array.from({ length: OVERRIDE_MAX_FAILURES }, () => wrongOverride(d, SUPERVISOR.id)));
      expect(await d.verifyOverride(SUPERVISOR.id, SUPERVISOR.password)).toMatchObject({
        ok: false,
        reason: 'override_paused',
      });
    });

    it('answers an unknown id as it answers an account, and respects the sign-in lockout and a disabled account', async () => {
      const d = track(await seeded(await backend.storage()));
      const known: string[] = [];
      const ghost: string[] = [];
      for (let i = 0; i < OVERRIDE_MAX_FAILURES + 1; i++)
        known.push(((await wrongOverride(d, SUPERVISOR.id)) as { reason: string }).reason);
      for (let i = 0; i < OVERRIDE_MAX_FAILURES + 1; i++)
        ghost.push(((await wrongOverride(d, 'ghost')) as { reason: string }).reason);
      expect(ghost).toEqual(known);
      expect(known.at(-1)).toBe('override_paused');

      // An account locked by its own failed sign-ins stays locked for override, and a right password lifts nothing.
      await fail(d, AGENT.id, MAX_FAILED_ATTEMPTS, T0);
      expect(await d.verifyOverride(AGENT.id, AGENT.password)).toEqual({
        ok: false,
        reason: 'locked',
        lockedForMs: expect.any(Number) as number,
      });
      expect(await d.signIn(AGENT.id, AGENT.password, T0)).toMatchObject({ ok: false, reason: 'locked' });
      await d.setDisabled(ADMIN.id, AGENT.id, true);
      await d.resetPassword(ADMIN.id, AGENT.id, AGENT.password);
      expect(await d.verifyOverride(AGENT.id, AGENT.password)).toEqual({ ok: false, reason: 'disabled' });
    });
  });

  describe('admin operations', () => {
    it('let an admin create, change, disable and list operators', async () => {
      const d = track(await seeded(await backend.storage(), { now: () => T0 }));
      const bob = await d.createOperator(ADMIN.id, {
        id: 'Bob.Smith',
        displayName: '  Bob  ',
        role: 'agent',
        password: 'bob password 44',
      });
      expect(bob).toEqual({ id: 'bob.smith', displayName: 'Bob', role: 'agent', disabled: false });
      expect(await d.setRole(ADMIN.id, 'BOB.SMITH', 'supervisor')).toMatchObject({ role: 'supervisor' });
      expect(await d.setDisabled(ADMIN.id, 'bob.smith', true)).toMatchObject({ disabled: true });
      expect(await d.list(ADMIN.id)).toEqual([
        { id: 'ana', displayName: AGENT.displayName, role: 'agent', disabled: false },
        { id: 'bob.smith', displayName: 'Bob', role: 'supervisor', disabled: true },
        { id: 'root', displayName: ADMIN.displayName, role: 'admin', disabled: false },
        { id: 'sam', displayName: SUPERVISOR.displayName, role: 'supervisor', disabled: false },
      ]);
      expect(await d.view('BOB.smith')).toEqual({
        id: 'bob.smith',
        displayName: 'Bob',
        role: 'supervisor',
        disabled: true,
      });
    });

    it('refuse a second operator with the same id in another case', async () => {
      const d = track(await seeded(await backend.storage()));
      const error = await expectCode(
        () => d.createOperator(ADMIN.id, { ...AGENT, id: 'ANA', password: 'different pass 5' }),
        'already_exists',
      );
      expect(error.toIpcError()).toEqual({ code: 'already_exists' });
    });

    it('refuse the audit trail’s own actors as ids (system, anonymous), whatever their case, for the first admin too', async () => {
      const d = track(await openQuickDirectory(await backend.storage()));
      const first = await expectCode(() => d.createFirstAdmin({ ...ADMIN, id: 'System' }), 'invalid_input');
      expect(first.toIpcError()).toEqual({ code: 'invalid_input', field: 'id' });
      expect(await d.needsFirstAdmin()).toBe(true);
      await d.createFirstAdmin(ADMIN);
      await signedIn(d, ADMIN);
      await d.createOperator(ADMIN.id, SUPERVISOR);
      await d.createOperator(ADMIN.id, AGENT);
      for (const id of ['system', 'ANONYMOUS', ' anonymous ']) {
        const error = await expectCode(() => d.createOperator(ADMIN.id, { ...AGENT, id }), 'invalid_input');
        expect(error.field).toBe('id');
      }
      expect((await d.list(ADMIN.id)).map((o) => o.id)).toEqual(['ana', 'root', 'sam']);
      // Ids that only contain the words are ordinary ids.
      await d.createOperator(ADMIN.id, { ...AGENT, id: 'system.admin' });
    });

    it('refuse anyone who is not an enabled admin, and change nothing', async () => {
      const d = track(await seeded(await backend.storage()));
      const before = await d.list(ADMIN.id);
      const actors = [AGENT.id, SUPERVISOR.id, 'nobody'];
      for (const actor of actors) {
        const error = await expectCode(
          () => d.createOperator(actor, { id: 'eve', displayName: 'Eve', role: 'admin', password: 'eve password 77' }),
          'forbidden',
        );
        expect(error.toIpcError()).toEqual({ code: 'forbidden' });
        await expectCode(() => d.setRole(actor, actor === 'nobody' ? AGENT.id : actor, 'admin'), 'forbidden');
        await expectCode(() => d.setDisabled(actor, ADMIN.id, true), 'forbidden');
        await expectCode(() => d.resetPassword(actor, ADMIN.id, 'taken over 123'), 'forbidden');
        await expectCode(() => d.list(actor), 'forbidden');
      }
      // A disabled admin is no admin.
      await d.createOperator(ADMIN.id, {
        id: 'old',
        displayName: 'Old Admin',
        role: 'admin',
        password: 'old admin 1234',
      });
      await d.setDisabled(ADMIN.id, 'old', true);
      await expectCode(() => d.setRole('old', 'old', 'admin'), 'forbidden');
      await expectCode(() => d.list('old'), 'forbidden');
      expect((await d.list(ADMIN.id)).filter((o) => o.id !== 'old')).toEqual(before);
      expect((await d.signIn(ADMIN.id, ADMIN.password)).ok).toBe(true);
    });

    it('refuse to demote or disable the last enabled admin, also themselves', async () => {
      const d = track(await seeded(await backend.storage()));
      const demote = await expectCode(() => d.setRole(ADMIN.id, ADMIN.id, 'supervisor'), 'last_admin');
      expect(demote.toIpcError()).toEqual({ code: 'last_admin' });
      await expectCode(() => d.setDisabled(ADMIN.id, ADMIN.id, true), 'last_admin');
      expect(await d.view(ADMIN.id)).toMatchObject({ role: 'admin', disabled: false });

      // With a second admin, the first may step down; then the second is the last one.
      await d.setRole(ADMIN.id, SUPERVISOR.id, 'admin');
      await signedIn(d, SUPERVISOR);
      expect(await d.setRole(ADMIN.id, ADMIN.id, 'agent')).toMatchObject({ role: 'agent' });
      await expectCode(() => d.setDisabled(SUPERVISOR.id, SUPERVISOR.id, true), 'last_admin');
      await expectCode(() => d.setRole(SUPERVISOR.id, SUPERVISOR.id, 'agent'), 'last_admin');
      // A disabled admin does not count as one.
      await d.createOperator(SUPERVISOR.id, {
        id: 'kim',
        displayName: 'Kim',
        role: 'admin',
        password: 'kim password 12',
      });
      await d.setDisabled(SUPERVISOR.id, 'kim', true);
      await expectCode(() => d.setDisabled(SUPERVISOR.id, SUPERVISOR.id, true), 'last_admin');
      await d.setDisabled(SUPERVISOR.id, 'kim', false);
      expect(await d.setDisabled(SUPERVISOR.id, SUPERVISOR.id, true)).toMatchObject({ disabled: true });
      expect((await d.list('kim')).filter((o) => o.role === 'admin' && !o.disabled).map((o) => o.id)).toEqual(['kim']);
    });

    it('reset a password, which also lifts a lockout at once', async () => {
      const d = track(await seeded(await backend.storage()));
      await fail(d, AGENT.id, MAX_FAILED_ATTEMPTS, T0);
      expect(await d.signIn(AGENT.id, AGENT.password, T0 + 1)).toMatchObject({ ok: false, reason: 'locked' });
      await d.resetPassword(ADMIN.id, AGENT.id, 'fresh password 2');
      expect(await d.signIn(AGENT.id, AGENT.password, T0 + 2)).toEqual({ ok: false, reason: 'invalid_credentials' });
      expect((await d.signIn(AGENT.id, 'fresh password 2', T0 + 3)).ok).toBe(true);
      await expectCode(() => d.resetPassword(ADMIN.id, AGENT.id, 'weak'), 'invalid_input');
      await expectCode(() => d.resetPassword(ADMIN.id, 'nobody', 'fresh password 2'), 'not_found');
    });

    it('report unknown operators and bad values clearly', async () => {
      const d = track(await seeded(await backend.storage()));
      await expectCode(() => d.setRole(ADMIN.id, 'nobody', 'agent'), 'not_found');
      await expectCode(() => d.setDisabled(ADMIN.id, 'nobody', true), 'not_found');
      // A role that bypassed the type checker (it came from outside) is still refused.
      const role = await expectCode(() => d.setRole(ADMIN.id, AGENT.id, 'owner' as never), 'invalid_input');
      expect(role.toIpcError()).toEqual({ code: 'invalid_input', field: 'role' });
      const name = await expectCode(
        () => d.createOperator(ADMIN.id, { ...AGENT, id: 'new', displayName: '   ' }),
        'invalid_input',
      );
      expect(name.toIpcError()).toEqual({ code: 'invalid_input', field: 'displayName' });
    });
  });
});
