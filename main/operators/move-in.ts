/**
 * How operator accounts move into a center, never merged: one whose name the center already has is left out (the
 * center's account, its password and its lockout stand) and named for IT, unless it is the very same account (a second
 * run); into a center that has accounts of its own, one comes disabled. Open sessions are not moved: nobody is signed
 * in at a stopped desk.
 */
import { sql } from 'kysely';
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
      // Through operators.move_in_operator: a desk's login inserts no account. Into a center that has accounts of its
      // own an account comes disabled, for one of its admins to enable: no desk's file adds an enabled admin.
      write: async (center, row, { deskId }) => {
        const result = await sql<{ outcome: 'moved' | 'disabled' | 'same' | 'conflict' }>`
          SELECT operators.move_in_operator(${row.id}, ${row.display_name}, ${row.role}, ${row.disabled},
            ${row.password_hash}, ${row.created_at}, ${row.created_by}, ${deskId}) AS outcome`.execute(center);
        switch (result.rows[0]?.outcome) {
          case 'moved':
            return { moved: true };
          case 'same':
            return { moved: false };
          case 'disabled':
            return {
              moved: true,
              say: `"${row.id}": moved in disabled, as the center already has accounts of its own; an admin of the center enables it (Accounts) once they know whose it is.`,
            };
          default: {
            const there = await center
              .selectFrom('operators')
              .select(['desk_id'])
              .where('id', '=', row.id)
              .executeTakeFirst();
            return {
              moved: false,
              say:
                `"${row.id}": the center already has an operator of that name (created at ${there?.desk_id === null || there?.desk_id === undefined ? 'another desk' : `desk ${there.desk_id}`}); ` +
                "the center's account, its role and its password stand, this desk's was not moved. The operator signs in with the center's password; IT renames or removes one of them if they are two people.",
            };
          }
        }
      },
    }),
  ],
});
