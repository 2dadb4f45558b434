/**
 * The app's one window and the rules for every web contents: locked-down preferences, no navigation, pop-ups, permissions
 * or reload, no menu bar on Windows and Linux.
 */
import { app, BrowserWindow, webContents, type Session } from 'electron';

import { isReloadKey } from '../window';

export interface WindowOptions {
  preload: string;
  /** app://app/index.html, or the dev server in development. */
  url: string;
  /** DevTools only in development builds. */
  devTools: boolean;
  title: string;
}

/** Every web contents, including any created later: no pop-ups, no navigation, no webviews, no reload from the keyboard. */
export function hardenWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    // A reload throws the call's screen away mid-call and fires no will-navigate (only renderer-initiated navigations do:
    // shell/browser/electron_navigation_throttle.cc). Its keys are refused before the page and any menu see them
    // (docs/api/web-contents.md, Event: 'before-input-event': preventDefault stops the page's keydown and the menu shortcuts).
    contents.on('before-input-event', (event, input) => {
      if (isReloadKey(input)) event.preventDefault();
    });
    contents.on('will-navigate', (event) => {
      event.preventDefault();
    });
    contents.on('will-frame-navigate', (event) => {
      if (!event.isMainFrame) event.preventDefault();
    });
    contents.on('will-redirect', (event) => {
      event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => {
      event.preventDefault();
    });
  });
}

/** No camera, microphone, notifications, geolocation, HID, serial… asked or checked. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** The window exists (and can be trusted as the sender) before its page loads and starts calling main. */
export function createMainWindow(options: WindowOptions): { window: BrowserWindow; loaded: Promise<void> } {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: options.title,
    // Windows and Linux: in development the menu bar (DevTools) shows only while Alt is held.
    autoHideMenuBar: true,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: options.devTools,
    },
  });
  // Windows and Linux: no menu bar at all, not even on Alt as autoHideMenuBar would show it (docs/api/browser-window.md,
  // win.removeMenu), and with it no menu shortcut. The editing keys still work: off macOS, Blink itself maps Ctrl+C/V/X/A/Z/Y
  // to Copy, Paste, Cut, Select All, Undo and Redo (third_party/blink/renderer/core/editing/editing_behavior.cc,
  // kKeyboardCodeKeyDownEntries, `#if !BUILDFLAG(IS_MAC)`); on macOS it pipes them back to the menu, hence the application
  // menu's Edit there (main/shell/menu.ts). In development the menu stays, hidden until Alt, for the DevTools shortcut.
  if (process.platform !== 'darwin' && !options.devTools) window.removeMenu();
  window.once('ready-to-show', () => {
    window.show();
  });
  return { window, loaded: window.loadURL(options.url) };
}

/**
 * Content protection of the window that shows card data (BrowserWindow.setContentProtection, docs/api/browser-window.md).
 * It narrows what screen capture gets, nothing more: on Windows 10 2004 and later the window is left out of captures
 * made through the OS's capture APIs (WDA_EXCLUDEFROMCAPTURE; earlier Windows, a black window); on macOS it is
 * NSWindowSharingNone, which ScreenCaptureKit capturers ignore (Electron documents it), so sharing and recording apps
 * still see the card form; on Linux it does nothing. No promise to the agent or to a reviewer rests on it.
 */
export function setCardDataProtection(webContentsId: number, active: boolean): void {
  const contents = webContents.fromId(webContentsId);
  const window = contents === undefined ? null : BrowserWindow.fromWebContents(contents);
  window?.setContentProtection(active);
}
