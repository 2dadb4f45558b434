/**
 * How operator accounts move into a center, never merged: one whose name the center already has is left out (the
 * center's account, its password and its lockout stand) and named for IT, unless it is the very same account (a second
 * run). Open sessions are not moved: nobody is signed in at a stopped desk.
 */
import { declareMoveIn, nameByRow, type StoreMoveIn } from '../storage';
import { OPERATORS_STORE, type OperatorsDB } from './store';

export const OPERATORS_MOVE_IN: StoreMoveIn = declareMoveIn<OperatorsDB>({
  definition: OPERATORS_STORE,
  freeText: [
    { table: 'operators', columns: ['id', 'display_name'], name: nameByRow('operator', OPERATORS_STORE.sqlite.file) },
  ],
  tables: (table) => [
    table({
      table: 'operators',
      key: 'id',
      row: (found, { deskId }) => ({ ...found, id: found.id.trim().toLowerCase(), desk_id: found.desk_id ?? deskId }),
      unique: ['id'],
      conflict: async (center, row) => {
        const there = await center
          .selectFrom('operators')
          .select(['password_hash', 'created_at', 'desk_id'])
          .where('id', '=', row.id)
          .executeTakeFirst();
        if (
          there !== undefined &&
          there.password_hash === row.password_hash &&
          Number(there.created_at) === Number(row.created_at)
        )
          return undefined;
        return (
          `"${row.id}": the center already has an operator of that name (created at ${there?.desk_id === null || there?.desk_id === undefined ? 'another desk' : `desk ${there.desk_id}`}); ` +
          "the center's account, its role and its password stand, this desk's was not moved. The operator signs in with the center's password; IT renames or removes one of them if they are two people."
        );
      },
    }),
  ],
});
