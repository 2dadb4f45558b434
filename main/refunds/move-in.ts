/** How refund requests move into a center: each keeps its id and decision. */
import type { Selectable } from 'kysely';
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
  tables: (table) => [table({ table: 'requests', key: 'id', row: withDesks, unique: ['id'] })],
});
