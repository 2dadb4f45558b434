// The admin's sections: operators' accounts and roles, and the import of the hotel's reservations from a CSV.
export { adminKeys, useOperators } from './api';
export { Accounts } from './ui/Accounts';
export { ImportReservations } from './ui/ImportReservations';
