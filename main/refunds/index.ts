/** Refunds with approval: limits per role, agents' requests, manager override and the supervisors' queue. */
export { OVERRIDE_MAX_FAILURES, OVERRIDE_PAUSE_MS, RefundDesk, type RefundDeskDeps } from './desk';
export { refundedTodayCents, type RefundedPayment, type RefundHistory, type RefundOperationRecord } from './daily';
export { RefundError, type RefundErrorCode } from './errors';
export { refundOutcome, type RefundOutcome } from './outcome';
export {
  REFUND_REQUESTS_STORE,
  RefundRequests,
  requestView,
  type ActingSessions,
  type Decision,
  systemRequestId,
  type RefundRequestsDB,
  type StoredRequest,
} from './requests';
export { REFUND_REQUESTS_MOVE_IN } from './move-in';
