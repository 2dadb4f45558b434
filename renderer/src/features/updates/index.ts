// Updates: the banner that tells the agent a verified update is ready and restarts to install it, never during a payment.
export { updateKeys, useRestartToUpdate, useUpdateStatus } from './api';
export { noticeFor, type UpdateNotice as UpdateNoticeKind } from './notice';
export { UpdateBanner } from './ui/UpdateBanner';
