// The session through the bridge: its status when the app starts, sign-in (or the first admin on first run), lock,
// hand-over of a locked desk, sign-out, the idle lock's event and its warning a minute before, and the operator's
// activity that postpones it. Passwords travel in a Secret, emptied when the call is made (react-query keeps a
// mutation's variables).
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import type { EventPayload, Output } from '../../../../shared/ipc';
import type { OperatorView } from '../../../../shared/operators';
import { bridge, hasBridge, unwrap } from '../../bridge/client';
import type { Secret } from '../../bridge/secret';

export type SessionStatus = Output<'session:status'>;

/** Who is signed in, whether the desk is locked, and whether the first admin is still to be made (read once at start). */
export function readSessionStatus(): Promise<SessionStatus> {
  return unwrap(bridge().session.status({}));
}

/** What main says when it locks the desk: `endedElsewhere` when the session ended at another desk's sign-in instead. */
export type SessionLockedEvent = EventPayload<'session:locked'>;

/** Main locked the desk (idle, or the agent's "Lock"), or the session ended from another desk: called while mounted. */
export function useSessionLocked(onLocked: (event: SessionLockedEvent) => void): void {
  const handle = useEffectEvent(onLocked);
  useEffect(() => {
    if (!hasBridge) return;
    return bridge().events.on('session:locked', (event) => handle(event));
  }, []);
}

/** Main warns that the idle lock comes at `locksAt` (ISO) unless the operator acts: called while mounted. */
export function useIdleWarning(onWarning: (locksAt: string) => void): void {
  const handle = useEffectEvent(onWarning);
  useEffect(() => {
    if (!hasBridge) return;
    return bridge().events.on('session:idleWarning', ({ locksAt }) => handle(locksAt));
  }, []);
}

export interface Credentials {
  id: string;
  password: Secret;
}

/**
 * Signs in; `endSessionElsewhere` when the operator, told their session is open at another desk of the center
 * (`session_elsewhere`), chose to end it there and sign in here.
 */
export function useSignIn(): UseMutationResult<OperatorView, Error, Credentials & { endSessionElsewhere?: boolean }> {
  return useMutation({
    mutationFn: ({ id, password, endSessionElsewhere }: Credentials & { endSessionElsewhere?: boolean }) =>
      unwrap(
        bridge().session.signIn({
          id,
          password: password.take(),
          ...(endSessionElsewhere === true ? { endSessionElsewhere } : {}),
        }),
      ),
  });
}

export function useCreateFirstAdmin(): UseMutationResult<OperatorView, Error, Credentials & { displayName: string }> {
  return useMutation({
    mutationFn: ({ id, displayName, password }: Credentials & { displayName: string }) =>
      unwrap(bridge().session.createFirstAdmin({ id, displayName, password: password.take() })),
  });
}

/** Ends the locked session (main records it) so that another operator can sign in; the card data is already gone. */
export function useEndLocked(): UseMutationResult<Output<'session:endLocked'>, Error, void> {
  return useMutation({ mutationFn: () => unwrap(bridge().session.endLocked({})) });
}

/** Main locks the session and sends `session:locked`: the shell then shows the lock screen. */
export function lockSession(): void {
  if (hasBridge) void bridge().session.lock({});
}

/** Signs out; settles either way (the shell shows the sign-in whatever main answered). */
export async function signOut(): Promise<void> {
  if (!hasBridge) return;
  await unwrap(bridge().session.signOut({})).catch(() => undefined);
}

/** Tells main the operator is at work (postpones the idle lock). */
export function reportActivity(): void {
  if (hasBridge) void bridge().session.activity({});
}
