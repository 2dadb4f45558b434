/**
 * Call-center mode: the desk's stable id and the center's desk registry, and IT's --check-center, --migrate-center and
 * --move-in. The `center` setting and the stores themselves live in main/storage (the settings capability reads it there).
 */
export {
  CENTER_SSL_MODES,
  CenterSettings,
  centerConnection,
  describeCenter,
  type CenterConnectionDeps,
} from '../storage';
export { DESK_FILE, DeskIdentityError, deskIdentity, type DeskIdentity } from './desk-id';
export {
  DESK_NONCE_FILE,
  DESKS_STORE,
  DeskCredentialError,
  DeskRegistryError,
  registerDesk,
  type DesksDB,
  type RegisterDeskOptions,
} from './registry';
export {
  CENTER_STORES,
  CHECK_CENTER_FLAG,
  checkCenter,
  formatCenterCheck,
  runCenterCheck,
  type RunCenterCheckOptions,
  type CenterCheckLine,
  type CenterCheckReport,
  type CheckStatus,
} from './check';
export { MIGRATE_CENTER_FLAG, runCenterMigration, type RunCenterMigrationOptions } from './migrate';
export {
  MOVE_IN_CENTER_FLAG,
  MOVE_IN_FLAG,
  MoveInError,
  formatMoveIn,
  moveDeskIn,
  runMoveIn,
  type MoveInReport,
  type RunMoveInOptions,
  type StoreMove,
  type TableMove,
} from './move-in';
