/**
 * The desk's application menu as data, and the keys that would reload the page. Electron's default menu (set when the app
 * sets none: lib/browser/default-menu.ts) has View → Reload (CmdOrCtrl+R), Force Reload (Shift+CmdOrCtrl+R) and Toggle
 * Developer Tools (lib/browser/api/menu-item-roles.ts); a reload mid-call would throw away the call's screen, and it
 * fires no `will-navigate` (only renderer-initiated navigations do: shell/browser/electron_navigation_throttle.cc), so
 * the desk's own menu has none of them and every web contents refuses their keys.
 */
import type { Language } from '../../shared/language';

/** The roles the desk's menu uses (Electron's MenuItem roles, docs/api/menu-item.md). */
export type AppMenuRole =
  | 'about'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'quit'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'selectAll'
  | 'minimize'
  | 'toggleDevTools';

/** An item of the template given to Menu.buildFromTemplate (a subset of Electron's MenuItemConstructorOptions). */
export interface AppMenuItem {
  label?: string;
  role?: AppMenuRole;
  type?: 'separator';
  submenu?: AppMenuItem[];
}

export interface AppMenuOptions {
  platform: NodeJS.Platform;
  /** DevTools only in development builds (not packaged). */
  packaged: boolean;
  language: Language;
  appName: string;
}

interface MenuWords {
  about: string;
  hide: string;
  hideOthers: string;
  showAll: string;
  quit: string;
  edit: string;
  undo: string;
  redo: string;
  cut: string;
  copy: string;
  paste: string;
  selectAll: string;
  window: string;
  minimize: string;
  developer: string;
  devTools: string;
}

/** The menu's words in the desk's language ({app}: the app's name); main words them itself, the renderer is not there yet. */
const MENU_WORDS: Record<Language, MenuWords> = {
  'es-MX': {
    about: 'Acerca de {app}',
    hide: 'Ocultar {app}',
    hideOthers: 'Ocultar otras',
    showAll: 'Mostrar todo',
    quit: 'Salir de {app}',
    edit: 'Edición',
    undo: 'Deshacer',
    redo: 'Rehacer',
    cut: 'Cortar',
    copy: 'Copiar',
    paste: 'Pegar',
    selectAll: 'Seleccionar todo',
    window: 'Ventana',
    minimize: 'Minimizar',
    developer: 'Desarrollo',
    devTools: 'Herramientas para desarrolladores',
  },
  'en-US': {
    about: 'About {app}',
    hide: 'Hide {app}',
    hideOthers: 'Hide Others',
    showAll: 'Show All',
    quit: 'Quit {app}',
    edit: 'Edit',
    undo: 'Undo',
    redo: 'Redo',
    cut: 'Cut',
    copy: 'Copy',
    paste: 'Paste',
    selectAll: 'Select All',
    window: 'Window',
    minimize: 'Minimize',
    developer: 'Developer',
    devTools: 'Toggle Developer Tools',
  },
};

const separator: AppMenuItem = { type: 'separator' };

/**
 * The desk's menu: no Reload, Force Reload or View menu ever; Developer Tools only when not packaged. On macOS the app
 * menu (about, hide, quit), Edit — Blink leaves Cmd+C/V/X/A/Z to the menu there (editing_behavior.cc: "On OS X, we pipe
 * these back to the browser"), so without it copy and paste do not work in the page — and Window (minimize). On Windows
 * and Linux the window shows no menu bar (main/shell/window.ts): Blink maps Ctrl+C/V/X/A/Z itself there, and the template
 * is Edit only (and Developer Tools in development, reachable by its shortcut).
 */
export function appMenuTemplate({ platform, packaged, language, appName }: AppMenuOptions): AppMenuItem[] {
  const words = MENU_WORDS[language];
  const named = (text: string) => text.replaceAll('{app}', appName);
  const edit: AppMenuItem = {
    label: words.edit,
    submenu: [
      { role: 'undo', label: words.undo },
      { role: 'redo', label: words.redo },
      separator,
      { role: 'cut', label: words.cut },
      { role: 'copy', label: words.copy },
      { role: 'paste', label: words.paste },
      { role: 'selectAll', label: words.selectAll },
    ],
  };
  const developer: AppMenuItem[] = packaged
    ? []
    : [{ label: words.developer, submenu: [{ role: 'toggleDevTools', label: words.devTools }] }];
  if (platform !== 'darwin') return [edit, ...developer];
  return [
    {
      label: appName,
      submenu: [
        { role: 'about', label: named(words.about) },
        separator,
        { role: 'hide', label: named(words.hide) },
        { role: 'hideOthers', label: words.hideOthers },
        { role: 'unhide', label: words.showAll },
        separator,
        { role: 'quit', label: named(words.quit) },
      ],
    },
    edit,
    { label: words.window, submenu: [{ role: 'minimize', label: words.minimize }] },
    ...developer,
  ];
}

/** A key as Electron's `before-input-event` gives it (docs/api/web-contents.md, Event: 'before-input-event'). */
export interface KeyInput {
  type: string;
  key: string;
  control: boolean;
  meta: boolean;
  shift?: boolean;
  alt?: boolean;
}

/**
 * The keys that reload a page: Ctrl/Cmd+R and Shift+Ctrl/Cmd+R (the default menu's Reload and Force Reload), F5 and
 * Ctrl+F5 (a browser's, and a habit of every Windows user) and the keyboard's own Refresh key.
 */
export function isReloadKey(input: KeyInput): boolean {
  if (input.key === 'F5' || input.key === 'BrowserRefresh') return true;
  return (input.control || input.meta) && input.key.toLowerCase() === 'r';
}
