/** How refund requests move into a center: they keep their ids and decisions; those of before desk ids were asked (and decided) at this desk. */
import { declareMoveIn, nameByKey, tablesOf, type StoreMoveIn } from '../storage';
import { REFUND_REQUESTS_STORE, type RefundRequestsDB } from './requests';

const table = tablesOf<RefundRequestsDB>();

export const REFUND_REQUESTS_MOVE_IN: StoreMoveIn = declareMoveIn<RefundRequestsDB>({
  definition: REFUND_REQUESTS_STORE,
  tables: [
    table({
      table: 'requests',
      key: 'id',
      row: (row, { deskId }) => ({
        ...row,
        desk_id: row.desk_id ?? deskId,
        decided_desk_id: row.decided_desk_id ?? (row.status === 'pending' ? null : deskId),
      }),
      conflict: ['id'],
    }),
  ],
  freeText: [
    {
      table: 'requests',
      columns: ['reason', 'note', 'decision_note', 'failure'],
      name: nameByKey('refund request', 'id'),
    },
  ],
});
