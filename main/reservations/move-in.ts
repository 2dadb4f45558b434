/**
 * How imported reservations move into a center (the center's are every desk's): one the center already has under the
 * same confirmation number (imported at another desk) is left as the center has it. Training's demo guests are never
 * moved.
 */
import { declareMoveIn, nameByRow, type StoreMoveIn } from '../storage';
import { confirmationKey } from './match';
import { RESERVATIONS_STORE, type ReservationsDB } from './store';

export const RESERVATIONS_MOVE_IN: StoreMoveIn = declareMoveIn<ReservationsDB>({
  definition: RESERVATIONS_STORE,
  // The confirmation number too: an older import kept any text there.
  freeText: [
    {
      table: 'reservations',
      columns: ['confirmation_number', 'guest_name', 'hotel_name', 'guest_email'],
      name: nameByRow('reservation', RESERVATIONS_STORE.sqlite.file),
    },
  ],
  tables: (table) => [
    table({
      table: 'reservations',
      key: 'id_key',
      row: (row, { deskId }) =>
        row.origin !== 'import'
          ? undefined
          : {
              ...row,
              desk_id: row.desk_id === '' ? deskId : row.desk_id,
              confirmation_key: row.confirmation_key ?? confirmationKey(row.confirmation_number),
            },
      unique: ['id_key'],
    }),
  ],
});
