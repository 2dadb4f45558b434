/**
 * The desk's start as the window sees it: the window is shown at once, before the center connection and the recovery of
 * what the last run left unanswered, and until the stack serves, its calls reach this door. It answers `app:startup` (where
 * the start stands, in the desk's language) and refuses every other channel as `starting`; the status's changes go out as
 * `app:startup` events. No Electron here: main/index.ts wires it, the e2e harness and the tests run it under Node.
 */
import type { z } from 'zod';
import type { Language } from '../../shared/language';
import {
  CHANNELS,
  StartupStatus,
  type Channel,
  type ErrorCode,
  type Result,
  type StartupPhase,
} from '../../shared/ipc';
import type { Dispatch, SenderInfo } from '../ipc';

export interface StartupOptions {
  /** The desk's language, from the settings (read at each answer: the status always says the current one). */
  language: () => Language;
  /** The app's own window, at the app's own origin, top frame only (the same check as the stack's door). */
  isTrustedSender: (sender: SenderInfo) => boolean;
}

export interface Startup {
  /** Where the start stands now. */
  status(): StartupStatus;
  /** The start moved on to `phase`; `recovering` only with the phase of that name (absent: none completed yet, none known). */
  set(phase: StartupPhase, recovering?: { total: number; done: number }): void;
  /** Recovery's progress (MainStack.recover's `onProgress`): `done` of the `total` unanswered operations completed. */
  progress(done: number, total: number): void;
  /** Called with the new status at each change; answers its unsubscribe. */
  onChange(listener: (status: StartupStatus) => void): () => void;
  /** The IPC door while the stack does not serve: `app:startup` only, every other channel refused as `starting`. */
  door: Dispatch;
}

/** A refusal crosses as its code: the window words it from its catalogues. */
const refuse = (code: ErrorCode): Result<never> => ({ ok: false, error: { code } });

const isChannel = (name: string): name is Channel => Object.hasOwn(CHANNELS, name);

export function createStartup(options: StartupOptions): Startup {
  let phase: StartupPhase = 'starting';
  let recovering: { total: number; done: number } | undefined;
  const listeners = new Set<(status: StartupStatus) => void>();

  const status = (): StartupStatus => ({
    phase,
    language: options.language(),
    ...(phase === 'recovering' && recovering !== undefined ? { recovering: { ...recovering } } : {}),
  });

  const changed = (): void => {
    const now = status();
    for (const listener of [...listeners]) listener(now);
  };

  const set: Startup['set'] = (next, progress) => {
    phase = next;
    recovering = next === 'recovering' ? progress : undefined;
    changed();
  };

  return {
    status,
    set,
    progress: (done, total) => set('recovering', { total, done: Math.min(done, total) }),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    door: (channel, sender, raw) => {
      if (!options.isTrustedSender(sender)) return Promise.resolve(refuse('forbidden_sender'));
      if (!isChannel(channel)) return Promise.resolve(refuse('unknown_channel'));
      if (channel !== 'app:startup') return Promise.resolve(refuse('starting'));
      const spec = CHANNELS['app:startup'];
      if (!(spec.input as z.ZodType).safeParse(raw).success) return Promise.resolve(refuse('invalid_input'));
      // Parsed as the stack's door parses every answer: only what the contract names crosses.
      const output = StartupStatus.safeParse(status());
      if (!output.success) return Promise.resolve(refuse('internal'));
      return Promise.resolve({ ok: true, value: output.data });
    },
  };
}
