/** An abandoned payment that succeeded after all: a second charge, queued once for a supervisor to refund. */
import type { Journal, StoredPayment } from '../journal';
import type { EngineLogger } from '../ledger';
import type { RefundNeeded } from './context';

/**
 * An abandoned payment the service says succeeded (its cardholder approved the old link: the service has no cancel)
 * is a second charge: its whole amount goes to the supervisors' queue as a duplicate of the reservation's payment after
 * it, and the desk that abandoned it is alerted. Whichever desk learns it first writes it; written once per payment.
 */
export class LateSuccesses {
  /** The writing of each one's refund request (a read meanwhile waits for the same one). */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      journal: Journal;
      logger?: EngineLogger | undefined;
      handler: () => ((needed: RefundNeeded) => Promise<void>) | undefined;
    },
  ) {}

  notice(stored: StoredPayment): Promise<void> {
    const handler = this.deps.handler();
    if (stored.abandonedAt === undefined || stored.status !== 'succeeded' || handler === undefined)
      return Promise.resolve();
    const known = this.writing.get(stored.id);
    if (known !== undefined) return known;
    const writing = this.queue(stored, handler);
    this.writing.set(stored.id, writing);
    return writing;
  }

  private async queue(stored: StoredPayment, handler: (needed: RefundNeeded) => Promise<void>): Promise<void> {
    try {
      const later = (await this.deps.journal.paymentsOf(stored.reservationId)).filter(
        (p) => p.id !== stored.id && p.createdAt > stored.createdAt,
      );
      const replacement = later.find((p) => p.status !== 'failed' && p.abandonedAt === undefined) ?? later[0];
      await handler({
        origin: 'late_success',
        paymentId: stored.id,
        reservationId: stored.reservationId,
        amountCents: stored.amountCents,
        currency: stored.currency,
        operatorId: stored.abandonedBy ?? stored.operatorId ?? 'system',
        ...(stored.abandonedDeskId === undefined ? {} : { alertDeskId: stored.abandonedDeskId }),
        ...(replacement === undefined ? {} : { linkedPaymentId: replacement.id }),
      });
    } catch (error) {
      // Written at the next read of it (here or at another desk).
      this.writing.delete(stored.id);
      this.deps.logger?.warn(
        { paymentId: stored.id, code: error instanceof Error ? error.name : 'unknown' },
        'the late success of an abandoned payment could not be queued',
      );
    }
  }
}
