/** Electron side of app://: the scheme registered as standard and secure before ready, then served from the built renderer. */
import { protocol, type Session } from 'electron';
import { APP_SCHEME, createAppProtocolHandler } from '../window';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function serveApp(session: Session, rootDir: string): void {
  session.protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir }));
}
