/** One change of a payment at a time: in turn on this desk, and across the center by the journal's lease. */
import { ServiceError } from '../errors';
import type { Journal } from '../journal';
import type { EngineLogger } from '../ledger';

/**
 * How long a change of a payment holds its lease at most: longer than a change takes with its retries; a desk that
 * stopped while holding it frees the payment after this.
 */
const LEASE_MS = 2 * 60_000;

export class PaymentLeases {
  /** Changes of a payment (amount update, confirmation) run one after the other on this desk. */
  private readonly changing = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: { journal: Journal; logger?: EngineLogger | undefined }) {}

  /**
   * A change of a payment (amount update, confirmation, abandon) holds its lease in the journal while it runs: one at a
   * time across the center, in turn on this desk. Held by another desk or operator, it is refused naming them; a
   * holder that stopped frees it when its lease expires (LEASE_MS, the database's clock).
   */
  exclusive<T>(paymentId: string, operatorId: string, change: () => Promise<T>): Promise<T> {
    const { journal, logger } = this.deps;
    return this.oneAtATime(paymentId, async () => {
      const lease = await journal.takeLease(paymentId, operatorId, LEASE_MS);
      if ('heldBy' in lease) {
        const { deskId, operatorId: holder } = lease.heldBy;
        throw new ServiceError('invalid_input', 'payment_change_in_progress', {
          param: 'paymentId',
          params: { operatorId: holder, deskId },
        });
      }
      try {
        return await change();
      } finally {
        await journal.releaseLease(paymentId, lease.token).catch((error: unknown) => {
          // Not released: it expires by itself.
          logger?.warn(
            { paymentId, code: error instanceof Error ? error.name : 'unknown' },
            'payment lease not released',
          );
        });
      }
    });
  }

  /** Runs `change` after every earlier change of the same payment has finished. */
  private async oneAtATime<T>(paymentId: string, change: () => Promise<T>): Promise<T> {
    const before = this.changing.get(paymentId) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(change);
    this.changing.set(paymentId, run);
    try {
      return await run;
    } finally {
      if (this.changing.get(paymentId) === run) this.changing.delete(paymentId);
    }
  }
}
