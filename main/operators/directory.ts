/**
 * Operator accounts (the embedded operators.db, or the center's shared by every desk): scrypt password hashes, lockout
 * after repeated failures counted by the database, admin-only changes, and one open session per operator in the center.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { z } from 'zod';
import { DisplayName, NewOperatorId, OperatorId, Password, Role, type OperatorView } from '../../shared/operators';
import { zodRefusal } from '../errors';
import { isUniqueViolation, type Storage, type StoreDatabase } from '../storage';
import { CenterOperators, type CenterOverrideResult } from './center';
import { DeskSessions, type OpenSessionResult, type SessionState } from './desk-sessions';
import { OperatorError } from './errors';
import {
  INVALID,
  LOCKOUT_MS,
  Lockouts,
  MAX_FAILED_ATTEMPTS,
  OVERRIDE_MAX_FAILURES,
  OVERRIDE_PAUSE_MS,
  countUnknown,
  isLocked,
  lockedFor,
  pausedFor,
  type OverrideResult,
  type SignInResult,
  type UnknownFailures,
} from './lockout';
import { DEFAULT_COST, checkCost, hashPassword, needsRehash, verifyPassword, type ScryptCost } from './password';
import { PUBLIC_COLUMNS, normalizeId, toView, type Db, type OperatorRecord, type PublicRecord } from './rows';
import { OPERATORS_STORE, type OperatorsDB } from './store';

export {
  LOCKOUT_MS,
  MAX_FAILED_ATTEMPTS,
  OVERRIDE_MAX_FAILURES,
  OVERRIDE_PAUSE_MS,
  type OverrideResult,
  type SignInResult,
} from './lockout';
export type { OpenSessionResult, SessionHolder, SessionState } from './desk-sessions';

export interface NewOperator {
  id: string;
  displayName: string;
  role: Role;
  password: string;
}

export interface OperatorDirectoryOptions {
  /**
   * The desk's clock (ms since the epoch): createdAt / updatedAt, sessions, and the lockout of ids that do not exist (kept
   * in this desk's memory). An account's lockout is the database's clock, never this one.
   */
  now?: () => number;
  /** The scrypt cost for new hashes (default N = 2^15, r = 8, p = 1; never below 2^14, 8, 1). Older hashes are raised at the next sign-in. */
  cost?: ScryptCost;
}

/** The number of the store's SQLite migrations (the operators file's schema version). */
export const OPERATORS_SCHEMA_VERSION = Object.keys(OPERATORS_STORE.sqlite.migrations).length;

/** A read-check-write across desks (first admin, last admin): serializable on the center, run again after a collision. */
const SERIAL = { isolation: 'serializable', retries: 5 } as const;

/** Parses with a shared schema; a failure becomes an OperatorError naming the field (never the value). */
function valid<T extends z.ZodType>(schema: T, value: unknown, field: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new OperatorError('invalid_input', { field: zodRefusal(result.error, 'invalid_input', [field]).field });
}

export class OperatorDirectory {
  private readonly clock: () => number;
  private readonly cost: ScryptCost;
  /** A hash of a random password: unknown ids are checked against it, so they cost the same time. */
  private dummyHash: Promise<string> | undefined;
  /** Failures against ids that do not exist, so that lockout does not tell which ids exist (per desk: nothing to store). */
  private readonly unknownFailures: UnknownFailures = new Map();
  /** The same for manager override's approver ids that do not exist. */
  private readonly unknownOverrides: UnknownFailures = new Map();
  /** The lockout's SQL, by the database's clock. */
  private readonly lockouts: Lockouts;
  /** The embedded file's sessions of this desk. */
  private readonly sessions: DeskSessions;
  /** On the center: every sign-in, session and change goes through its functions (the desk reads no hash). */
  private readonly center: CenterOperators | undefined;

  private constructor(
    private readonly store: StoreDatabase<OperatorsDB>,
    /** This desk: every session row and new account names it. */
    readonly deskId: string,
    options: OperatorDirectoryOptions,
  ) {
    this.clock = options.now ?? Date.now;
    this.cost = checkCost(options.cost ?? DEFAULT_COST);
    this.lockouts = new Lockouts(store.backend);
    this.sessions = new DeskSessions(store.db, deskId, this.clock);
    this.center = store.backend === 'postgres' ? new CenterOperators(store.db, deskId, this.cost) : undefined;
  }

  /** Opens the directory where the storage keeps it (operators.db, created or migrated; or the center's). */
  static async open(
    storage: Storage,
    desk: { deskId: string },
    options: OperatorDirectoryOptions = {},
  ): Promise<OperatorDirectory> {
    const cost = checkCost(options.cost ?? DEFAULT_COST);
    const store = await storage.open<OperatorsDB>(OPERATORS_STORE);
    return new OperatorDirectory(store, desk.deskId, { ...options, cost });
  }

  get schemaVersion(): number {
    return this.store.schemaVersion;
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private get db(): StoreDatabase<OperatorsDB>['db'] {
    return this.store.db;
  }

  // ---- first run ----

  /** True while there is no operator at all: the app offers to create the first admin. */
  async needsFirstAdmin(db: Db = this.db): Promise<boolean> {
    return (await db.selectFrom('operators').select('id').limit(1).executeTakeFirst()) === undefined;
  }

  /** Creates the first operator, an admin. Refused once any operator exists (at any desk of the center). */
  async createFirstAdmin(input: { id: string; displayName: string; password: string }): Promise<OperatorView> {
    const id = normalizeId(valid(NewOperatorId, input.id, 'id'));
    const displayName = valid(DisplayName, input.displayName, 'displayName');
    const password = valid(Password, input.password, 'password');
    if (!(await this.needsFirstAdmin())) throw setupDone();
    const hash = await hashPassword(password, this.cost);
    if (this.center) {
      if ((await this.center.createFirstAdmin(id, displayName, hash)) !== 'ok') throw setupDone();
      return this.viewOrThrow(this.db, id);
    }
    try {
      return await this.store.transaction(async (trx) => {
        // Checked again: another call (or desk) may have created it while this one was hashing.
        if (!(await this.needsFirstAdmin(trx))) throw setupDone();
        await this.insert(trx, { id, displayName, role: 'admin', hash, createdBy: undefined });
        return this.viewOrThrow(trx, id);
      }, SERIAL);
    } catch (error) {
      if (isUniqueViolation(error)) throw setupDone();
      throw error;
    }
  }

  // ---- sign-in ----

  /**
   * Checks an id and password. An unknown id and a wrong password give the same answer after the
   * same scrypt work. After MAX_FAILED_ATTEMPTS consecutive failures the account is locked for
   * LOCKOUT_MS, during which even the right password is refused; a success resets the count.
   * A disabled account is reported as such only to someone who knows its password. The count and the lock are the
   * center's: every desk's failures add up (one atomic update each), and a lock holds at every desk. The lock's end is
   * written and compared by the database's clock, so a desk whose clock is off neither ignores nor shortens it; `now`
   * (this desk's clock) only times the lockout of ids that do not exist, kept in this desk's memory.
   */
  async signIn(id: string, password: string, now: number = this.clock()): Promise<SignInResult> {
    const key = normalizeId(id);
    if (this.center)
      return OperatorId.safeParse(key).success ? this.center.signIn(key, password) : this.unknownAtCenter();
    const row = OperatorId.safeParse(key).success ? await this.embeddedRecord(this.db, key) : undefined;
    if (!row) return this.signInUnknown(key, password, now);

    const matches = await verifyPassword(password, row.password_hash, await this.dummy());
    const result = await this.store.transaction(async (trx): Promise<SignInResult> => {
      // Read again: another attempt may have locked the account, or an admin reset it, while this one was hashing.
      const current = await this.lockouts.lockState(trx, key);
      if (!current) return { ok: false, reason: 'invalid_credentials' };
      if (current.locked_for_ms !== null) return lockedFor(current.locked_for_ms);
      if (!matches || current.password_hash !== row.password_hash) {
        const lockedForMs = await this.lockouts.recordFailure(trx, key);
        return lockedForMs === undefined ? { ok: false, reason: 'invalid_credentials' } : lockedFor(lockedForMs);
      }
      if (current.disabled === 1) return { ok: false, reason: 'disabled' };
      // Only while still unlocked: another desk's failure may have locked it since the read above.
      const dbNow = this.lockouts.dbNow();
      const reset = await trx
        .updateTable('operators')
        .set({ failed_attempts: 0, locked_until: null })
        .where('id', '=', key)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', dbNow)]))
        .returning('id')
        .executeTakeFirst();
      if (reset === undefined) return lockedFor((await this.lockouts.lockState(trx, key))?.locked_for_ms ?? LOCKOUT_MS);
      return { ok: true, operator: toView(current) };
    });
    if (result.ok && needsRehash(row.password_hash, this.cost)) await this.rehash(key, row.password_hash, password);
    return result;
  }

  /**
   * Checks an approver's id and password for a manager override (a supervisor signing on an agent's screen): the same
   * answers as signIn after the same scrypt work, a locked or disabled account refused, but nothing counted or reset on
   * the account's sign-in. Wrong passwords are counted per approver id for the whole center, in their own columns (one
   * atomic update each, by the database's clock): OVERRIDE_MAX_FAILURES in a row, at any desks, pause override with that
   * id everywhere for OVERRIDE_PAUSE_MS (refused even with the right password, which is not checked then); the right
   * password resets the count. So someone else's wrong guesses never lock the supervisor out of their own sign-in, and
   * override is no way around the lockout (PCI DSS 8.3.4: invalid attempts counted per user id). Ids that do not exist
   * get the same answers, counted in this desk's memory (`now`: this desk's clock, for those only).
   */
  async verifyOverride(id: string, password: string, now: number = this.clock()): Promise<CenterOverrideResult> {
    const key = normalizeId(id);
    if (this.center)
      return OperatorId.safeParse(key).success ? this.center.verifyOverride(key, password) : this.unknownAtCenter();
    const row = OperatorId.safeParse(key).success ? await this.lockouts.lockState(this.db, key) : undefined;
    if (!row) return this.overrideUnknown(key, password, now);
    if (row.paused_for_ms !== null) return pausedFor(row.paused_for_ms);
    const matches = await verifyPassword(password, row.password_hash, await this.dummy());
    return this.store.transaction(async (trx): Promise<OverrideResult> => {
      // Read again: another desk may have paused override, or an admin reset the password, while this one was hashing.
      const current = await this.lockouts.lockState(trx, key);
      if (!current) return INVALID;
      if (current.paused_for_ms !== null) return pausedFor(current.paused_for_ms);
      if (current.locked_for_ms !== null) return lockedFor(current.locked_for_ms);
      const notPaused = this.lockouts.notPausedSql();
      if (!matches || current.password_hash !== row.password_hash) {
        // One atomic update, only while not paused (another desk's failure may have paused it since the read above); the
        // failure that pauses is still answered as a wrong password, the next ones as paused.
        const count = sql<number>`(CASE WHEN override_paused_until IS NULL THEN override_failures ELSE 0 END) + 1`;
        const counted = await trx
          .updateTable('operators')
          .set({
            override_failures: sql<number>`CASE WHEN ${count} >= ${OVERRIDE_MAX_FAILURES} THEN 0 ELSE ${count} END`,
            override_paused_until: sql<
              number | null
            >`CASE WHEN ${count} >= ${OVERRIDE_MAX_FAILURES} THEN ${this.lockouts.dbNow()} + ${OVERRIDE_PAUSE_MS} ELSE NULL END`,
          })
          .where('id', '=', key)
          .where(notPaused)
          .returning('id')
          .executeTakeFirst();
        return counted !== undefined
          ? INVALID
          : pausedFor((await this.lockouts.lockState(trx, key))?.paused_for_ms ?? OVERRIDE_PAUSE_MS);
      }
      if (current.disabled === 1) return { ok: false, reason: 'disabled' };
      const reset = await trx
        .updateTable('operators')
        .set({ override_failures: 0, override_paused_until: null })
        .where('id', '=', key)
        .where(notPaused)
        .returning('id')
        .executeTakeFirst();
      if (reset === undefined)
        return pausedFor((await this.lockouts.lockState(trx, key))?.paused_for_ms ?? OVERRIDE_PAUSE_MS);
      return { ok: true, operator: toView(current) };
    });
  }

  /** The public view of one operator, or undefined (no actor needed: main uses it to re-check a session). */
  async view(id: string): Promise<OperatorView | undefined> {
    const row = await this.record(this.db, normalizeId(id));
    return row && toView(row);
  }

  /** The display names of these operators (by their ids as given), in one read; an id no one has is left out. */
  async displayNames(ids: readonly string[]): Promise<Map<string, string>> {
    const byKey = new Map<string, string[]>();
    for (const id of ids) byKey.set(normalizeId(id), [...(byKey.get(normalizeId(id)) ?? []), id]);
    if (byKey.size === 0) return new Map();
    const rows = await this.db
      .selectFrom('operators')
      .select(['id', 'display_name'])
      .where('id', 'in', [...byKey.keys()])
      .execute();
    return new Map(rows.flatMap((row) => (byKey.get(row.id) ?? []).map((id) => [id, row.display_name] as const)));
  }

  // ---- the center's sessions: one open session per operator (DeskSessions) ----

  openSession(
    operatorId: string,
    now: number = this.clock(),
    options: { takeOver?: boolean } = {},
  ): Promise<OpenSessionResult> {
    if (this.center) return this.center.openSession(normalizeId(operatorId), options.takeOver === true);
    return this.sessions.openSession(operatorId, now, options);
  }

  async sessionState(operatorId: string, sessionId: string, seenAt?: number): Promise<SessionState> {
    if (!this.center) return this.sessions.sessionState(operatorId, sessionId, seenAt);
    const id = normalizeId(operatorId);
    const open = await this.center.sessionOpen(id, sessionId, seenAt !== undefined);
    const row = await this.record(this.db, id);
    if (row === undefined) return { operator: undefined, session: { endedBy: undefined } };
    if (open) return { operator: toView(row), session: 'open' };
    const holder = await this.db
      .selectFrom('sessions')
      .select(['desk_id', 'started_at'])
      .where('operator_id', '=', id)
      .executeTakeFirst();
    const endedBy = holder === undefined ? undefined : { deskId: holder.desk_id, since: Number(holder.started_at) };
    return { operator: toView(row), session: { endedBy } };
  }

  markSession(sessionId: string, locked: boolean, now: number = this.clock()): Promise<boolean> {
    if (this.center) return this.center.markSession(sessionId, locked);
    return this.sessions.markSession(sessionId, locked, now);
  }

  closeSession(sessionId: string): Promise<void> {
    if (this.center) return this.center.closeSession(sessionId);
    return this.sessions.closeSession(sessionId);
  }

  closeDeskSessions(): Promise<number> {
    if (this.center) return this.center.closeDeskSessions();
    return this.sessions.closeDeskSessions();
  }

  /** On the center: the session `operatorId` has open at this desk, for another store's functions to act through. */
  actingSession(operatorId: string): string | undefined {
    return this.center?.actingSession(normalizeId(operatorId));
  }

  // ---- admin operations: each checks that the acting operator is an enabled admin ----

  async createOperator(actorId: string, input: NewOperator): Promise<OperatorView> {
    await this.requireAdmin(this.db, actorId);
    const id = normalizeId(valid(NewOperatorId, input.id, 'id'));
    const displayName = valid(DisplayName, input.displayName, 'displayName');
    const role = valid(Role, input.role, 'role');
    const password = valid(Password, input.password, 'password');
    if (await this.record(this.db, id)) throw alreadyExists();
    const hash = await hashPassword(password, this.cost);
    if (this.center) {
      await this.center.createOperator(normalizeId(actorId), id, displayName, role, hash);
      this.unknownFailures.delete(id);
      this.unknownOverrides.delete(id);
      return this.viewOrThrow(this.db, id);
    }
    try {
      const view = await this.store.transaction(async (trx) => {
        const actor = await this.requireAdmin(trx, actorId);
        if (await this.record(trx, id)) throw alreadyExists();
        await this.insert(trx, { id, displayName, role, hash, createdBy: actor.id });
        return this.viewOrThrow(trx, id);
      });
      this.unknownFailures.delete(id);
      this.unknownOverrides.delete(id);
      return view;
    } catch (error) {
      // Another desk created the same id meanwhile.
      if (isUniqueViolation(error)) throw alreadyExists();
      throw error;
    }
  }

  async setRole(actorId: string, id: string, role: Role): Promise<OperatorView> {
    if (this.center) {
      await this.requireAdmin(this.db, actorId);
      await this.center.setRole(normalizeId(actorId), normalizeId(id), valid(Role, role, 'role'));
      return this.viewOrThrow(this.db, normalizeId(id));
    }
    return this.store.transaction(async (trx) => {
      await this.requireAdmin(trx, actorId);
      const newRole = valid(Role, role, 'role');
      const target = await this.target(trx, id);
      if (target.role === newRole) return toView(target);
      if (newRole !== 'admin') await this.keepAnAdmin(trx, target);
      await trx
        .updateTable('operators')
        .set({ role: newRole, updated_at: this.clock() })
        .where('id', '=', target.id)
        .execute();
      return this.viewOrThrow(trx, target.id);
    }, SERIAL);
  }

  async setDisabled(actorId: string, id: string, disabled: boolean): Promise<OperatorView> {
    if (this.center) {
      await this.requireAdmin(this.db, actorId);
      if (typeof disabled !== 'boolean') throw new OperatorError('invalid_input', { field: 'disabled' });
      await this.center.setDisabled(normalizeId(actorId), normalizeId(id), disabled);
      return this.viewOrThrow(this.db, normalizeId(id));
    }
    return this.store.transaction(async (trx) => {
      await this.requireAdmin(trx, actorId);
      if (typeof disabled !== 'boolean') throw new OperatorError('invalid_input', { field: 'disabled' });
      const target = await this.target(trx, id);
      if ((target.disabled === 1) === disabled) return toView(target);
      if (disabled) await this.keepAnAdmin(trx, target);
      await trx
        .updateTable('operators')
        .set({ disabled: disabled ? 1 : 0, updated_at: this.clock() })
        .where('id', '=', target.id)
        .execute();
      return this.viewOrThrow(trx, target.id);
    }, SERIAL);
  }

  /** Sets a new password and clears any lockout (the sign-in's, and manager override's pause for this id). */
  async resetPassword(actorId: string, id: string, password: string): Promise<void> {
    await this.requireAdmin(this.db, actorId);
    const target = await this.target(this.db, id);
    const newPassword = valid(Password, password, 'password');
    const hash = await hashPassword(newPassword, this.cost);
    if (this.center) {
      await this.center.resetPassword(normalizeId(actorId), target.id, hash);
      return;
    }
    await this.store.transaction(async (trx) => {
      await this.requireAdmin(trx, actorId);
      await this.target(trx, target.id);
      await trx
        .updateTable('operators')
        .set({
          password_hash: hash,
          failed_attempts: 0,
          locked_until: null,
          override_failures: 0,
          override_paused_until: null,
          updated_at: this.clock(),
        })
        .where('id', '=', target.id)
        .execute();
    });
  }

  async list(actorId: string): Promise<OperatorView[]> {
    await this.requireAdmin(this.db, actorId);
    return (await this.db.selectFrom('operators').select(PUBLIC_COLUMNS).orderBy('id').execute()).map(toView);
  }

  // ---- internals ----

  /** An id that cannot be one: answered as a wrong password after the same work, as an account's would be. */
  private async unknownAtCenter(): Promise<SignInResult> {
    const dummy = await this.dummy();
    await verifyPassword(randomBytes(12).toString('base64'), dummy, dummy);
    return INVALID;
  }

  private async signInUnknown(key: string, password: string, now: number): Promise<SignInResult> {
    const dummy = await this.dummy();
    await verifyPassword(password, dummy, dummy);
    const tracked = this.unknownFailures.get(key);
    if (tracked && isLocked(tracked.lockedUntil, now)) return lockedFor(tracked.lockedUntil - now);
    return countUnknown(this.unknownFailures, key, tracked, now, MAX_FAILED_ATTEMPTS, LOCKOUT_MS)
      ? lockedFor(LOCKOUT_MS)
      : INVALID;
  }

  /** An override signed with an id that does not exist: answered as an account's would be (paused before the hash, as there). */
  private async overrideUnknown(key: string, password: string, now: number): Promise<OverrideResult> {
    const tracked = this.unknownOverrides.get(key);
    if (tracked && isLocked(tracked.lockedUntil, now)) return pausedFor(tracked.lockedUntil - now);
    const dummy = await this.dummy();
    await verifyPassword(password, dummy, dummy);
    countUnknown(this.unknownOverrides, key, tracked, now, OVERRIDE_MAX_FAILURES, OVERRIDE_PAUSE_MS);
    return INVALID;
  }

  /** Raises an older, weaker hash to the current cost, unless the password was changed meanwhile. */
  private async rehash(id: string, oldHash: string, password: string): Promise<void> {
    const hash = await hashPassword(password, this.cost);
    await this.db
      .updateTable('operators')
      .set({ password_hash: hash })
      .where('id', '=', id)
      .where('password_hash', '=', oldHash)
      .execute();
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(24).toString('base64'), this.cost);
    return this.dummyHash;
  }

  private async requireAdmin(db: Db, actorId: string): Promise<PublicRecord> {
    const actor = await this.record(db, normalizeId(actorId));
    if (!actor || actor.disabled === 1 || actor.role !== 'admin') {
      throw new OperatorError('forbidden');
    }
    return actor;
  }

  private async target(db: Db, id: string): Promise<PublicRecord> {
    const row = await this.record(db, normalizeId(id));
    if (!row) throw new OperatorError('not_found');
    return row;
  }

  /** Refuses a change that would take the last enabled admin away (serializable: two desks cannot each take one). */
  private async keepAnAdmin(db: Db, target: PublicRecord): Promise<void> {
    if (target.role !== 'admin' || target.disabled === 1) return;
    const admins = await db
      .selectFrom('operators')
      .select('id')
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .execute();
    if (admins.length <= 1) {
      throw new OperatorError('last_admin');
    }
  }

  private async insert(
    db: Db,
    o: { id: string; displayName: string; role: Role; hash: string; createdBy: string | undefined },
  ): Promise<void> {
    const at = this.clock();
    await db
      .insertInto('operators')
      .values({
        id: o.id,
        display_name: o.displayName,
        role: o.role,
        disabled: 0,
        password_hash: o.hash,
        failed_attempts: 0,
        locked_until: null,
        override_failures: 0,
        override_paused_until: null,
        created_at: at,
        updated_at: at,
        desk_id: this.deskId,
        created_by: o.createdBy ?? null,
      })
      .execute();
  }

  /** An account as every desk may read it (on the center, a desk's login reads no hash). */
  private record(db: Db, id: string): Promise<PublicRecord | undefined> {
    return db.selectFrom('operators').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** An account with its hash: the embedded file only. */
  private embeddedRecord(db: Db, id: string): Promise<OperatorRecord | undefined> {
    return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private async viewOrThrow(db: Db, id: string): Promise<OperatorView> {
    const row = await this.record(db, id);
    if (!row) throw new Error('operators: the operator was not stored');
    return toView(row);
  }
}

const setupDone = (): OperatorError => new OperatorError('setup_done');

const alreadyExists = (): OperatorError => new OperatorError('already_exists');
