/**
 * How the payment journal moves into a center. Every row of the desk's file is this desk's (as Journal.open names them);
 * operations keep their key and state: one still unanswered stays pending, so that the desk recovers it from the center
 * at its next start with the Idempotency-Key it wrote before sending it. The attempts (a log without keys of its own)
 * are told apart by their request id.
 */
import { MoveRefused, declareMoveIn, nameByKey, without, type MoveContext, type StoreMoveIn } from '../storage';
import { JOURNAL_STORE, reservationKey, type JournalDB } from './journal';

/** The desk's id on the row, and its reservation's key (rows of an app that kept none). */
const stamped = <R extends { reservation_id: string; reservation_key: string | null }>(
  row: R,
  { deskId }: MoveContext,
): R & { desk_id: string; reservation_key: string } => ({
  ...row,
  desk_id: deskId,
  reservation_key: row.reservation_key ?? reservationKey(row.reservation_id),
});

export const JOURNAL_MOVE_IN: StoreMoveIn = declareMoveIn<JournalDB>({
  definition: JOURNAL_STORE,
  freeText: [
    {
      table: 'operations',
      columns: ['payload', 'error_code', 'reservation_id'],
      json: ['payload'],
      name: nameByKey('operation', 'key'),
    },
    {
      table: 'payments',
      columns: ['failure_message', 'metadata', 'reservation_id'],
      json: ['metadata'],
      name: nameByKey('payment', 'id'),
    },
    { table: 'refunds', columns: ['reason'], name: nameByKey('refund', 'id') },
  ],
  // An earlier app let a second unanswered payment of one reservation through (it keeps no reservation key); the center's
  // rule allows one. The desk answers both at its next start on its own files.
  prepare: async (desk) => {
    const unanswered = await desk
      .selectFrom('operations')
      .select(['reservation_id', 'reservation_key'])
      .where('kind', '=', 'create_payment')
      .where('state', '=', 'pending')
      .execute();
    const keys = unanswered.map((row) => row.reservation_key ?? reservationKey(row.reservation_id));
    const twice = unanswered.find((_, index) => keys.indexOf(keys[index] ?? '') !== index);
    if (twice !== undefined) {
      throw new MoveRefused(
        `this desk has two payments of reservation ${twice.reservation_id} still unanswered (an earlier version let it happen): start the desk once more on its own files so that it recovers them, stop it, then move it again`,
      );
    }
    return undefined;
  },
  tables: (table) => [
    table({
      table: 'operations',
      key: 'key',
      row: (row, context) => stamped(row, context),
      // The center's money rules, said for IT before the database refuses them: another desk's unanswered payment of the
      // same reservation (or refund of the same payment) must be answered first.
      check: async (center, rows) => {
        for (const row of rows.filter((r) => r.state === 'pending')) {
          const rival = await center
            .selectFrom('operations')
            .select(['key', 'desk_id'])
            .where('state', '=', 'pending')
            .where('key', '!=', row.key)
            .where((eb) =>
              row.kind === 'create_payment'
                ? eb.and([eb('kind', '=', 'create_payment'), eb('reservation_key', '=', row.reservation_key)])
                : row.kind === 'refund' && row.payment_id !== null
                  ? eb.and([eb('kind', '=', 'refund'), eb('payment_id', '=', row.payment_id)])
                  : eb.val(false),
            )
            .executeTakeFirst();
          if (rival !== undefined) {
            throw new MoveRefused(
              row.kind === 'create_payment'
                ? `this desk has a payment of reservation ${row.reservation_id} still unanswered, and desk ${rival.desk_id} has another one on the center: start that desk so that it recovers its own, then move this one again`
                : `this desk has a refund of payment ${row.payment_id ?? ''} still unanswered, and desk ${rival.desk_id} has another one on the center: start that desk so that it recovers its own, then move this one again`,
            );
          }
        }
      },
      unique: ['key'],
    }),
    table({
      table: 'attempts',
      key: 'id',
      // The center numbers its own attempts (every desk's); the desk's numbers are not kept.
      row: (row, { deskId }) => ({ ...without(row, 'id'), desk_id: deskId }),
      present: { key: ['desk_id', 'request_id'] },
    }),
    table({ table: 'methods', key: 'id', row: (row, context) => stamped(row, context), unique: ['id'] }),
    table({ table: 'payments', key: 'id', row: (row, context) => stamped(row, context), unique: ['id'] }),
    table({ table: 'refunds', key: 'id', row: (row, { deskId }) => ({ ...row, desk_id: deskId }), unique: ['id'] }),
  ],
});
