// Shared set-up for the operators tests: a real operators.db in a temp folder (or any storage), with a first admin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import {
  MIN_COST,
  OPERATORS_STORE,
  OperatorDirectory,
  OperatorError,
  type OperatorDirectoryOptions,
  type OperatorErrorCode,
  type OperatorsDB,
} from '../../../main/operators';
import { databaseNowMs } from '../../../main/operators/store';
import type { OpenSessionResult } from '../../../main/operators/desk-sessions';
import { embeddedStorage, type Storage } from '../../../main/storage';
import type { TestCenter } from '../../support/center';

/** The desk the tests' directories sit at (a second desk of a center names another). */
export const DESK_A = { deskId: '0b6f7a58-3c57-4c0e-9a59-6a7f3c1d2e01' };
export const DESK_B = { deskId: '5d0e1c2b-8a47-4f3e-b1d2-9c8b7a6f5e02' };

export const ADMIN = { id: 'root', displayName: 'Root Admin', password: 'admin password 1' };
export const AGENT = { id: 'ana', displayName: 'Ana López', role: 'agent' as const, password: 'agent password 1' };
export const SUPERVISOR = { id: 'sam', displayName: 'Sam', role: 'supervisor' as const, password: 'super password 1' };

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'operators-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The directory in `place`: a folder's operators.db (embedded), or a storage (either backend). */
export function openDirectory(
  place: string | Storage,
  options?: OperatorDirectoryOptions,
  desk = DESK_A,
): Promise<OperatorDirectory> {
  return OperatorDirectory.open(typeof place === 'string' ? embeddedStorage(place) : place, desk, options);
}

/**
 * The same at the weakest cost the directory accepts (MIN_COST), for the tests of what a directory does rather than of
 * its hashes: half of the default's scrypt work, which is most of those tests' time.
 */
export function openQuickDirectory(
  place: string | Storage,
  options?: OperatorDirectoryOptions,
  desk = DESK_A,
): Promise<OperatorDirectory> {
  return openDirectory(place, { cost: MIN_COST, ...options }, desk);
}

/** The operators file of a folder. */
export const operatorsFile = (dir: string): string => join(dir, 'operators.db');

/** A directory with the first admin, an agent and a supervisor. */
export async function seeded(place: string | Storage, options?: OperatorDirectoryOptions): Promise<OperatorDirectory> {
  const directory = await openQuickDirectory(place, options);
  await directory.createFirstAdmin(ADMIN);
  // The admin acts through a session of this desk (on the center, the only way an admin's change is accepted).
  await signedIn(directory, ADMIN);
  await Promise.all([directory.createOperator(ADMIN.id, AGENT), directory.createOperator(ADMIN.id, SUPERVISOR)]);
  return directory;
}

/** The OperatorError a call throws (sync or async); fails the test when it throws anything else or nothing. */
export async function operatorError(fn: () => unknown): Promise<OperatorError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperatorError) return error;
    throw error;
  }
  throw new Error('expected an OperatorError, but the call succeeded');
}

export async function expectCode(fn: () => unknown, code: OperatorErrorCode): Promise<OperatorError> {
  const error = await operatorError(fn);
  if (error.code !== code) throw new Error(`expected OperatorError ${code}, got ${error.code}: ${error.message}`);
  return error;
}

/**
 * Time passing for a lock, by the database's clock (which the tests cannot move): the account's lock (`column`
 * locked_until) or its override pause (override_paused_until) is made to end `remainingMs` from the database's now (0: it
 * ends now). On the embedded file as the desk may; on the center as the superuser (`center`), since no desk's login
 * writes an account row.
 */
export async function endsIn(
  storage: Storage,
  id: string,
  remainingMs: number,
  column: 'locked_until' | 'override_paused_until' = 'locked_until',
  center?: Pick<TestCenter, 'query'>,
): Promise<void> {
  const store = await storage.open<OperatorsDB>(OPERATORS_STORE);
  if (store.backend === 'postgres') {
    if (center === undefined) throw new Error('endsIn on the center needs the test center');
    const rows = await center.query(
      `UPDATE operators.operators SET ${column} = CAST(floor(extract(epoch FROM now()) * 1000) AS bigint) + $1 WHERE id = $2 RETURNING id`,
      [remainingMs, id],
    );
    if (rows.length !== 1) throw new Error(`no operator ${id} to move the clock for`);
    return;
  }
  const until = sql<number>`${databaseNowMs(store.backend)} + ${remainingMs}`;
  const updated = await store.db
    .updateTable('operators')
    .set(column === 'locked_until' ? { locked_until: until } : { override_paused_until: until })
    .where('id', '=', id)
    .returning('id')
    .execute();
  if (updated.length !== 1) throw new Error(`no operator ${id} to move the clock for`);
}

/** An operator signed in at `directory` and their session opened there, as the desk's SessionGuard does. */
export async function signedIn(
  directory: OperatorDirectory,
  who: { id: string; password: string },
  options: { takeOver?: boolean; now?: number } = {},
): Promise<OpenSessionResult> {
  const result = await directory.signIn(who.id, who.password, options.now);
  if (!result.ok) throw new Error(`${who.id} could not sign in: ${result.reason}`);
  return directory.openSession(who.id, options.now, { takeOver: options.takeOver === true });
}
