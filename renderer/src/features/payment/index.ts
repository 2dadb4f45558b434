// The payment on the call: card form, charge, live status (3DS link, MSI plans), result; the payment main reports.
export { amountText, parseAmount, type AmountProblem, type ParsedAmount } from './amount';
export { paymentKeys, storePayment, usePayment, usePaymentEvents, useWatchPayment, watchPayment } from './api';
export { PaymentFlow } from './ui/PaymentFlow';
export { Receipt } from './ui/Receipt';
export { AbandonedNotice } from './ui/AbandonedNotice';
export { LateSuccessAlert } from './ui/LateSuccessAlert';
export { RecoveredNotices, ReservationRecovered } from './ui/RecoveredNotices';
export { brandLabel } from './ui/card/brand';
export { inProgressCents } from './waiting';
