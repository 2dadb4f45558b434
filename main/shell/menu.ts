/** The desk's own application menu (main/window/menu.ts), set in place of Electron's default one, which can reload the page. */
import { app, BrowserWindow, Menu } from 'electron';

import type { Language } from '../../shared/language';
import { appMenuTemplate } from '../window';

export interface AppMenuInstall {
  platform: NodeJS.Platform;
  packaged: boolean;
  language: Language;
}

/**
 * Sets the desk's menu as the application menu (docs/api/menu.md, Menu.setApplicationMenu), before the window is made
 * and again whenever the desk's language changes. On Windows and Linux Electron gives the application menu to every
 * window as its menu bar, to those made later (lib/browser/api/base-window.ts, _init: the window removes it,
 * main/shell/window.ts) and to those open when it is set (lib/browser/api/menu.ts): a packaged build's windows lose it
 * again here.
 */
export function installAppMenu({ platform, packaged, language }: AppMenuInstall): void {
  // The template's items are Electron's own options: a role and a label, or a separator, or a submenu of those.
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(appMenuTemplate({ platform, packaged, language, appName: app.getName() })),
  );
  if (platform !== 'darwin' && packaged) for (const window of BrowserWindow.getAllWindows()) window.removeMenu();
}
