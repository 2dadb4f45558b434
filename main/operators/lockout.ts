/**
 * Lockout: a sign-in's failures counted per account by the database (PCI DSS 8.3.4), manager override's per approver id
 * apart from them, both by the database's clock; ids that do not exist get the same answers, counted in a desk's memory.
 */
import { sql, type RawBuilder } from 'kysely';
import type { OperatorView } from '../../shared/operators';
import { databaseNowMs, type StoreDatabase } from '../storage';
import type { Db, OperatorRecord } from './rows';
import type { OperatorsDB } from './store';

/** PCI DSS 8.3.4: at most 10 invalid attempts, then locked for at least 30 minutes. */
export const MAX_FAILED_ATTEMPTS = 10;
export const LOCKOUT_MS = 30 * 60_000;
/**
 * Manager override (a supervisor's password typed on an agent's screen): this many wrong passwords in a row for one
 * approver id, at any desks of the center, pause override with that id everywhere…
 */
export const OVERRIDE_MAX_FAILURES = 5;
/** …for this long (the approver's own sign-in is never locked by them; the approvals queue stays open). */
export const OVERRIDE_PAUSE_MS = 5 * 60_000;
/** Unknown ids get the same lockout, kept in memory for at most this many ids. */
const MAX_UNKNOWN_TRACKED = 1000;

export type SignInResult =
  | { ok: true; operator: OperatorView }
  | { ok: false; reason: 'invalid_credentials' | 'disabled' }
  /** `lockedForMs`: how long the lock still lasts, by the database's clock (a desk's own clock may be off). */
  | { ok: false; reason: 'locked'; lockedForMs: number };

/** A manager override's signature: a sign-in's answers, or override paused for this approver id (for so long, the database's clock). */
export type OverrideResult = SignInResult | { ok: false; reason: 'override_paused'; pausedForMs: number };

/** An operator's row with how long its lock and its override pause still last by the database's clock (null: none). */
export type LockedRecord = OperatorRecord & { locked_for_ms: number | null; paused_for_ms: number | null };

/** Failures against ids that do not exist, counted in a desk's memory: the same answers as for an account, so they tell nothing. */
export type UnknownFailures = Map<string, { count: number; lockedUntil: number | undefined }>;

export const isLocked = (lockedUntil: number | null | undefined, now: number): lockedUntil is number =>
  typeof lockedUntil === 'number' && now < lockedUntil;

export const lockedFor = (lockedForMs: number): SignInResult => ({ ok: false, reason: 'locked', lockedForMs });
export const pausedFor = (pausedForMs: number): OverrideResult => ({
  ok: false,
  reason: 'override_paused',
  pausedForMs,
});
export const INVALID = { ok: false, reason: 'invalid_credentials' } as const;

/** The lockout's SQL on one backend: every desk's lockouts are written and compared by the database's clock. */
export class Lockouts {
  constructor(private readonly backend: StoreDatabase<OperatorsDB>['backend']) {}

  /** The database's clock (ms since the epoch), as SQL: every desk's lockouts are written and compared by it. */
  dbNow(): RawBuilder<number> {
    return databaseNowMs(this.backend);
  }

  /** How long `locked_until` still holds by the database's clock; null when it is not locked. */
  lockedForSql(): RawBuilder<number | null> {
    const now = this.dbNow();
    return sql<number | null>`CASE WHEN locked_until > ${now} THEN locked_until - ${now} ELSE NULL END`;
  }

  /** How long manager override stays paused for the row's id by the database's clock; null when it is not. */
  pausedForSql(): RawBuilder<number | null> {
    const now = this.dbNow();
    return sql<
      number | null
    >`CASE WHEN override_paused_until > ${now} THEN override_paused_until - ${now} ELSE NULL END`;
  }

  /** Override is not paused for the row's id (never paused, or the pause is over), by the database's clock. */
  notPausedSql(): RawBuilder<boolean> {
    return sql<boolean>`(override_paused_until IS NULL OR override_paused_until <= ${this.dbNow()})`;
  }

  lockState(db: Db, id: string): Promise<LockedRecord | undefined> {
    return db
      .selectFrom('operators')
      .selectAll()
      .select([this.lockedForSql().as('locked_for_ms'), this.pausedForSql().as('paused_for_ms')])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Counts one failure in one UPDATE computed from the row as it is when written (never read, then written back), by the
   * database's clock: two desks failing at once both count. Returns how long the account is locked when it is (this
   * failure locked it, or another desk's did since the read; a lock is never moved). A lock that has run out starts the
   * count again.
   */
  async recordFailure(db: Db, id: string): Promise<number | undefined> {
    const now = this.dbNow();
    const locked = sql<boolean>`(locked_until IS NOT NULL AND locked_until > ${now})`;
    const count = sql<number>`(CASE WHEN locked_until IS NOT NULL AND locked_until <= ${now} THEN 0 ELSE failed_attempts END) + 1`;
    const row = await db
      .updateTable('operators')
      .set({
        failed_attempts: sql<number>`CASE WHEN ${locked} THEN failed_attempts ELSE ${count} END`,
        locked_until: sql<
          number | null
        >`CASE WHEN ${locked} THEN locked_until WHEN ${count} >= ${MAX_FAILED_ATTEMPTS} THEN ${now} + ${LOCKOUT_MS} ELSE NULL END`,
      })
      .where('id', '=', id)
      .returning(this.lockedForSql().as('locked_for_ms'))
      .executeTakeFirst();
    return row?.locked_for_ms ?? undefined;
  }
}

/**
 * One more failure for an id that does not exist, in a desk's memory (the oldest forgotten past MAX_UNKNOWN_TRACKED); true
 * when it reaches `max`, which holds the id for `holdMs`. A hold that has run out starts the count again.
 */
export function countUnknown(
  map: UnknownFailures,
  key: string,
  tracked: { count: number; lockedUntil: number | undefined } | undefined,
  now: number,
  max: number,
  holdMs: number,
): boolean {
  const count = (tracked && tracked.lockedUntil === undefined ? tracked.count : 0) + 1;
  const lockedUntil = count >= max ? now + holdMs : undefined;
  map.delete(key);
  map.set(key, { count, lockedUntil });
  if (map.size > MAX_UNKNOWN_TRACKED) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  return lockedUntil !== undefined;
}
