/** The door every renderer call goes through: sender, input, role, handler, output — in that order, always. */
import type { z } from 'zod';
import type { OperatorView } from '../../shared/operators';
import {
  CHANNELS,
  UNLISTED_ERROR_CODE,
  isErrorCode,
  type Channel,
  type IpcError,
  type Output,
  type ParsedInput,
  type Result,
} from '../../shared/ipc';
import type { RecordedCall } from '../audit';
import { isUserError, zodRefusal } from '../errors';

export interface CallContext {
  /** The signed-in operator (main's own knowledge: the renderer never says who it is). */
  operator: OperatorView | undefined;
  /** The web contents that called (already checked to be the app's own window). */
  senderId: number;
  /** The service request ids this call makes, pushed as they are sent (its audit row names them). */
  trace: string[];
}

/** Exhaustive: a channel of the contract without a handler does not compile. */
export type Handlers = { [C in Channel]: (input: ParsedInput<C>, ctx: CallContext) => Promise<Output<C>> | Output<C> };

export interface SenderInfo {
  /** The URL of the frame that sent the call. */
  url: string;
  isMainFrame: boolean;
  webContentsId: number;
}

/**
 * True when the URL is the app's own page. Compares scheme and host: for a custom scheme such as
 * app:// the URL origin is opaque ("null"), the same as for file://, so origins cannot be compared.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const page = new URL(url);
    const app = new URL(appUrl);
    return page.protocol === app.protocol && page.host === app.host && page.host !== '';
  } catch {
    return false;
  }
}

/** One call as the door handled it, for the audit trail: what was asked, by whom, and where it stopped. */
export interface DoorCall extends RecordedCall {
  /** The service request ids the call made (none when it was refused before its handler). */
  trace: readonly string[];
}

export interface DispatcherDeps {
  handlers: Handlers;
  /** Asked at each call (the directory may be the center's: a disabled account, a session ended at another desk). */
  currentOperator: () => Promise<OperatorView | undefined> | OperatorView | undefined;
  /**
   * Why nobody is signed in, when main knows better than "sign in" (the session was ended from another desk): the
   * refusal of a call that needs an operator.
   */
  signedOutReason?: () => IpcError | undefined;
  /** The app's own window, at the app's own origin, top frame only. */
  isTrustedSender: (sender: SenderInfo) => boolean;
  /** Errors that are not a capability's own UserError are logged (name and channel only), never sent. */
  onUnexpectedError?: (channel: string, error: unknown) => void;
  /**
   * The operator is at work: a call the contract marks `operator` that passed validation and the role check
   * (the idle lock is postponed). Background calls and refused calls never get here.
   */
  onActivity?: (channel: Channel) => void;
  /** Every call, answered or refused, once its answer is known (the audit trail). */
  onCall?: (call: DoorCall) => void;
}

const refuse = (code: string, message: string, field?: string): Result<never> => ({
  ok: false,
  error: field === undefined ? { code, message } : { code, message, field },
});

/**
 * An error whose code the contract does not list (the payment service's own word, one this app does not know) crosses
 * as `service_refused`, its code in `serviceCode`: the renderer can always say it from the catalogues.
 */
function listed(error: IpcError): IpcError {
  if (isErrorCode(error.code)) return error;
  return { ...error, code: UNLISTED_ERROR_CODE, params: { ...error.params, serviceCode: error.code } };
}

const isChannel = (name: string): name is Channel => Object.hasOwn(CHANNELS, name);

export type Dispatch = (channel: string, sender: SenderInfo, input: unknown) => Promise<Result<unknown>>;

export function createDispatcher(deps: DispatcherDeps): Dispatch {
  return async function dispatch(channel, sender, raw) {
    let operator: OperatorView | undefined;
    const trace: string[] = [];
    try {
      operator = await deps.currentOperator();
    } catch (error) {
      // The center cannot say who is signed in (down): its own words, never a raw error.
      if (!isUserError(error)) deps.onUnexpectedError?.(channel, error);
      const refused = isUserError(error)
        ? listed(error.toIpcError())
        : { code: 'internal', message: 'Something went wrong in the app. Try again; if it happens again, tell IT.' };
      deps.onCall?.({
        channel,
        input: undefined,
        raw,
        operator: undefined,
        stage: 'access',
        error: refused,
        output: undefined,
        trace,
      });
      return { ok: false, error: refused };
    }
    const finish = (stage: DoorCall['stage'], result: Result<unknown>, input?: unknown): Result<unknown> => {
      deps.onCall?.({
        channel,
        input,
        raw,
        operator,
        stage,
        error: result.ok ? undefined : result.error,
        output: result.ok ? result.value : undefined,
        trace,
      });
      return result;
    };
    if (!deps.isTrustedSender(sender))
      return finish('sender', refuse('forbidden_sender', 'This window may not use the app.'));
    if (!isChannel(channel)) return finish('channel', refuse('unknown_channel', 'The app does not offer this.'));
    const spec = CHANNELS[channel];

    const parsed = (spec.input as z.ZodType).safeParse(raw);
    if (!parsed.success) {
      // Card data or hidden characters in free text keep their own code, so that the renderer can word them.
      return finish('input', { ok: false, error: zodRefusal(parsed.error, 'invalid_input') });
    }

    if (spec.access !== 'public') {
      if (!operator) {
        const reason = deps.signedOutReason?.();
        return finish(
          'access',
          reason === undefined ? refuse('signed_out', 'Sign in to continue.') : { ok: false, error: listed(reason) },
          parsed.data,
        );
      }
      if (!(spec.access as readonly string[]).includes(operator.role))
        return finish('access', refuse('forbidden', 'Your role does not allow this.'), parsed.data);
    }
    // Only now, validated and allowed, does an operator's call count as activity for the idle lock.
    if (spec.activity === 'operator') deps.onActivity?.(channel);

    try {
      const handler = deps.handlers[channel] as (input: unknown, ctx: CallContext) => unknown;
      const value = await handler(parsed.data, { operator, senderId: sender.webContentsId, trace });
      const output = (spec.output as z.ZodType).safeParse(value);
      if (!output.success) {
        deps.onUnexpectedError?.(channel, new Error('handler output outside the contract'));
        return finish(
          'handler',
          refuse('internal', 'Something went wrong in the app. Try again; if it happens again, tell IT.'),
          parsed.data,
        );
      }
      return finish('handler', { ok: true, value: output.data }, parsed.data);
    } catch (error) {
      // Only a capability's own error, written for people, crosses; anything else is `internal`, with nothing of it sent.
      if (isUserError(error)) return finish('handler', { ok: false, error: listed(error.toIpcError()) }, parsed.data);
      deps.onUnexpectedError?.(channel, error);
      return finish(
        'handler',
        refuse('internal', 'Something went wrong in the app. Try again; if it happens again, tell IT.'),
        parsed.data,
      );
    }
  };
}
