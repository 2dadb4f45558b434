// An admin's changes made from a test as from the screen: through a session of the desk, opened with the admin's
// password and closed after (on a center, the only way an admin's change is accepted; main/operators/center.ts).
import type { OperatorDirectory } from '../../main/operators';

export async function asAdmin<T>(
  directory: OperatorDirectory,
  admin: { id: string; password: string },
  act: () => Promise<T>,
): Promise<T> {
  const signedIn = await directory.signIn(admin.id, admin.password);
  if (!signedIn.ok) throw new Error(`${admin.id} could not sign in: ${signedIn.reason}`);
  const session = await directory.openSession(admin.id);
  if (!session.ok) throw new Error(`${admin.id}'s session is open at desk ${session.heldBy.deskId}`);
  try {
    return await act();
  } finally {
    await directory.closeSession(session.sessionId);
  }
}
