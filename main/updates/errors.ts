/** The updater's one error type: a code to branch on and a sentence for the agent. */
import { UserError } from '../errors';

export type UpdateErrorCode =
  /** A payment of this desk has no result yet (or an operation is pending): the app must not quit now. */
  | 'payment_in_progress'
  /** There is no downloaded, verified update to install. */
  | 'not_ready';

export class UpdateError extends UserError<UpdateErrorCode> {
  override readonly name = 'UpdateError';

  constructor(code: UpdateErrorCode, message: string) {
    super(code, message);
  }
}
