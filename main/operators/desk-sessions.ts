/** The center's sessions: one open session per operator, at one desk, taken over only when the operator chooses. */
import { createHash, randomUUID } from 'node:crypto';
import type { OperatorView } from '../../shared/operators';
import type { StoreDatabase } from '../storage';
import { normalizeId, toView } from './rows';
import type { OperatorsDB } from './store';

/** Where and since when an operator's session is open (ms since the epoch). */
export interface SessionHolder {
  deskId: string;
  since: number;
}

export type OpenSessionResult =
  /** `ended`: the session this one replaced at another desk (the operator chose to end it). */
  { ok: true; sessionId: string; ended?: SessionHolder } | { ok: false; heldBy: SessionHolder };

/** The operator as the center has them now, and whether the desk's session is still theirs. */
export interface SessionState {
  operator: OperatorView | undefined;
  /** `open`: still this session; otherwise where the operator's session is now (undefined: none). */
  session: 'open' | { endedBy: SessionHolder | undefined };
}

/**
 * What a session is kept as: the SHA-256 of its id, never the id. The id lives only in its desk's memory; whoever reads
 * the sessions table (another desk's login, a backup) learns no live session's id.
 */
export const sessionKey = (sessionId: string): string => createHash('sha256').update(sessionId, 'utf8').digest('hex');

export class DeskSessions {
  constructor(
    private readonly db: StoreDatabase<OperatorsDB>['db'],
    /** This desk: every session row it opens names it. */
    private readonly deskId: string,
    private readonly clock: () => number,
  ) {}

  /**
   * Records that `operatorId` signs in at this desk. Refused (`heldBy`) while their session is open at another desk,
   * unless `takeOver`: that session then ends (its desk finds out at its next call). A row of this desk is a session
   * this desk left behind (it stopped without signing out): replaced.
   */
  async openSession(
    operatorId: string,
    now: number = this.clock(),
    options: { takeOver?: boolean } = {},
  ): Promise<OpenSessionResult> {
    const id = normalizeId(operatorId);
    const sessionId = randomUUID();
    const fresh = {
      session_id: sessionKey(sessionId),
      desk_id: this.deskId,
      started_at: now,
      last_seen_at: now,
      locked: 0,
    };
    for (let attempt = 0; ; attempt++) {
      // Two desks signing the same operator in at once: the primary key lets one row in.
      const inserted = await this.db
        .insertInto('sessions')
        .values({ operator_id: id, ...fresh })
        .onConflict((oc) => oc.column('operator_id').doNothing())
        .returning('session_id')
        .executeTakeFirst();
      if (inserted !== undefined) return { ok: true, sessionId };
      const held = await this.db.selectFrom('sessions').selectAll().where('operator_id', '=', id).executeTakeFirst();
      if (held === undefined) continue;
      const holder = { deskId: held.desk_id, since: held.started_at };
      const ours = held.desk_id === this.deskId;
      if ((!ours && options.takeOver !== true) || attempt >= 3) return { ok: false, heldBy: holder };
      // Replaced only if it is still the session read above (another desk may have taken it over meanwhile).
      const replaced = await this.db
        .updateTable('sessions')
        .set(fresh)
        .where('operator_id', '=', id)
        .where('session_id', '=', held.session_id)
        .returning('session_id')
        .executeTakeFirst();
      if (replaced !== undefined) return ours ? { ok: true, sessionId } : { ok: true, sessionId, ended: holder };
    }
  }

  /**
   * The operator as the directory has them now, and whether `sessionId` is still their session; `seenAt` also records
   * the desk's last activity on it.
   */
  async sessionState(operatorId: string, sessionId: string, seenAt?: number): Promise<SessionState> {
    const id = normalizeId(operatorId);
    if (seenAt !== undefined)
      await this.db
        .updateTable('sessions')
        .set({ last_seen_at: seenAt })
        .where('session_id', '=', sessionKey(sessionId))
        .execute();
    const row = await this.db
      .selectFrom('operators')
      .leftJoin('sessions', 'sessions.operator_id', 'operators.id')
      .selectAll('operators')
      .select([
        'sessions.session_id as session_id',
        'sessions.desk_id as session_desk_id',
        'sessions.started_at as session_started_at',
      ])
      .where('operators.id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return { operator: undefined, session: { endedBy: undefined } };
    const operator = toView(row);
    if (row.session_id === sessionKey(sessionId)) return { operator, session: 'open' };
    const endedBy =
      row.session_desk_id === null || row.session_started_at === null
        ? undefined
        : { deskId: row.session_desk_id, since: row.session_started_at };
    return { operator, session: { endedBy } };
  }

  /** The session locked or unlocked at its desk; false when it is no longer open. */
  async markSession(sessionId: string, locked: boolean, now: number = this.clock()): Promise<boolean> {
    const row = await this.db
      .updateTable('sessions')
      .set({ locked: locked ? 1 : 0, last_seen_at: now })
      .where('session_id', '=', sessionKey(sessionId))
      .returning('session_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The session ends (signed out, handed over, the account disabled). */
  async closeSession(sessionId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('session_id', '=', sessionKey(sessionId)).execute();
  }

  /** At start-up: the sessions this desk left open when it stopped (none of them is on its screen any more). */
  async closeDeskSessions(): Promise<number> {
    const rows = await this.db
      .deleteFrom('sessions')
      .where('desk_id', '=', this.deskId)
      .returning('operator_id')
      .execute();
    return rows.length;
  }
}
