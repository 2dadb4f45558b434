/** How refund requests move into a center: each keeps its id and decision. */
import { sql, type Selectable } from 'kysely';
import { declareMoveIn, nameByKey, type MoveContext, type StoreMoveIn } from '../storage';
import { REFUND_REQUESTS_STORE, type RefundRequestsDB } from './requests';

/** A request of before desk ids was asked (and, once decided, decided) at this desk. */
const withDesks = (row: Selectable<RefundRequestsDB['requests']>, { deskId }: MoveContext) => ({
  ...row,
  desk_id: row.desk_id ?? deskId,
  decided_desk_id: row.decided_desk_id ?? (row.status === 'pending' ? null : deskId),
});

export const REFUND_REQUESTS_MOVE_IN: StoreMoveIn = declareMoveIn<RefundRequestsDB>({
  definition: REFUND_REQUESTS_STORE,
  freeText: [
    {
      table: 'requests',
      columns: ['reason', 'note', 'decision_note', 'failure'],
      name: nameByKey('refund request', 'id'),
    },
  ],
  tables: (table) => [
    table({
      table: 'requests',
      key: 'id',
      row: withDesks,
      // Through refund_requests.move_in_request: a desk's login inserts no request, and only its own (asked and decided
      // there). A request whose id the center has is left as the center has it.
      write: async (center, row, { deskId }) => {
        const result = await sql<{ outcome: 'moved' | 'same' }>`
          SELECT refund_requests.move_in_request(${JSON.stringify(row)}::jsonb, ${deskId}) AS outcome`.execute(center);
        return { moved: result.rows[0]?.outcome === 'moved' };
      },
    }),
  ],
});
