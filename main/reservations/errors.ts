/** The reservations capability's one error type: a code to branch on and a sentence an agent understands, never a URL, secret or guest data. */
import type { ReservationErrorCode } from '../../shared/reservations';
import { UserError } from '../errors';

export class ReservationError extends UserError<ReservationErrorCode> {
  override readonly name = 'ReservationError';

  constructor(
    code: ReservationErrorCode,
    message: string,
    /** The partner system's HTTP status, for unauthorized, unavailable, rejected and bad_response. */
    readonly status?: number,
  ) {
    super(code, message, status === undefined ? {} : { params: { status } });
  }
}
