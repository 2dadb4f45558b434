/** The window's rules without Electron: the CSP, the app:// protocol with traversal refused, who may call main, the menu and reload keys, the recovery of a lost page. */
export { CONTENT_SECURITY_POLICY } from './csp';
export {
  APP_ENTRY_URL,
  APP_HOST,
  APP_ORIGIN,
  APP_SCHEME,
  createAppProtocolHandler,
  resolveAppFile,
  type AppProtocolOptions,
} from './protocol';
export { createSenderCheck, type SenderCheckOptions } from './trust';
export {
  appMenuTemplate,
  isReloadKey,
  type AppMenuItem,
  type AppMenuOptions,
  type AppMenuRole,
  type KeyInput,
} from './menu';
export {
  CrashLoop,
  RECOVERY_LIMITS,
  RECOVERY_REASONS,
  recoveryReason,
  RENDERER_KEEPS_FAILING,
  type RecoveryReason,
} from './recovery';
