// The center's live feed: what the open screens watch of the other desks' work, main's pushed changes, and the note shown while the center is being reconnected.
export { useLiveEvent, useLiveStatus, useLiveWatch } from './api';
export { LiveNote } from './ui/LiveNote';
