/** The reservations capability's one error type: a code to branch on and a sentence an agent understands, never a URL, secret or guest data. */
import type { ReservationErrorCode } from '../../shared/reservations';

export class ReservationError extends Error {
  override readonly name = 'ReservationError';

  constructor(
    readonly code: ReservationErrorCode,
    message: string,
    /** The partner system's HTTP status, for unauthorized, unavailable, rejected and bad_response. */
    readonly status?: number,
  ) {
    super(message);
  }
}
