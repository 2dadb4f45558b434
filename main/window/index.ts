/** The window's rules without Electron: the CSP, the app:// protocol with traversal refused, and who may call main. */
export { CONTENT_SECURITY_POLICY } from './csp';
export { APP_ENTRY_URL, APP_HOST, APP_ORIGIN, APP_SCHEME, createAppProtocolHandler, resolveAppFile, type AppProtocolOptions } from './protocol';
export { createSenderCheck, type SenderCheckOptions } from './trust';
