/** What every reservation source offers the app, and the checks on what goes in. */
import type { z } from 'zod';
import { ReservationId } from '../../shared/payments';
import { ReservationQuery, type ReservationView } from '../../shared/reservations';
import { zodRefusal } from '../errors';
import { ReservationError } from './errors';

export interface ReservationSource {
  readonly kind: 'builtin' | 'rest';
  /** At most MAX_SEARCH_RESULTS reservations, best matches first; [] when nothing matches. Throws ReservationError. */
  search(query: z.input<typeof ReservationQuery>): Promise<ReservationView[]>;
  /** The reservation with this confirmation number (any case), or undefined. Throws ReservationError. */
  get(confirmationNumber: string): Promise<ReservationView | undefined>;
  /** Releases the file or aborts what is in flight; later calls fail with `closed`. Safe to call twice. */
  close(): Promise<void>;
}

/** The query as the schema leaves it (trimmed), or invalid_query with the schema's own sentence. */
export function checkQuery(query: unknown): ReservationQuery {
  const result = ReservationQuery.safeParse(query);
  if (result.success) return result.data;
  throw new ReservationError('invalid_query', { field: zodRefusal(result.error, 'invalid_query').field });
}

export function checkConfirmationNumber(id: unknown): string {
  const result = ReservationId.safeParse(id);
  if (result.success) return result.data;
  throw new ReservationError('invalid_query', {
    field: zodRefusal(result.error, 'invalid_query', ['reservationId']).field,
  });
}

export const closedError = (): ReservationError => new ReservationError('closed');
