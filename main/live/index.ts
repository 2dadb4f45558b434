/** Live updates for open screens: the center's changes at other desks (LISTEN/NOTIFY), forwarded to the windows that watch them. */
export { LiveFeed, type LiveFeedDeps, type LiveWatch } from './feed';
