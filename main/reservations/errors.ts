/**
 * The reservations capability's one error type: a code and its params, which the renderer words; never a URL, secret or
 * guest data. What IT reads when the app starts or the source is set up (`configuration`, `bad_response`, the file at
 * `storage`) also has a sentence naming the setting or the partner's field; it never crosses the door.
 */
import type { ReservationErrorCode } from '../../shared/reservations';
import { UserError, type UserErrorOptions } from '../errors';

/** The codes IT reads in words too (start-up, the source's set-up). */
type ForIT = Extract<ReservationErrorCode, 'configuration' | 'bad_response' | 'storage'>;

export interface ReservationErrorOptions extends UserErrorOptions {
  /** The partner system's HTTP status (sent as the `status` param). */
  status?: number | undefined;
}

export class ReservationError extends UserError<ReservationErrorCode> {
  override readonly name = 'ReservationError';

  /** The partner system's HTTP status, for unauthorized, unavailable, rejected and bad_response. */
  readonly status: number | undefined;

  constructor(code: ReservationErrorCode, options?: ReservationErrorOptions);
  constructor(code: ForIT, message: string, status?: number);
  constructor(code: ReservationErrorCode, messageOrOptions: string | ReservationErrorOptions = {}, status?: number) {
    const options = typeof messageOrOptions === 'string' ? { status } : messageOrOptions;
    const own: UserErrorOptions = {
      field: options.field,
      params:
        options.status === undefined && options.params === undefined
          ? undefined
          : { ...options.params, ...(options.status === undefined ? {} : { status: options.status }) },
    };
    if (typeof messageOrOptions === 'string') super(code, messageOrOptions, own);
    else super(code, own);
    this.status = options.status;
  }
}
