/** Who may call main: the app's own window, on the app's own page, from its top frame — nothing else. */
import { isAppUrl, type SenderInfo } from '../ipc/dispatch';

export interface SenderCheckOptions {
  /** app://app/index.html, or electron-vite's dev server URL in development. */
  appUrl: string;
  /** The ids of the app's own windows' web contents, as they are now. */
  isAppWindow: (webContentsId: number) => boolean;
}

export function createSenderCheck({ appUrl, isAppWindow }: SenderCheckOptions): (sender: SenderInfo) => boolean {
  return (sender) => sender.isMainFrame && isAppWindow(sender.webContentsId) && isAppUrl(sender.url, appUrl);
}
