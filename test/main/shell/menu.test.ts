// The desk's application menu (main/shell/menu.ts, main/window/menu.ts) and the window's menu bar (main/shell/window.ts)
// over Electron's Menu, faked as Electron behaves (test/main/support/fake-electron.ts, section "Menu, keys, reload,
// renderer loss": lib/browser/api/menu.ts, lib/browser/api/base-window.ts, lib/browser/default-menu.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Language } from '../../../shared/language';
import { isReloadKey } from '../../../main/window';
import { FakeElectron, menuItems, pressKey, type FakeBrowserWindow } from '../support/fake-electron';

const holder = vi.hoisted(() => ({ fake: undefined as { module: Record<string, unknown> } | undefined }));
vi.mock('electron', () => {
  const names = ['app', 'BrowserWindow', 'Menu', 'dialog', 'webContents'];
  const current = Object.fromEntries(
    names.map((name) => [name, { enumerable: true, get: () => holder.fake?.module[name] }]),
  );
  return Object.defineProperties({ default: Object.defineProperties({}, current) }, current);
});

const { installAppMenu } = await import('../../../main/shell/menu');
const { createMainWindow, hardenWebContents } = await import('../../../main/shell/window');

const realPlatform = Object.getOwnPropertyDescriptor(process, 'platform');
let electron: FakeElectron;

function onPlatform(platform: NodeJS.Platform): void {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true });
}

beforeEach(() => {
  electron = new FakeElectron({
    defaultUserData: '/tmp/unused',
    logs: '/tmp/unused',
    appPath: '/tmp/unused',
    packaged: true,
    argv: [],
  });
  holder.fake = electron;
});

afterEach(() => {
  if (realPlatform) Object.defineProperty(process, 'platform', realPlatform);
});

const roles = () =>
  menuItems(electron.applicationMenu).flatMap((item) => (item.role === undefined ? [] : [item.role.toLowerCase()]));
const NEVER = ['reload', 'forcereload', 'viewmenu'];

describe('installAppMenu', () => {
  const cases: { platform: NodeJS.Platform; packaged: boolean; language: Language }[] = [];
  for (const platform of ['darwin', 'win32', 'linux'] as const) {
    for (const packaged of [true, false])
      for (const language of ['es-MX', 'en-US'] as const) cases.push({ platform, packaged, language });
  }

  it.each(cases)(
    '$platform, packaged $packaged, $language: no reload ever, DevTools only unpackaged, Edit everywhere',
    ({ platform, packaged, language }) => {
      onPlatform(platform);
      installAppMenu({ platform, packaged, language });
      expect(electron.applicationMenuWasSet).toBe(true);
      expect(roles().filter((role) => NEVER.includes(role))).toEqual([]);
      expect(roles().includes('toggledevtools')).toBe(!packaged);
      expect(roles()).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectall']));
      expect(roles().includes('quit')).toBe(platform === 'darwin');
      // Every item but a separator has its words; none is left to Electron's English.
      const unworded = menuItems(electron.applicationMenu).filter(
        (item) => item.type !== 'separator' && (item.label ?? '') === '',
      );
      expect(unworded).toEqual([]);
    },
  );

  it('the words follow the desk’s language', () => {
    onPlatform('darwin');
    installAppMenu({ platform: 'darwin', packaged: true, language: 'es-MX' });
    const spanish = menuItems(electron.applicationMenu).map((item) => item.label);
    installAppMenu({ platform: 'darwin', packaged: true, language: 'en-US' });
    const english = menuItems(electron.applicationMenu).map((item) => item.label);
    expect(spanish).toEqual(
      expect.arrayContaining([
        'Acerca de Card Payments Desk',
        'Edición',
        'Deshacer',
        'Seleccionar todo',
        'Ventana',
        'Minimizar',
        'Salir de Card Payments Desk',
      ]),
    );
    expect(english).toEqual(
      expect.arrayContaining([
        'About Card Payments Desk',
        'Edit',
        'Undo',
        'Select All',
        'Window',
        'Minimize',
        'Quit Card Payments Desk',
      ]),
    );
  });
});

describe('the window’s menu bar on Windows and Linux', () => {
  const window = (devTools: boolean) =>
    createMainWindow({ preload: '/p.cjs', url: 'app://app/index.html', devTools, title: 'Desk' })
      .window as unknown as FakeBrowserWindow;

  it('packaged: Electron gives the window the application menu and the window removes it, so no bar and no menu shortcut', () => {
    onPlatform('win32');
    installAppMenu({ platform: 'win32', packaged: true, language: 'es-MX' });
    const made = window(false);
    expect(made.menu).toBeNull();
    expect(pressKey(electron, made, { key: 'c', control: true }).role).toBeUndefined();
  });

  it('set again while the window is open (the language changed), the menu does not come back as a bar', () => {
    onPlatform('linux');
    installAppMenu({ platform: 'linux', packaged: true, language: 'es-MX' });
    const made = window(false);
    installAppMenu({ platform: 'linux', packaged: true, language: 'en-US' });
    expect(made.menu).toBeNull();
    expect(menuItems(electron.applicationMenu).map((item) => item.label)).toContain('Copy');
  });

  it('in development the menu stays, hidden until Alt, for the DevTools shortcut', () => {
    onPlatform('linux');
    installAppMenu({ platform: 'linux', packaged: false, language: 'en-US' });
    const made = window(true);
    expect(made.menu).toBe(electron.applicationMenu);
    expect(made.options).toMatchObject({ autoHideMenuBar: true });
    expect(pressKey(electron, made, { key: 'I', control: true, shift: true }).role).toBe('toggledevtools');
  });

  it('macOS has no window menu: the application menu is the app’s', () => {
    onPlatform('darwin');
    installAppMenu({ platform: 'darwin', packaged: true, language: 'en-US' });
    const made = window(false);
    expect(made.menu).toBeNull();
    expect(pressKey(electron, made, { key: 'c', meta: true }).role).toBe('copy');
  });
});

describe('reload keys', () => {
  it('every web contents, made now or later, refuses them before the page and the menu; other keys pass', () => {
    onPlatform('linux');
    hardenWebContents();
    installAppMenu({ platform: 'linux', packaged: false, language: 'en-US' });
    const made = createMainWindow({ preload: '/p.cjs', url: 'app://app/index.html', devTools: true, title: 'Desk' })
      .window as unknown as FakeBrowserWindow;
    for (const key of [
      { key: 'r', control: true },
      { key: 'R', control: true, shift: true },
      { key: 'F5' },
      { key: 'F5', shift: true },
      { key: 'BrowserRefresh' },
    ]) {
      expect(pressKey(electron, made, key).prevented, JSON.stringify(key)).toBe(true);
    }
    expect(pressKey(electron, made, { key: 'r' }).prevented).toBe(false);
    expect(pressKey(electron, made, { key: 'F2' }).prevented).toBe(false);
    expect(made.webContents.reloads).toBe(0);
  });

  it('isReloadKey: Ctrl or Cmd with R in either case, F5 with any modifier, the Refresh key; nothing else', () => {
    const key = (key: string, mods: { control?: boolean; meta?: boolean; shift?: boolean } = {}) =>
      isReloadKey({ type: 'keyDown', key, control: false, meta: false, ...mods });
    expect([
      key('r', { control: true }),
      key('R', { control: true, shift: true }),
      key('r', { meta: true }),
      key('F5'),
      key('F5', { control: true }),
      key('BrowserRefresh'),
    ]).toEqual([true, true, true, true, true, true]);
    expect([
      key('r'),
      key('R', { shift: true }),
      key('c', { control: true }),
      key('F2'),
      key('F4'),
      key('t', { meta: true }),
    ]).toEqual([false, false, false, false, false, false]);
  });
});

describe('Electron’s default menu, as the fake models it (the menu the desk replaces)', () => {
  it('set at launch unless the app set one: View has Reload (CmdOrCtrl+R), and the window’s menu bar reloads on Ctrl+R', () => {
    onPlatform('linux');
    electron.ready();
    expect(electron.applicationMenuWasSet).toBe(false);
    expect(roles()).toEqual(expect.arrayContaining(['reload', 'forcereload', 'toggledevtools']));
    const made = createMainWindow({ preload: '/p.cjs', url: 'app://app/index.html', devTools: true, title: 'Desk' })
      .window as unknown as FakeBrowserWindow;
    expect(pressKey(electron, made, { key: 'r', control: true })).toEqual({ prevented: false, role: 'reload' });
    expect(made.webContents.reloads).toBe(1);
  });
});
