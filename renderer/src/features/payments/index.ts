// Payments search for supervisors: find a payment in the journal and open it to see its refunds and refund it.
export { paymentsKeys, useFreshPayment, usePaymentSearch } from './api';
export { PaymentsDesk } from './ui/PaymentsDesk';
