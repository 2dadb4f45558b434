/** Auto-update from IT's server (electron-updater, passed in), never while a payment is in progress; plain Node, no Electron imports. */
export { UpdateError, type UpdateErrorCode } from './errors';
export { pinsPublisher, updateSupport, type DeskFacts } from './support';
export {
  channelFeedUrl,
  createUpdater,
  INSTALL_DEADLINE_MS,
  type AutoUpdaterLike,
  type GenericFeed,
  type UpdateInfoLike,
  type UpdateLogger,
  type Updater,
  type UpdaterOptions,
} from './updater';
