// The payment on the call: the card form, the charge, its live status (3DS link, MSI plans), its result; and the
// payment as main reports it, which the other features read (refunds, payments, training).
export { amountText, parseAmount, type AmountProblem, type ParsedAmount } from './amount';
export { paymentKeys, storePayment, usePayment, usePaymentEvents, useWatchPayment, watchPayment } from './api';
export { PaymentFlow } from './ui/PaymentFlow';
export { brandLabel } from './ui/Result';
