/** How the link and receipt deliveries move into a center, with their histories; those sent before desk ids were this desk's. */
import type { Selectable } from 'kysely';
import { declareMoveIn, nameByKey, without, type StoreMoveIn } from '../storage';
import { DELIVERIES_STORE, type DeliveriesDB } from './audit';

/** One delivery's history line, as compared between the file and the center. */
const eventKey = (row: Omit<Selectable<DeliveriesDB['delivery_events']>, 'id'>): string =>
  JSON.stringify([
    row.message_id,
    row.at,
    row.status,
    row.provider_status,
    row.provider_code,
    row.failure_code,
    row.more_info,
  ]);

export const DELIVERIES_MOVE_IN: StoreMoveIn = declareMoveIn<DeliveriesDB>({
  definition: DELIVERIES_STORE,
  freeText: [
    {
      table: 'deliveries',
      columns: ['destination_masked', 'failure_message', 'more_info'],
      name: nameByKey('delivery', 'message_id'),
    },
    {
      table: 'delivery_events',
      columns: ['provider_status', 'more_info'],
      name: (row) => `history line ${String(row.id)} of delivery ${String(row.message_id)}`,
    },
  ],
  tables: (table) => [
    table({
      table: 'deliveries',
      key: 'message_id',
      row: (row, { deskId }) => ({ ...row, desk_id: row.desk_id === '' ? deskId : row.desk_id }),
      unique: ['message_id'],
      children: [
        {
          by: 'message_id',
          table: table({
            table: 'delivery_events',
            key: 'id',
            row: (row) => without(row, 'id'),
            // The center numbers its own history lines: a line is already there when the center has an equal one
            // (as many times).
            absent: async (center, rows) => {
              const ids = [...new Set(rows.map((row) => row.message_id))];
              const lines = await center
                .selectFrom('delivery_events')
                .selectAll()
                .where('message_id', 'in', ids)
                .execute();
              const there = new Map<string, number>();
              for (const line of lines) there.set(eventKey(line), (there.get(eventKey(line)) ?? 0) + 1);
              return rows.filter((row) => {
                const left = there.get(eventKey(row)) ?? 0;
                if (left === 0) return true;
                there.set(eventKey(row), left - 1);
                return false;
              });
            },
          }),
        },
      ],
    }),
  ],
});
