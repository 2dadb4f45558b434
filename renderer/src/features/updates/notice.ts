// What the update banner shows for a status from main: nothing, or a ready update with or without the restart button.
import type { UpdateStatus } from '../../../../shared/ipc';

export type UpdateNotice =
  | { kind: 'none' }
  /** A verified update is ready; `afterCall` while a payment is in progress (no restart button until it has its result). */
  | { kind: 'ready'; version: string; afterCall: boolean };

/** Only a ready update concerns the agent; checking, downloading and failures are for IT's logs. */
export function noticeFor(status: UpdateStatus | undefined): UpdateNotice {
  if (status?.state !== 'ready') return { kind: 'none' };
  return { kind: 'ready', version: status.version ?? '', afterCall: status.blockedBy === 'payment_in_progress' };
}
