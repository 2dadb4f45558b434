// The desk's start: the screen shown while main connects to the center and completes what the last run left unanswered.
export { isStarting, STARTING_RETRY_MS, startupKeys, useStartupStatus } from './api';
export { StartingScreen } from './ui/StartingScreen';
