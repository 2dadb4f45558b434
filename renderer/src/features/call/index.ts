// The call: find the reservation (lookup), show it (summary), and the call's working state — which reservation, which
// payment, and the operation ids that make retries safe.
export { callKeys, useOverview, useReservation, useReservationSearch } from './api';
export { useCall } from './store';
export { Lookup } from './ui/Lookup';
export { ReservationSummary } from './ui/ReservationSummary';
