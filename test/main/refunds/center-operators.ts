// Operators for the refunds tests on the center, where every request and decision goes through an operator's session:
// the real directory (main/operators) on the given storage, its accounts made by a first admin, and the operators a
// test seats at a desk signed in there with their passwords, as the desk's SessionGuard does.
import { MIN_COST, OperatorDirectory } from '../../../main/operators';
import type { Storage } from '../../../main/storage';
import type { Role } from '../../../shared/operators';

export const ROOT = { id: 'root', displayName: 'Root', role: 'admin' as Role, password: 'root password 1234' };

/** The accounts every center of these tests has (besides the first admin). */
export const STAFF = {
  ana: { id: 'ana', displayName: 'Ana', role: 'agent' as Role, password: 'ana password 1234' },
  abe: { id: 'abe', displayName: 'Abe', role: 'agent' as Role, password: 'abe password 1234' },
  bea: { id: 'bea', displayName: 'Bea', role: 'agent' as Role, password: 'bea password 1234' },
  sam: { id: 'sam', displayName: 'Sam', role: 'supervisor' as Role, password: 'sam password 1234' },
  sue: { id: 'sue', displayName: 'Sue', role: 'supervisor' as Role, password: 'sue password 1234' },
} as const;
export type StaffId = keyof typeof STAFF;

/**
 * The directory at `desk` on `storage` (the center), the accounts made when it has none, and `seated` signed in there:
 * each has a session open at that desk (one desk at a time per operator, as the center keeps it).
 */
export async function seatedAt(
  storage: Storage,
  desk: { deskId: string },
  seated: readonly StaffId[],
): Promise<OperatorDirectory> {
  const directory = await OperatorDirectory.open(storage, desk, { cost: MIN_COST });
  if (await directory.needsFirstAdmin()) {
    await directory.createFirstAdmin(ROOT);
    await signIn(directory, ROOT);
    for (const operator of Object.values(STAFF)) await directory.createOperator(ROOT.id, operator);
  }
  for (const id of seated) await signIn(directory, STAFF[id]);
  return directory;
}

async function signIn(directory: OperatorDirectory, who: { id: string; password: string }): Promise<void> {
  const result = await directory.signIn(who.id, who.password);
  if (!result.ok) throw new Error(`${who.id} could not sign in: ${result.reason}`);
  const opened = await directory.openSession(who.id);
  if (!opened.ok) throw new Error(`${who.id}'s session is held at desk ${opened.heldBy.deskId}`);
}
