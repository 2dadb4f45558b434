// Refunds: the supervisor's refund form, the agent's request with a supervisor's override, the approvals queue, and a
// payment's refunds and requests as lists.
export { refundKeys, useRefund, useRefundLimits, useRequestsFor } from './api';
export { checkDraft, emptyDraft, type RefundDraft } from './draft';
export { AttemptSubmit, type AttemptError } from './ui/AttemptSubmit';
export { RefundFields } from './ui/RefundFields';
export { RefundList } from './ui/RefundList';
export { RequestList, RequestRefund } from './ui/RequestRefund';
