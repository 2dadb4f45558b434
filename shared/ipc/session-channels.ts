// The channels of the operator's session (sign-in, lock, hand-over) and of the operators' accounts.
import { z } from 'zod';
import { DisplayName, NewOperatorId, OperatorId, OperatorView, Password, Role } from '../operators';
import { ADMIN, STAFF } from './access';
import { background, channel, defined, done, lower, none, type ChannelSpec } from './spec';

export const SESSION_CHANNELS = {
  'session:status': background(
    none,
    z.object({ operator: OperatorView.optional(), locked: z.boolean(), needsFirstAdmin: z.boolean() }),
    'public',
  ),
  /**
   * Background: a refused sign-in must not keep a desk awake; an accepted one starts (or unlocks) the session itself.
   * `endSessionElsewhere`: the operator was told their session is open at another desk of the center
   * (`session_elsewhere`) and chose to end it and sign in here; that desk finds it ended at its next call.
   */
  'session:signIn': channel({
    input: z.strictObject({
      id: OperatorId,
      password: z.string().min(1, 'Enter your password.').max(200),
      endSessionElsewhere: z.boolean().optional(),
    }),
    output: OperatorView,
    access: 'public',
    activity: 'background',
    audit: {
      action: 'session.signIn',
      actor: (input) => lower(input.id),
      resource: (input) => lower(input.id),
      details: (input) => (input.endSessionElsewhere === true ? { endSessionElsewhere: true } : {}),
    },
  }),
  /** First run only: the first account is an admin, who then creates the others. */
  'session:createFirstAdmin': channel({
    input: z.strictObject({ id: NewOperatorId, displayName: DisplayName, password: Password }),
    output: OperatorView,
    access: 'public',
    activity: 'background',
    audit: {
      action: 'account.create',
      actor: (input) => lower(input.id),
      resource: (input) => lower(input.id),
      details: () => ({ role: 'admin', firstAdmin: true }),
    },
  }),
  'session:signOut': channel({
    input: none,
    output: done,
    access: STAFF,
    activity: 'operator',
    audit: { action: 'session.signOut' },
  }),
  /** The operator is typing or pointing in the window (the card form makes no other call): postpones the idle lock. */
  'session:activity': channel({ input: none, output: done, access: STAFF, activity: 'operator', audit: 'none' }),
  /** Lock the desk now (the agent steps away): the same operator's password opens it again. The lock itself is recorded by main. */
  'session:lock': channel({ input: none, output: done, access: STAFF, activity: 'operator', audit: 'none' }),
  /**
   * "Sign in as someone else" on the lock screen: the locked session ends (its card data was wiped when it locked), so
   * another operator can sign in without restarting the app; refused while the session is open. Public: nobody is
   * signed in on a locked desk. Background: there is no session left to keep awake. Recorded with the session that
   * ended as the resource (the actor is `anonymous`: whoever is at the desk).
   */
  'session:endLocked': channel({
    input: none,
    output: z.object({ ok: z.literal(true), ended: OperatorId.optional() }),
    access: 'public',
    activity: 'background',
    audit: { action: 'session.handOver', resource: (_input, output) => output?.ended },
  }),
  'operators:list': background(none, z.object({ operators: z.array(OperatorView) }), ADMIN),
  'operators:create': channel({
    input: z.strictObject({ id: NewOperatorId, displayName: DisplayName, role: Role, password: Password }),
    output: OperatorView,
    access: ADMIN,
    activity: 'operator',
    audit: {
      action: 'account.create',
      resource: (input) => lower(input.id),
      details: (input) => ({ role: input.role }),
    },
  }),
  'operators:update': channel({
    input: z.strictObject({ id: OperatorId, role: Role.optional(), disabled: z.boolean().optional() }),
    output: OperatorView,
    access: ADMIN,
    activity: 'operator',
    audit: {
      action: 'account.update',
      resource: (input) => lower(input.id),
      details: (input) => defined({ role: input.role, disabled: input.disabled }),
    },
  }),
  'operators:resetPassword': channel({
    input: z.strictObject({ id: OperatorId, password: Password }),
    output: done,
    access: ADMIN,
    activity: 'operator',
    audit: { action: 'account.resetPassword', resource: (input) => lower(input.id) },
  }),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
