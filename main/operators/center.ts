/**
 * The operator directory on the center, through its functions (center-sql.ts): the desk derives a password's key from
 * the salt the center answers, and the center counts the attempt (committed first), then compares and opens; the desk
 * holds the tickets and session ids it was given, only in memory.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { OperatorView, Role } from '../../shared/operators';
import type { StoreDatabase } from '../storage';
import type { OpenSessionResult, SessionHolder } from './desk-sessions';
import { OperatorError } from './errors';
import { INVALID, lockedFor, pausedFor, type OverrideResult, type SignInResult } from './lockout';
import { deriveForParams, hashPassword, type ScryptCost } from './password';
import type { OperatorsDB } from './store';

type Outcome = 'ok' | 'invalid_credentials' | 'disabled' | 'locked' | 'override_paused' | 'no_attempt';

interface Proof {
  outcome: Outcome;
  wait_ms: string | number | null;
  display_name: string | null;
  role: Role | null;
  disabled: number | null;
  ticket: string | null;
}

const ms = (value: string | number | null): number => Number(value ?? 0);

/** A manager override proven to the center: the approver, and the ticket that lets one decision name them. */
export type CenterOverrideResult = OverrideResult & { ticket?: string };

export class CenterOperators {
  /** The sign-in tickets the center gave this desk, by operator: each opens one session, within two minutes. */
  private readonly signInTickets = new Map<string, string>();
  /** The sessions open at this desk, by operator: an admin's changes are made through theirs. */
  private readonly open = new Map<string, string>();

  constructor(
    private readonly db: StoreDatabase<OperatorsDB>['db'],
    private readonly deskId: string,
    private readonly cost: ScryptCost,
  ) {}

  async signIn(id: string, password: string): Promise<SignInResult> {
    const { proof, weaker } = await this.prove('sign_in', id, password);
    if (proof.outcome === 'locked') return lockedFor(ms(proof.wait_ms));
    if (proof.outcome !== 'ok') return proof.outcome === 'disabled' ? { ok: false, reason: 'disabled' } : INVALID;
    if (proof.ticket !== null) {
      this.signInTickets.set(id, proof.ticket);
      if (weaker) await this.rehash(proof.ticket, password);
    }
    return { ok: true, operator: view(id, proof) };
  }

  async verifyOverride(id: string, password: string): Promise<CenterOverrideResult> {
    const { proof } = await this.prove('override', id, password);
    if (proof.outcome === 'locked') return lockedFor(ms(proof.wait_ms));
    if (proof.outcome === 'override_paused') return pausedFor(ms(proof.wait_ms));
    if (proof.outcome !== 'ok') return proof.outcome === 'disabled' ? { ok: false, reason: 'disabled' } : INVALID;
    return { ok: true, operator: view(id, proof), ...(proof.ticket === null ? {} : { ticket: proof.ticket }) };
  }

  /**
   * A password proven to the center in three statements, each on its own (autocommit): the salt and cost the center
   * answers for `id` (an unknown id's are made up by the center); the attempt counted as a failure with the key derived
   * here, committed before anything is compared; then the comparison, which clears the count when the key is right.
   */
  private async prove(
    kind: 'sign_in' | 'override',
    id: string,
    password: string,
  ): Promise<{ proof: Proof; weaker: boolean }> {
    const params = await sql<{ params: string }>`SELECT operators.password_params(${id}) AS params`.execute(this.db);
    const derived = await deriveForParams(password, params.rows[0]?.params ?? '', this.cost);
    const begun = await sql<{ attempt: string | null }>`
      SELECT operators.begin_attempt(${kind}, ${id}, ${derived.key}, ${this.deskId}) AS attempt`.execute(this.db);
    const attempt = begun.rows[0]?.attempt ?? '';
    const call =
      kind === 'sign_in'
        ? sql<Proof>`SELECT * FROM operators.sign_in(${attempt}, ${this.deskId})`
        : sql<Proof>`SELECT * FROM operators.verify_override(${attempt}, ${this.deskId})`;
    const row = (await call.execute(this.db)).rows[0];
    if (row === undefined || row.outcome === 'no_attempt')
      throw new Error(`operators: the center compared no attempt (${row?.outcome ?? 'no answer'})`);
    return { proof: row, weaker: derived.weaker };
  }

  /** Raises the account's older, weaker hash with the sign-in's ticket (once; the center refuses a weaker one). */
  private async rehash(ticket: string, password: string): Promise<void> {
    const hash = await hashPassword(password, this.cost);
    await sql`SELECT operators.rehash(${ticket}, ${hash}, ${this.deskId})`.execute(this.db);
  }

  /** Opens the session a sign-in at this desk proved (its ticket); refused when none was proven here. */
  async openSession(operatorId: string, takeOver: boolean): Promise<OpenSessionResult> {
    const ticket = this.signInTickets.get(operatorId);
    this.signInTickets.delete(operatorId);
    if (ticket === undefined) throw new OperatorError('not_signed_in');
    const sessionId = randomBytes(32).toString('base64url');
    const row = (
      await sql<{ outcome: string; held_desk: string | null; held_since: string | number | null }>`
        SELECT * FROM operators.open_session(${ticket}, ${sessionId}, ${takeOver}, ${this.deskId})`.execute(this.db)
    ).rows[0];
    const holder = (): SessionHolder => ({ deskId: row?.held_desk ?? '', since: ms(row?.held_since ?? null) });
    switch (row?.outcome) {
      case 'ok':
        this.open.set(operatorId, sessionId);
        return { ok: true, sessionId };
      case 'ended':
        this.open.set(operatorId, sessionId);
        return { ok: true, sessionId, ended: holder() };
      case 'held':
        return { ok: false, heldBy: holder() };
      default:
        // The ticket ran out (over two minutes since the password was proven): the operator signs in again.
        throw new OperatorError('not_signed_in');
    }
  }

  async sessionOpen(operatorId: string, sessionId: string, seen: boolean): Promise<boolean> {
    if (seen) await sql`SELECT operators.seen_session(${sessionId}, ${this.deskId})`.execute(this.db);
    const row = await sql<{
      open: boolean;
    }>`SELECT operators.session_open(${operatorId}, ${sessionId}) AS open`.execute(this.db);
    return row.rows[0]?.open === true;
  }

  async markSession(sessionId: string, locked: boolean): Promise<boolean> {
    const row = await sql<{ marked: boolean }>`
      SELECT operators.mark_session(${sessionId}, ${locked}, ${this.deskId}) AS marked`.execute(this.db);
    return row.rows[0]?.marked === true;
  }

  async closeSession(sessionId: string): Promise<void> {
    for (const [operator, open] of this.open) if (open === sessionId) this.open.delete(operator);
    await sql`SELECT operators.close_session(${sessionId}, ${this.deskId})`.execute(this.db);
  }

  async closeDeskSessions(): Promise<number> {
    this.open.clear();
    const row = await sql<{ closed: number }>`SELECT operators.close_desk_sessions(${this.deskId}) AS closed`.execute(
      this.db,
    );
    return Number(row.rows[0]?.closed ?? 0);
  }

  /** The session `actorId` has open at this desk: what an admin's change is made through (none: refused). */
  private sessionOf(actorId: string): string {
    const session = this.open.get(actorId);
    if (session === undefined) throw new OperatorError('forbidden');
    return session;
  }

  /** The session an operator has open at this desk, for another store's functions (a refund's decision). */
  actingSession(operatorId: string): string | undefined {
    return this.open.get(operatorId);
  }

  async createFirstAdmin(id: string, displayName: string, hash: string): Promise<'ok' | 'setup_done'> {
    const row = await sql<{ outcome: 'ok' | 'setup_done' }>`
      SELECT operators.create_first_admin(${id}, ${displayName}, ${hash}, ${this.deskId}) AS outcome`.execute(this.db);
    return row.rows[0]?.outcome ?? 'setup_done';
  }

  async createOperator(actorId: string, id: string, displayName: string, role: Role, hash: string): Promise<void> {
    const session = this.sessionOf(actorId);
    const row = await sql<{ outcome: string }>`
      SELECT operators.create_operator(${session}, ${id}, ${displayName}, ${role}, ${hash}, ${this.deskId}) AS outcome`.execute(
      this.db,
    );
    refuse(row.rows[0]?.outcome);
  }

  async setRole(actorId: string, id: string, role: Role): Promise<void> {
    const session = this.sessionOf(actorId);
    const row = await sql<{ outcome: string }>`
      SELECT operators.set_role(${session}, ${id}, ${role}, ${this.deskId}) AS outcome`.execute(this.db);
    refuse(row.rows[0]?.outcome);
  }

  async setDisabled(actorId: string, id: string, disabled: boolean): Promise<void> {
    const session = this.sessionOf(actorId);
    const row = await sql<{ outcome: string }>`
      SELECT operators.set_disabled(${session}, ${id}, ${disabled}, ${this.deskId}) AS outcome`.execute(this.db);
    refuse(row.rows[0]?.outcome);
  }

  async resetPassword(actorId: string, id: string, hash: string): Promise<void> {
    const session = this.sessionOf(actorId);
    const row = await sql<{ outcome: string }>`
      SELECT operators.reset_password(${session}, ${id}, ${hash}, ${this.deskId}) AS outcome`.execute(this.db);
    refuse(row.rows[0]?.outcome);
  }
}

function view(id: string, proof: Proof): OperatorView {
  return {
    id: id.trim().toLowerCase(),
    displayName: proof.display_name ?? '',
    role: proof.role ?? 'agent',
    disabled: proof.disabled === 1,
  };
}

/** A function's refusal as the directory's own error. */
function refuse(outcome: string | undefined): void {
  switch (outcome) {
    case 'ok':
      return;
    case 'forbidden':
    case 'already_exists':
    case 'not_found':
    case 'last_admin':
      throw new OperatorError(outcome);
    default:
      throw new Error(`operators: the center answered ${outcome ?? 'nothing'}`);
  }
}
