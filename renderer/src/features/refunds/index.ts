// Refunds: the supervisor's refund, an agent's request with a supervisor's override, the approvals queue, lists.
export { refundKeys, useRefund, useRefundLimits, useRequestsFor } from './api';
export { checkDraft, emptyDraft, type RefundDraft } from './draft';
export { AttemptSubmit, type AttemptError } from './ui/AttemptSubmit';
export { ConfirmRefund } from './ui/ConfirmRefund';
export { RefundFields } from './ui/RefundFields';
export { RefundList } from './ui/RefundList';
export { RequestList, RequestRefund } from './ui/RequestRefund';
export { useRefundDraft } from './ui/useRefundDraft';
