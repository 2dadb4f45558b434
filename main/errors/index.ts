/** The one error type a person may read: every capability's refusals extend it, and it is the only one the IPC door lets cross. */
import type { ErrorParams, IpcError } from '../../shared/ipc';

export type { ErrorParams };

export interface UserErrorOptions {
  /** The input field at fault, when one is (the contract's name for it: `amount`, `id`, `approverPassword`…). */
  field?: string | undefined;
  /**
   * The numbers and names the message is made of (`{ leftCents: 5000, currency: 'usd' }`), so that a screen can say
   * it again in the desk's language from the code alone. Only values main wrote itself: never input as typed, a
   * card number, a secret or a token.
   */
  params?: ErrorParams | undefined;
}

/**
 * A refusal or failure written for the person at the desk. `code` is a stable name (snake_case, never renamed: the
 * renderer's catalogues and the audit trail key on it), `message` says in words what happened and what to do (in
 * English: the renderer may say it again in the desk's language from `code` and `params`). Each capability has its
 * own subclass with its own codes; anything else that reaches the door is `internal`, with nothing of it sent.
 */
export abstract class UserError<Code extends string = string> extends Error {
  readonly field: string | undefined;
  readonly params: ErrorParams | undefined;

  protected constructor(
    readonly code: Code,
    message: string,
    options: UserErrorOptions = {},
  ) {
    super(message);
    this.field = options.field;
    this.params = options.params;
  }

  /** What crosses the door: code, message, and the field and params when there are any. Never a stack or a cause. */
  toIpcError(): IpcError {
    return {
      code: this.code,
      message: this.message,
      ...(this.field === undefined ? {} : { field: this.field }),
      ...(this.params === undefined || Object.keys(this.params).length === 0 ? {} : { params: { ...this.params } }),
    };
  }
}

/** True for an error the door may show: one of the capabilities' own. */
export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
