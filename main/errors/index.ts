/** The one error type a person may read: every capability's refusals extend it, and it is the only one the IPC door lets cross. */
import type { ErrorParams, IpcError } from '../../shared/ipc';

export type { ErrorParams };
export { zodRefusal, type ZodRefusal } from './zod';

export interface UserErrorOptions {
  /** The input field at fault, when one is (the contract's name for it: `amount`, `id`, `approverPassword`…). */
  field?: string | undefined;
  /**
   * The numbers and names the refusal is made of (`{ leftCents: 5000, currency: 'usd' }`), so that a screen can say
   * it in the desk's language from the code alone. Only values main wrote itself: never input as typed, a card number,
   * a secret or a token.
   */
  params?: ErrorParams | undefined;
}

/** The line a log keeps of a refusal: its code, the field and the params (`refund_limit [amount] {"limitCents":5000}`). */
export function refusalLine(code: string, options: UserErrorOptions = {}): string {
  const params = options.params === undefined || Object.keys(options.params).length === 0 ? undefined : options.params;
  return `${code}${options.field === undefined ? '' : ` [${options.field}]`}${params === undefined ? '' : ` ${JSON.stringify(params)}`}`;
}

/**
 * A refusal or failure for the person at the desk. `code` is a stable name (snake_case, never renamed: the renderer's
 * catalogues and the audit trail key on it) and `params` the values its sentence is made of: the renderer words it in
 * the desk's language (renderer/src/i18n/errors.*.ts), and main writes no sentence for it — its `message` is the
 * refusal's line for logs (code, field, params). A capability whose errors IT also reads outside the app (a CLI, the
 * start-up dialog) may still give a sentence for them; it never crosses the door. Each capability has its own
 * subclass with its own codes; anything else that reaches the door is `internal`, with nothing of it sent.
 */
export abstract class UserError<Code extends string = string> extends Error {
  readonly code: Code;
  readonly field: string | undefined;
  readonly params: ErrorParams | undefined;

  protected constructor(code: Code, options?: UserErrorOptions);
  protected constructor(code: Code, message: string, options?: UserErrorOptions);
  /** Either of the two above, as a subclass that takes both was given it. */
  protected constructor(code: Code, messageOrOptions?: string | UserErrorOptions, options?: UserErrorOptions);
  protected constructor(code: Code, messageOrOptions: string | UserErrorOptions = {}, options: UserErrorOptions = {}) {
    const own = typeof messageOrOptions === 'string' ? options : messageOrOptions;
    super(typeof messageOrOptions === 'string' ? messageOrOptions : refusalLine(code, own));
    this.code = code;
    this.field = own.field;
    this.params = own.params;
  }

  /** What crosses the door: the code, and the field and params when there are any. Never a sentence, a stack or a cause. */
  toIpcError(): IpcError {
    return {
      code: this.code,
      ...(this.field === undefined ? {} : { field: this.field }),
      ...(this.params === undefined || Object.keys(this.params).length === 0 ? {} : { params: { ...this.params } }),
    };
  }
}

/**
 * A capability's refusal made of its code and params only (no field, no sentence): the error class of a capability that
 * needs nothing more. What IT reads of it outside the app is worded from the code and params by composition.
 */
export abstract class CodedRefusal<Code extends string = string> extends UserError<Code> {
  constructor(code: Code, params?: ErrorParams) {
    super(code, params === undefined ? {} : { params });
  }
}

/**
 * A capability's refusal of which the `Sentenced` codes may also carry a sentence (IT reads them outside the app, or a
 * queue shows them as they are); any other code is its code, field and params only.
 */
export abstract class SentencedRefusal<Code extends string, Sentenced extends Code> extends UserError<Code> {
  constructor(code: Code, options?: UserErrorOptions);
  constructor(code: Sentenced, message: string, options?: UserErrorOptions);
  constructor(code: Code, messageOrOptions?: string | UserErrorOptions, options?: UserErrorOptions) {
    super(code, messageOrOptions, options);
  }
}

/** True for an error the door may show: one of the capabilities' own. */
export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
