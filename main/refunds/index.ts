/** Refunds with approval: limits per role, agents' requests, manager override and the supervisors' queue. */
export { RefundDesk, type RefundDeskDeps } from './desk';
export { RefundError, type RefundErrorCode } from './errors';
export { RefundRequests, requestView, type StoredRequest } from './requests';
