// The center's live feed: what the open screens watch of the other desks' work, main's pushed changes, what became of
// the operator's refund requests, and the note shown while the center is being reconnected.
export { useLiveEvent, useLiveStatus, useLiveWatch, useRefundOutcomes, type RefundOutcome } from './api';
export { LiveNote } from './ui/LiveNote';
export { RefundOutcomes } from './ui/RefundOutcomes';
