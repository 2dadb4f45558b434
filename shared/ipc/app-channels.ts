// The channels of the app itself: what desk this is, its start, its language, the card form's window protection and the auto-update.
import { z } from 'zod';
import { Environment } from '../environment';
import { Language } from '../language';
import { STAFF } from './access';
import { background, channel, done, none, type ChannelSpec } from './spec';
import { StartupStatus } from './views';

/** Where the auto-update stands; `blockedBy` says why a ready update waits (a payment in progress). */
export const UpdateStatus = z.object({
  state: z.enum(['disabled', 'idle', 'checking', 'downloading', 'ready', 'error']),
  version: z.string().optional(),
  channel: z.enum(['stable', 'pilot']).optional(),
  blockedBy: z.enum(['payment_in_progress']).optional(),
  /** A failure in words, for the agent. */
  message: z.string().optional(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

export const APP_CHANNELS = {
  /**
   * `deskId`: this desk's stable id (made at first start; every record names it). `storage`: where the desk's records are
   * kept, its own embedded files or the center's shared database (`center`: "host:port/database", never a password).
   */
  'app:info': background(
    none,
    z.object({
      environment: Environment,
      version: z.string(),
      language: Language,
      languageLocked: z.boolean(),
      deskId: z.uuid(),
      storage: z.enum(['embedded', 'center']),
      center: z.string().optional(),
    }),
    'public',
  ),
  /**
   * Where the desk's start stands (the window is shown before the center connection and the recovery of unanswered
   * operations): until `ready`, every other channel is refused as `starting`. Public: nobody is signed in yet.
   */
  'app:startup': background(none, StartupStatus, 'public'),
  /** The desk's language, kept in the user's settings (refused when IT locked it). Public: it can be changed at sign-in. */
  'app:setLanguage': channel({
    input: z.strictObject({ language: Language }),
    output: z.object({ language: Language }),
    access: 'public',
    activity: 'operator',
    audit: { action: 'settings.change', resource: () => 'language', details: (input) => ({ value: input.language }) },
  }),
  /**
   * The card form tells main while card data is on screen: main turns the window's content protection on (what each
   * OS does with it, and what it does not stop, is in docs/security.md) and off again when the form is
   * gone. Public: the form is
   * also emptied by the idle lock, after which the operator is no longer signed in.
   */
  'window:protectCardData': background(z.strictObject({ active: z.boolean() }), done, 'public'),
  /** An update downloaded and waiting: the agent restarts when the call is over (never during a payment). */
  'updates:status': background(none, UpdateStatus, STAFF),
  'updates:restart': channel({
    input: none,
    output: done,
    access: STAFF,
    activity: 'operator',
    audit: { action: 'update.restart' },
  }),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
