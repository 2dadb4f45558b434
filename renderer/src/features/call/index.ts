// The call: find the reservation, show it, and keep the call's working state (reservation, payment, operation ids).
export { callKeys, useOverview, useReservation, useReservationSearch } from './api';
export { useCall } from './store';
export { Lookup } from './ui/Lookup';
export { ReservationBar } from './ui/ReservationBar';
export { ReservationSummary } from './ui/ReservationSummary';
