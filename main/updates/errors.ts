/** The updater's one error type: a code to branch on, which the renderer words for the agent. */
import { CodedRefusal } from '../errors';

export type UpdateErrorCode =
  /** A payment of this desk has no result yet (or an operation is pending): the app must not quit now. */
  | 'payment_in_progress'
  /** There is no downloaded, verified update to install. */
  | 'not_ready';

export class UpdateError extends CodedRefusal<UpdateErrorCode> {
  override readonly name = 'UpdateError';
}
