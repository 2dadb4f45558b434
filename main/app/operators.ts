/** The desk's operators: the directory on the stores, the idle-locked session and what the door asks of both. */
import type { DeskIdentity } from '../center';
import type { AccountsPort, SessionPort } from '../ipc';
import { OperatorDirectory, SessionGuard, type ScryptCost } from '../operators';
import type { Storage } from '../storage';
import type { RecordRow } from './audit';
import type { Emit } from './events';
import type { MainStackOptions } from './options';

export async function openDirectory(
  storage: Storage,
  identity: DeskIdentity,
  cost: ScryptCost | undefined,
): Promise<OperatorDirectory> {
  const directory = await OperatorDirectory.open(storage, identity, cost === undefined ? {} : { cost });
  // Sessions this desk left open when it stopped: nobody is signed in here now.
  await directory.closeDeskSessions();
  return directory;
}

/** The session's locks and take-overs recorded and told to the windows; `forgetWatches` when its screens are gone. */
export function createGuard(
  directory: OperatorDirectory,
  options: Pick<MainStackOptions, 'idleTimeoutMs'>,
  record: RecordRow,
  emit: Emit,
  forgetWatches: () => void,
): SessionGuard {
  return new SessionGuard({
    directory,
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    onLock: ({ operator, reason, endedBy }) => {
      const where =
        endedBy === undefined ? {} : { deskId: endedBy.deskId, sinceAt: new Date(endedBy.since).toISOString() };
      record({ actor: operator.id, action: 'session.lock', outcome: 'ok', details: { reason, ...where } });
      emit('session:locked', reason === 'ended_elsewhere' ? { endedElsewhere: where } : {});
      // The screens that watched the others' work are gone with the session.
      forgetWatches();
    },
    onIdleWarning: ({ locksAt }) => emit('session:idleWarning', { locksAt: new Date(locksAt).toISOString() }),
    onTakeOver: ({ operator, ended }) =>
      record({
        actor: operator.id,
        action: 'session.takeOver',
        outcome: 'ok',
        resource: operator.id,
        details: { endedDeskId: ended.deskId, endedSessionSince: new Date(ended.since).toISOString() },
      }),
  });
}

export function sessionPort(guard: SessionGuard, directory: OperatorDirectory): SessionPort {
  return {
    status: () => guard.status(),
    signIn: (id, password, signInOptions) => guard.signIn(id, password, signInOptions),
    signOut: () => guard.signOut(),
    lock: () => guard.lock(),
    endLocked: () => guard.endLocked(),
    touch: () => guard.touch(),
    createFirstAdmin: async (input) => {
      await directory.createFirstAdmin(input);
      return guard.signIn(input.id, input.password);
    },
  };
}

export function accountsPort(directory: OperatorDirectory): AccountsPort {
  return {
    list: (actorId) => directory.list(actorId),
    create: (actorId, input) => directory.createOperator(actorId, input),
    update: async (actorId, { id, role, disabled }) => {
      let view = role === undefined ? undefined : await directory.setRole(actorId, id, role);
      if (disabled !== undefined) view = await directory.setDisabled(actorId, id, disabled);
      return (
        view ??
        (await directory.list(actorId)).find((o) => o.id === id.trim().toLowerCase()) ??
        directory.setDisabled(actorId, id, false)
      );
    },
    resetPassword: (actorId, id, password) => directory.resetPassword(actorId, id, password),
  };
}
