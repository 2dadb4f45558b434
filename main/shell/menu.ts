/** The desk's own application menu (main/window/menu.ts), set in place of Electron's default one, which can reload the page. */
import { app, Menu } from 'electron';

import type { Language } from '../../shared/language';
import { appMenuTemplate } from '../window';

export interface AppMenuInstall {
  platform: NodeJS.Platform;
  packaged: boolean;
  language: Language;
}

/**
 * Sets the desk's menu as the application menu (docs/api/menu.md, Menu.setApplicationMenu). Call it before the window is
 * made: on Windows and Linux Electron gives the application menu to every window as its menu bar, to those that exist
 * when it is set (lib/browser/api/menu.ts) and to those made later (lib/browser/api/base-window.ts, _init); the window
 * then removes it (main/shell/window.ts).
 */
export function installAppMenu({ platform, packaged, language }: AppMenuInstall): void {
  // The template's items are Electron's own options: a role and a label, or a separator, or a submenu of those.
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ platform, packaged, language, appName: app.getName() })));
}
