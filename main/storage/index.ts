/**
 * The app's databases: each store on the embedded SQLite files or the center's shared PostgreSQL, one Kysely API, versioned
 * migrations per backend; and the `center` setting that says where that PostgreSQL is.
 */
export { openSqliteDatabase, SqliteFile, useSqliteNativeBinding, type SqliteFileOptions } from './sqlite';
export { DESK_LOCK_FILE, holdDeskFolder, tryDeskLock, type DeskLock } from './desk-lock';
export { writeFileAtomic, type AtomicWriteOptions } from './atomic-write';
export {
  StorageError,
  TransactionConflictError,
  UniqueViolationError,
  isTransactionConflict,
  isUniqueViolation,
  type CenterTarget,
  type StorageErrorCode,
} from './errors';
export {
  TABLE_PRIVILEGES,
  checkDefinition,
  createTableMigration,
  type Backend,
  type Migrations,
  type Storage,
  type StoreDatabase,
  type StoreDefinition,
  type TablePrivilege,
  type TransactionOptions,
} from './store';
export { embeddedStorage, openEmbeddedStore } from './embedded';
export { deskHeldTable, deskStampedTable, ensureCenterIdentity } from './center-identity';
export { databaseNowMs } from './clock';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  centerKysely,
  LISTEN_APPLICATION_SUFFIX,
  centerChangeListener,
  centerPool,
  centerStorage,
  migrateCenter,
  type CenterConnectionOptions,
  type CenterTlsMode,
} from './postgres';
export {
  CENTER_SSL_MODES,
  CenterSettings,
  centerConnection,
  describeCenter,
  type CenterConnectionDeps,
} from './center-settings';
export {
  MIGRATION_TABLE,
  centerSchemaState,
  centerTables,
  migrationNames,
  readCenterRoles,
  type AuditorColumns,
  type CenterMigrationReport,
  type CenterRoles,
  type CenterSchemaState,
} from './migrations';
export {
  CHANGE_CHANNELS,
  ChangeListener,
  LISTEN_HEARTBEAT_MS,
  notifyChange,
  notificationIn,
  parseChange,
  type Change,
  type ChangeOf,
  type StatementValue,
  type ChangeKind,
  type ChangeListenerOptions,
  type ListenState,
} from './changes';
export {
  MOVE_PAGE,
  MoveRefused,
  declareMoveIn,
  without,
  type ChildTable,
  type DeclareTable,
  type MoveContext,
  type MoveHooks,
  type MoveInDeclaration,
  type MoveRow,
  type MovedTable,
  type StoreMoveIn,
  type StoreMoveResult,
  type TableMove,
  type TableMoveIn,
} from './move-in';
export { findCardData, nameByKey, nameByRow, type FreeText } from './move-in-scan';
