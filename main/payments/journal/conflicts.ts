/** Which of the journal's unique indexes a write broke: the same operation twice, or a money rule of the center. */
import { isUniqueViolation } from '../../storage';
import { ONE_REFUND_IN_FLIGHT_INDEX, ONE_UNANSWERED_PAYMENT_INDEX } from './schema';
import type { JournalConflict } from './types';

/** Which rule a unique violation broke: SQLite names the columns, PostgreSQL the index. */
export function journalConflict(error: unknown): JournalConflict | undefined {
  if (!isUniqueViolation(error)) return undefined;
  const constraint = error.constraint ?? '';
  if (constraint.includes(ONE_UNANSWERED_PAYMENT_INDEX) || /operations\.reservation_key/.test(constraint))
    return 'payment_unanswered';
  if (constraint.includes(ONE_REFUND_IN_FLIGHT_INDEX) || /operations\.payment_id/.test(constraint))
    return 'refund_in_flight';
  return 'operation_exists';
}
