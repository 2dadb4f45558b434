/** Operator accounts in their own SQLite file (WAL): scrypt password hashes, lockout after repeated failures, admin-only changes. */
import { randomBytes } from 'node:crypto';
import { SqliteFile } from '../storage/sqlite';
import type { z } from 'zod';
import { DisplayName, NewOperatorId, OperatorId, Password, Role, type OperatorView } from '../../shared/operators';
import { OperatorError } from './errors';
import { DEFAULT_COST, checkCost, hashPassword, needsRehash, verifyPassword, type ScryptCost } from './password';

/** PCI DSS 8.3.4: at most 10 invalid attempts, then locked for at least 30 minutes. */
export const MAX_FAILED_ATTEMPTS = 10;
export const LOCKOUT_MS = 30 * 60_000;
/** Unknown ids get the same lockout, kept in memory for at most this many ids. */
const MAX_UNKNOWN_TRACKED = 1000;

export type SignInResult =
  | { ok: true; operator: OperatorView }
  | { ok: false; reason: 'invalid_credentials' | 'locked' | 'disabled'; lockedUntil?: number };

export interface NewOperator {
  id: string;
  displayName: string;
  role: Role;
  password: string;
}

export interface OperatorDirectoryOptions {
  /** The clock for createdAt / updatedAt and for signIn when no `now` is given (ms since the epoch). */
  now?: () => number;
  /** The scrypt cost for new hashes (default N = 2^15, r = 8, p = 1; never below 2^14, 8, 1). Older hashes are raised at the next sign-in. */
  cost?: ScryptCost;
}

/** Versioned migrations: index + 1 is the schema version kept in PRAGMA user_version. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE operators (
     id TEXT PRIMARY KEY COLLATE NOCASE,
     display_name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('agent', 'supervisor', 'admin')),
     disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
     password_hash TEXT NOT NULL CHECK (password_hash LIKE '$scrypt$%'),
     failed_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
     locked_until INTEGER,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT;`,
];

export const OPERATORS_SCHEMA_VERSION = MIGRATIONS.length;

interface OperatorRecord {
  id: string;
  display_name: string;
  role: Role;
  disabled: number;
  password_hash: string;
  failed_attempts: number;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

const toView = (row: OperatorRecord): OperatorView => ({
  id: row.id,
  displayName: row.display_name,
  role: row.role,
  disabled: row.disabled === 1,
});

/** Ids are compared case-insensitively and stored in lower case. */
const normalizeId = (id: string): string => id.trim().toLowerCase();

/** Parses with a shared schema; a failure becomes an OperatorError naming the field, with the schema's own sentence (never the value). */
function valid<T extends z.ZodType>(schema: T, value: unknown, field: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new OperatorError('invalid_input', result.error.issues[0]?.message ?? 'The value is not valid.', undefined, { field });
}

const isLocked = (lockedUntil: number | null | undefined, now: number): lockedUntil is number =>
  typeof lockedUntil === 'number' && now < lockedUntil;

export class OperatorDirectory {
  private readonly file: SqliteFile;
  private readonly clock: () => number;
  private readonly cost: ScryptCost;
  /** A hash of a random password: unknown ids are checked against it, so they cost the same time. */
  private dummyHash: Promise<string> | undefined;
  /** Failures against ids that do not exist, so that lockout does not tell which ids exist. */
  private readonly unknownFailures = new Map<string, { count: number; lockedUntil: number | undefined }>();

  /** Opens (or creates) the operators file and brings its schema up to date. */
  constructor(path: string, options: OperatorDirectoryOptions = {}) {
    this.clock = options.now ?? Date.now;
    this.cost = checkCost(options.cost ?? DEFAULT_COST);
    // secure_delete: freed pages (an old hash after a reset) are overwritten, not left in the file.
    this.file = new SqliteFile(path, { label: 'operators file', migrations: MIGRATIONS, pragmas: ['secure_delete = ON'] });
  }

  get schemaVersion(): number {
    return this.file.schemaVersion;
  }

  close(): void {
    this.file.close();
  }

  // ---- first run ----

  /** True while there is no operator at all: the app offers to create the first admin. */
  needsFirstAdmin(): boolean {
    return this.file.stmt(`SELECT 1 FROM operators LIMIT 1`).get() === undefined;
  }

  /** Creates the first operator, an admin. Refused once any operator exists. */
  async createFirstAdmin(input: { id: string; displayName: string; password: string }): Promise<OperatorView> {
    const id = normalizeId(valid(NewOperatorId, input.id, 'id'));
    const displayName = valid(DisplayName, input.displayName, 'displayName');
    const password = valid(Password, input.password, 'password');
    if (!this.needsFirstAdmin()) throw setupDone();
    const hash = await hashPassword(password, this.cost);
    return this.file.transaction(() => {
      // Checked again: another call may have created it while this one was hashing.
      if (!this.needsFirstAdmin()) throw setupDone();
      this.insert({ id, displayName, role: 'admin', hash });
      return this.viewOrThrow(id);
    });
  }

  // ---- sign-in ----

  /**
   * Checks an id and password. An unknown id and a wrong password give the same answer after the
   * same scrypt work. After MAX_FAILED_ATTEMPTS consecutive failures the account is locked for
   * LOCKOUT_MS, during which even the right password is refused; a success resets the count.
   * A disabled account is reported as such only to someone who knows its password.
   */
  async signIn(id: string, password: string, now: number = this.clock()): Promise<SignInResult> {
    const key = normalizeId(id);
    const row = OperatorId.safeParse(key).success ? this.record(key) : undefined;
    if (!row) return this.signInUnknown(key, password, now);

    const matches = await verifyPassword(password, row.password_hash, await this.dummy());
    const result = this.file.transaction((): SignInResult => {
      // Read again: another attempt may have locked the account, or an admin reset it, while this one was hashing.
      const current = this.record(key);
      if (!current) return { ok: false, reason: 'invalid_credentials' };
      if (isLocked(current.locked_until, now)) return { ok: false, reason: 'locked', lockedUntil: current.locked_until };
      if (!matches || current.password_hash !== row.password_hash) {
        const lockedUntil = this.recordFailure(key, now);
        return lockedUntil === undefined ? { ok: false, reason: 'invalid_credentials' } : { ok: false, reason: 'locked', lockedUntil };
      }
      if (current.disabled === 1) return { ok: false, reason: 'disabled' };
      this.file.stmt(`UPDATE operators SET failed_attempts = 0, locked_until = NULL WHERE id = ?`).run(key);
      return { ok: true, operator: toView(current) };
    });
    if (result.ok && needsRehash(row.password_hash, this.cost)) await this.rehash(key, row.password_hash, password);
    return result;
  }

  /**
   * Checks an id and password for a signature that is not a sign-in (a supervisor's manager override on an agent's
   * screen): the same answers after the same scrypt work, a locked or disabled account refused, but nothing is
   * counted or reset on the account. Whoever limits such attempts does it in their own place (the refund desk
   * pauses override on its desk), so that someone else's wrong guesses never lock the supervisor out.
   */
  async verify(id: string, password: string, now: number = this.clock()): Promise<SignInResult> {
    const key = normalizeId(id);
    const row = OperatorId.safeParse(key).success ? this.record(key) : undefined;
    const dummy = await this.dummy();
    const matches = await verifyPassword(password, row?.password_hash ?? dummy, dummy);
    const current = row && this.record(key);
    if (!row || !current) return { ok: false, reason: 'invalid_credentials' };
    if (isLocked(current.locked_until, now)) return { ok: false, reason: 'locked', lockedUntil: current.locked_until };
    if (!matches || current.password_hash !== row.password_hash) return { ok: false, reason: 'invalid_credentials' };
    if (current.disabled === 1) return { ok: false, reason: 'disabled' };
    return { ok: true, operator: toView(current) };
  }

  /** The public view of one operator, or undefined (no actor needed: main uses it to re-check a session). */
  view(id: string): OperatorView | undefined {
    const row = this.record(normalizeId(id));
    return row && toView(row);
  }

  // ---- admin operations: each checks that the acting operator is an enabled admin ----

  async createOperator(actorId: string, input: NewOperator): Promise<OperatorView> {
    this.requireAdmin(actorId);
    const id = normalizeId(valid(NewOperatorId, input.id, 'id'));
    const displayName = valid(DisplayName, input.displayName, 'displayName');
    const role = valid(Role, input.role, 'role');
    const password = valid(Password, input.password, 'password');
    if (this.record(id)) throw alreadyExists(id);
    const hash = await hashPassword(password, this.cost);
    return this.file.transaction(() => {
      this.requireAdmin(actorId);
      if (this.record(id)) throw alreadyExists(id);
      this.insert({ id, displayName, role, hash });
      this.unknownFailures.delete(id);
      return this.viewOrThrow(id);
    });
  }

  setRole(actorId: string, id: string, role: Role): OperatorView {
    return this.file.transaction(() => {
      this.requireAdmin(actorId);
      const newRole = valid(Role, role, 'role');
      const target = this.target(id);
      if (target.role === newRole) return toView(target);
      if (newRole !== 'admin') this.keepAnAdmin(target, 'change the role of');
      this.file.stmt(`UPDATE operators SET role = ?, updated_at = ? WHERE id = ?`).run(newRole, this.clock(), target.id);
      return this.viewOrThrow(target.id);
    });
  }

  setDisabled(actorId: string, id: string, disabled: boolean): OperatorView {
    return this.file.transaction(() => {
      this.requireAdmin(actorId);
      if (typeof disabled !== 'boolean') throw new OperatorError('invalid_input', 'Say whether the account is disabled (true or false).', undefined, { field: 'disabled' });
      const target = this.target(id);
      if ((target.disabled === 1) === disabled) return toView(target);
      if (disabled) this.keepAnAdmin(target, 'disable');
      this.file.stmt(`UPDATE operators SET disabled = ?, updated_at = ? WHERE id = ?`).run(disabled ? 1 : 0, this.clock(), target.id);
      return this.viewOrThrow(target.id);
    });
  }

  /** Sets a new password and clears any lockout. */
  async resetPassword(actorId: string, id: string, password: string): Promise<void> {
    this.requireAdmin(actorId);
    const target = this.target(id);
    const newPassword = valid(Password, password, 'password');
    const hash = await hashPassword(newPassword, this.cost);
    this.file.transaction(() => {
      this.requireAdmin(actorId);
      this.target(target.id);
      this.file.stmt(`UPDATE operators SET password_hash = ?, failed_attempts = 0, locked_until = NULL, updated_at = ? WHERE id = ?`).run(
        hash,
        this.clock(),
        target.id,
      );
    });
  }

  list(actorId: string): OperatorView[] {
    this.requireAdmin(actorId);
    return (this.file.stmt(`SELECT * FROM operators ORDER BY id`).all() as OperatorRecord[]).map(toView);
  }

  // ---- internals ----

  private async signInUnknown(key: string, password: string, now: number): Promise<SignInResult> {
    const dummy = await this.dummy();
    await verifyPassword(password, dummy, dummy);
    const tracked = this.unknownFailures.get(key);
    if (tracked && isLocked(tracked.lockedUntil, now)) return { ok: false, reason: 'locked', lockedUntil: tracked.lockedUntil };
    const count = (tracked && tracked.lockedUntil === undefined ? tracked.count : 0) + 1;
    const lockedUntil = count >= MAX_FAILED_ATTEMPTS ? now + LOCKOUT_MS : undefined;
    this.unknownFailures.delete(key);
    this.unknownFailures.set(key, { count, lockedUntil });
    if (this.unknownFailures.size > MAX_UNKNOWN_TRACKED) {
      const oldest = this.unknownFailures.keys().next();
      if (!oldest.done) this.unknownFailures.delete(oldest.value);
    }
    return lockedUntil === undefined ? { ok: false, reason: 'invalid_credentials' } : { ok: false, reason: 'locked', lockedUntil };
  }

  /** Counts one failure; returns the lock's end when this failure locks the account. A lock that has run out starts the count again. */
  private recordFailure(id: string, now: number): number | undefined {
    const row = this.file.stmt(
      `UPDATE operators SET
         failed_attempts = (CASE WHEN locked_until IS NOT NULL AND locked_until <= @now THEN 0 ELSE failed_attempts END) + 1,
         locked_until = CASE
           WHEN (CASE WHEN locked_until IS NOT NULL AND locked_until <= @now THEN 0 ELSE failed_attempts END) + 1 >= @max THEN @until
           ELSE NULL END
       WHERE id = @id
       RETURNING locked_until`,
    ).get({ id, now, max: MAX_FAILED_ATTEMPTS, until: now + LOCKOUT_MS }) as { locked_until: number | null } | undefined;
    return row?.locked_until ?? undefined;
  }

  /** Raises an older, weaker hash to the current cost, unless the password was changed meanwhile. */
  private async rehash(id: string, oldHash: string, password: string): Promise<void> {
    const hash = await hashPassword(password, this.cost);
    this.file.stmt(`UPDATE operators SET password_hash = ? WHERE id = ? AND password_hash = ?`).run(hash, id, oldHash);
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(24).toString('base64'), this.cost);
    return this.dummyHash;
  }

  private requireAdmin(actorId: string): void {
    const actor = this.record(normalizeId(actorId));
    if (!actor || actor.disabled === 1 || actor.role !== 'admin') {
      throw new OperatorError('forbidden', 'Only an enabled admin can manage operator accounts.');
    }
  }

  private target(id: string): OperatorRecord {
    const row = this.record(normalizeId(id));
    if (!row) throw new OperatorError('not_found', `There is no operator with the id "${normalizeId(id).slice(0, 32)}".`);
    return row;
  }

  /** Refuses a change that would take the last enabled admin away. */
  private keepAnAdmin(target: OperatorRecord, action: string): void {
    if (target.role !== 'admin' || target.disabled === 1) return;
    const { n } = this.file.stmt(`SELECT count(*) AS n FROM operators WHERE role = 'admin' AND disabled = 0`).get() as { n: number };
    if (n <= 1) {
      throw new OperatorError(
        'last_admin',
        `You cannot ${action} the last enabled admin: make another operator an admin first, so someone can still manage accounts.`,
      );
    }
  }

  private insert(o: { id: string; displayName: string; role: Role; hash: string }): void {
    const at = this.clock();
    this.file.stmt(
      `INSERT INTO operators (id, display_name, role, disabled, password_hash, failed_attempts, locked_until, created_at, updated_at)
       VALUES (?, ?, ?, 0, ?, 0, NULL, ?, ?)`,
    ).run(o.id, o.displayName, o.role, o.hash, at, at);
  }

  private record(id: string): OperatorRecord | undefined {
    return this.file.stmt(`SELECT * FROM operators WHERE id = ?`).get(id) as OperatorRecord | undefined;
  }

  private viewOrThrow(id: string): OperatorView {
    const row = this.record(id);
    if (!row) throw new Error('operators: the operator was not stored');
    return toView(row);
  }
}

const setupDone = (): OperatorError =>
  new OperatorError('setup_done', 'The first admin already exists: ask an admin to create your account.');

const alreadyExists = (id: string): OperatorError =>
  new OperatorError('already_exists', `An operator with the id "${id}" already exists (ids ignore upper and lower case).`);
