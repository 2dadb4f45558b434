/** The leases and attempts repository: one change of a payment at a time on every desk, and the log of each request sent. */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { databaseNowMs } from '../../storage';
import type { Attempt } from '../client';
import { run, type JournalContext } from './context';
import { Statement, type Preparable } from './statement';
import type { AttemptsTable } from './tables';
import type { LeaseHolder } from './types';

const RECORD_ATTEMPT = new Statement((db, v: Omit<AttemptsTable, 'id'>) =>
  db.insertInto('attempts').values({
    idempotency_key: v.idempotency_key,
    operation: v.operation,
    attempt: v.attempt,
    request_id: v.request_id,
    status: v.status,
    elapsed_ms: v.elapsed_ms,
    at: v.at,
    desk_id: v.desk_id,
  }),
);

export const LEASE_STATEMENTS: readonly Preparable[] = [RECORD_ATTEMPT];

export class LeasesRepository {
  constructor(private readonly context: JournalContext) {}

  /** A log for IT that nothing is decided from: on the embedded file its commit does not wait for the disk. */
  async recordAttempt(attempt: Attempt, at: number): Promise<void> {
    const { store, db, deskId } = this.context;
    const values = {
      idempotency_key: attempt.idempotencyKey ?? null,
      operation: attempt.operation,
      attempt: attempt.attempt,
      request_id: attempt.requestId,
      status: String(attempt.status),
      elapsed_ms: attempt.elapsedMs,
      at,
      desk_id: deskId,
    };
    if (store.unsynced === undefined || db !== store.db) await run(this.context, RECORD_ATTEMPT, values);
    else await store.unsynced((unsynced) => RECORD_ATTEMPT.execute(store, unsynced, values));
  }

  /**
   * Takes the payment's lease for this desk and operator until `ttlMs` from now by the database's clock, in one
   * statement: written when nobody holds it or the holder's lease has expired. Answers its token, or who holds it.
   */
  async takeLease(
    paymentId: string,
    operatorId: string,
    ttlMs: number,
  ): Promise<{ token: string } | { heldBy: LeaseHolder }> {
    const now = databaseNowMs(this.context.store.backend);
    for (;;) {
      const token = randomUUID();
      const taken = await this.context.db
        .insertInto('payment_leases')
        .values({
          payment_id: paymentId,
          desk_id: this.context.deskId,
          operator_id: operatorId,
          token,
          expires_at: sql<number>`${now} + ${ttlMs}`,
        })
        .onConflict((oc) =>
          oc
            .column('payment_id')
            .doUpdateSet((eb) => ({
              desk_id: eb.ref('excluded.desk_id'),
              operator_id: eb.ref('excluded.operator_id'),
              token: eb.ref('excluded.token'),
              expires_at: eb.ref('excluded.expires_at'),
            }))
            .where('payment_leases.expires_at', '<=', now),
        )
        .returning('token')
        .executeTakeFirst();
      if (taken !== undefined) return { token };
      const holder = await this.context.db
        .selectFrom('payment_leases')
        .select(['desk_id', 'operator_id'])
        .where('payment_id', '=', paymentId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      // Released or expired between the two statements: taken again.
      if (holder !== undefined) return { heldBy: { deskId: holder.desk_id, operatorId: holder.operator_id } };
    }
  }

  /** Releases the lease this token took (nothing when it expired and another desk took it since). */
  async releaseLease(paymentId: string, token: string): Promise<void> {
    await this.context.db
      .updateTable('payment_leases')
      .set({ expires_at: 0 })
      .where('payment_id', '=', paymentId)
      .where('token', '=', token)
      .execute();
  }
}
