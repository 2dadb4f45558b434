/** The methods repository: the cards tokenized at the desks (brand, last 4, expiry, never a number), and the guest's consent to keep one. */
import type { MethodResource } from '../resources';
import { run, type JournalContext } from './context';
import { reservationKey } from './reservation-key';
import { toMethod } from './rows';
import { Statement, type Preparable } from './statement';
import type { MethodsTable } from './tables';
import type { StoredMethod } from './types';

type NewMethod = Omit<MethodsTable, 'kept_by' | 'kept_at'>;

const SAVE = new Statement((db, v: NewMethod) =>
  db
    .insertInto('methods')
    .values({
      id: v.id,
      reservation_id: v.reservation_id,
      reservation_key: v.reservation_key,
      brand: v.brand,
      last4: v.last4,
      exp_month: v.exp_month,
      exp_year: v.exp_year,
      expires_at: v.expires_at,
      created_at: v.created_at,
      desk_id: v.desk_id,
    })
    .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') }))),
);

const KEEP = new Statement((db, v: { id: string; reservationKey: string; by: string; at: string }) =>
  db
    .updateTable('methods')
    .set((eb) => ({
      kept_by: eb.fn.coalesce('kept_by', eb.val(v.by)),
      kept_at: eb.fn.coalesce('kept_at', eb.val(v.at)),
    }))
    .where('id', '=', v.id)
    .where('reservation_key', '=', v.reservationKey),
);

const OF_RESERVATION = new Statement((db, v: { reservationKey: string }) =>
  db.selectFrom('methods').selectAll().where('reservation_key', '=', v.reservationKey).orderBy('created_at'),
);

const BY_ID = new Statement((db, v: { id: string }) => db.selectFrom('methods').selectAll().where('id', '=', v.id));

/** Brand and last 4 of one card: what a payment's view may show of it. */
const CARD = new Statement((db, v: { id: string }) =>
  db.selectFrom('methods').select(['id', 'brand', 'last4']).where('id', '=', v.id),
);

export const METHOD_STATEMENTS: readonly Preparable[] = [SAVE, KEEP, OF_RESERVATION, BY_ID, CARD];

export class MethodsRepository {
  constructor(private readonly context: JournalContext) {}

  async saveMethod(method: MethodResource, reservationId: string): Promise<void> {
    await run(this.context, SAVE, {
      id: method.id,
      reservation_id: reservationId,
      reservation_key: reservationKey(reservationId),
      brand: method.card.brand,
      last4: method.card.last4.slice(-4),
      exp_month: method.card.expMonth,
      exp_year: method.card.expYear,
      expires_at: method.expiresAt ?? null,
      created_at: method.createdAt,
      desk_id: this.context.deskId,
    });
  }

  /**
   * The guest agreed to keep this card of the reservation for later charges: who recorded it and when. The first
   * consent stands (a second one changes nothing). False when the reservation has no such card.
   */
  async keepMethod(methodId: string, reservationId: string, by: string, at: string): Promise<boolean> {
    const result = await run(this.context, KEEP, {
      id: methodId,
      reservationKey: reservationKey(reservationId),
      by,
      at,
    });
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** The cards tokenized for a reservation, on every desk. */
  async methodsOf(reservationId: string): Promise<StoredMethod[]> {
    const { rows } = await run(this.context, OF_RESERVATION, { reservationKey: reservationKey(reservationId) });
    return rows.map(toMethod);
  }

  /** A card tokenized at a desk of the center, by its method id. */
  async method(id: string): Promise<StoredMethod | undefined> {
    const [row] = (await run(this.context, BY_ID, { id })).rows;
    return row && toMethod(row);
  }

  /** Brand and last 4 of these cards (what a payment's view may show of its card), by method id. */
  async cards(ids: readonly string[]): Promise<Map<string, { id: string; brand: string; last4: string }>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows =
      unique.length === 1
        ? (await run(this.context, CARD, { id: unique[0] ?? '' })).rows
        : await this.context.db
            .selectFrom('methods')
            .select(['id', 'brand', 'last4'])
            .where('id', 'in', unique)
            .execute();
    return new Map(rows.map((m) => [m.id, m]));
  }
}
