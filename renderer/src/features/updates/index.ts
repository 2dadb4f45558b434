// Updates: the banner saying a verified update is ready, and the restart that installs it, never during a payment.
export { updateKeys, useRestartToUpdate, useUpdateStatus } from './api';
export { noticeFor, type UpdateNotice as UpdateNoticeKind } from './notice';
export { UpdateBanner } from './ui/UpdateBanner';
