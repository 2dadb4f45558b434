// main/index.ts's window as Electron runs it (test/main/support/fake-electron.ts, section "Menu, keys, reload, renderer
// loss"): the desk's own application menu instead of Electron's default one, no reload from the keyboard, and a page that
// is lost is reloaded and audited, until a crash loop stops it.
import { describe, expect, it, vi } from 'vitest';

import type { AuditRowView } from '../../shared/desk';
import { crashRenderer, menuItems, pressKey, type FakeElectron } from './support/fake-electron';
import { launch, ok, startUp, useMainLaunch } from './support/launch-main';

vi.mock('electron', async () => (await import('./support/launch-main')).electronModuleMock());

useMainLaunch();

/** Every role of the application menu, lower-cased as Electron compares them (role names are case-insensitive). */
const roles = (electron: FakeElectron) =>
  menuItems(electron.applicationMenu).flatMap((item) => (item.role === undefined ? [] : [item.role.toLowerCase()]));
const labels = (electron: FakeElectron) =>
  menuItems(electron.applicationMenu).flatMap((item) => (item.label === undefined ? [] : [item.label]));

async function windowRecoveredRows(electron: FakeElectron): Promise<AuditRowView[]> {
  const { rows } = await ok<{ rows: AuditRowView[] }>(electron, 'audit:list', { action: 'window.recovered' });
  return rows;
}

describe('the application menu', () => {
  it('on Linux: the desk’s own menu, with no Reload, Force Reload, View menu or DevTools, and no menu bar on the window', async () => {
    const electron = await launch({ platform: 'linux' });
    await startUp(electron);
    expect(electron.applicationMenuWasSet).toBe(true);
    expect(roles(electron)).not.toEqual(expect.arrayContaining(['reload']));
    expect(
      roles(electron).filter((role) => ['reload', 'forcereload', 'toggledevtools', 'viewmenu'].includes(role)),
    ).toEqual([]);
    // The editing roles are there, worded in the desk's language (Spanish unless chosen otherwise).
    expect(roles(electron)).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectall']));
    expect(labels(electron)).toEqual(expect.arrayContaining(['Edición', 'Copiar', 'Pegar']));
    // No menu bar: the window removed the menu Electron gave it.
    expect(electron.windows[0]?.menu).toBeNull();
  });

  it('on macOS: the app menu (about, hide, quit), Edit (the editing shortcuts go through it there) and Window, in English when the desk is', async () => {
    const electron = await launch({ platform: 'darwin', settings: { language: 'en-US' } });
    await startUp(electron);
    const menu = electron.applicationMenu;
    expect(menu?.items.map((item) => item.label)).toEqual(['Card Payments Desk', 'Edit', 'Window']);
    expect(menu?.items[0]?.submenu?.flatMap((item) => (item.role === undefined ? [] : [item.role]))).toEqual([
      'about',
      'hide',
      'hideOthers',
      'unhide',
      'quit',
    ]);
    expect(menu?.items[1]?.submenu?.flatMap((item) => (item.role === undefined ? [] : [item.role]))).toEqual([
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'selectAll',
    ]);
    expect(menu?.items[2]?.submenu).toEqual([{ role: 'minimize', label: 'Minimize' }]);
    expect(labels(electron)).toEqual(expect.arrayContaining(['Quit Card Payments Desk', 'Copy', 'Paste']));
    expect(
      roles(electron).filter((role) => ['reload', 'forcereload', 'toggledevtools', 'viewmenu'].includes(role)),
    ).toEqual([]);
  });
});

describe('the application menu follows the desk’s language', () => {
  it('changed at the sign-in screen (app:setLanguage), the menu is worded again in the new language; still no menu bar off macOS', async () => {
    const electron = await launch({ platform: 'linux' });
    await startUp(electron);
    expect(labels(electron)).toEqual(expect.arrayContaining(['Edición', 'Copiar']));
    await ok(electron, 'app:setLanguage', { language: 'en-US' });
    expect(labels(electron)).toEqual(expect.arrayContaining(['Edit', 'Copy', 'Paste']));
    expect(labels(electron)).not.toContain('Copiar');
    expect(electron.windows[0]?.menu).toBeNull();
  });

  it('on macOS, the agent switches the desk to Spanish: the menu (its only words main shows at all times) is in Spanish too', async () => {
    const electron = await launch({ platform: 'darwin', settings: { language: 'en-US' } });
    await startUp(electron);
    expect(electron.applicationMenu?.items.map((item) => item.label)).toEqual(['Card Payments Desk', 'Edit', 'Window']);
    // app:setLanguage is public (the sign-in screen offers it).
    await ok(electron, 'app:setLanguage', { language: 'es-MX' });
    expect(electron.applicationMenu?.items.map((item) => item.label)).toEqual([
      'Card Payments Desk',
      'Edición',
      'Ventana',
    ]);
    expect(labels(electron)).toEqual(expect.arrayContaining(['Salir de Card Payments Desk', 'Copiar', 'Pegar']));
  });
});

describe('no reload from the keyboard', () => {
  it('Ctrl+R, Shift+Ctrl+R, F5 and Ctrl+F5 are refused before the page and any menu see them; Ctrl+C is not', async () => {
    const electron = await launch({ platform: 'win32' });
    await startUp(electron);
    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');
    for (const key of [
      { key: 'r', control: true },
      { key: 'R', control: true, shift: true },
      { key: 'F5' },
      { key: 'F5', control: true },
    ]) {
      expect(pressKey(electron, window, key), JSON.stringify(key)).toEqual({ prevented: true, role: undefined });
    }
    expect(pressKey(electron, window, { key: 'c', control: true }).prevented).toBe(false);
    expect(window.webContents.reloads).toBe(0);
  });

  it('on macOS Cmd+R and Shift+Cmd+R are refused too', async () => {
    const electron = await launch({ platform: 'darwin' });
    await startUp(electron);
    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');
    expect(pressKey(electron, window, { key: 'r', meta: true }).prevented).toBe(true);
    expect(pressKey(electron, window, { key: 'R', meta: true, shift: true }).prevented).toBe(true);
    expect(window.webContents.reloads).toBe(0);
  });
});

describe('a lost page', () => {
  it('a renderer that crashes is reloaded and the recovery audited with its reason (nothing else); a clean exit is not', async () => {
    const electron = await launch({ platform: 'linux' });
    await startUp(electron);
    await ok(electron, 'session:createFirstAdmin', {
      id: 'ada',
      displayName: 'Ada Admin',
      password: 'a long password 42',
    });
    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');

    crashRenderer(window.webContents, 'clean-exit', 0);
    expect(window.webContents.reloads).toBe(0);

    crashRenderer(window.webContents, 'crashed', 139);
    expect(window.webContents.reloads).toBe(1);
    crashRenderer(window.webContents, 'oom', 137);
    expect(window.webContents.reloads).toBe(2);
    const rows = await vi.waitFor(async () => {
      const found = await windowRecoveredRows(electron);
      expect(found).toHaveLength(2);
      return found;
    });
    expect(rows.map(({ actor, outcome, resource, details }) => ({ actor, outcome, resource, details }))).toEqual([
      { actor: 'system', outcome: 'ok', details: { reason: 'oom', reloaded: true, exitCode: 137 } },
      { actor: 'system', outcome: 'ok', details: { reason: 'crashed', reloaded: true, exitCode: 139 } },
    ]);
    expect(electron.messageBoxes).toEqual([]);
  });

  it('a crash loop (3 within a minute) is not reloaded again: the agent is told, in the desk’s language, to restart and tell IT', async () => {
    const electron = await launch({ platform: 'linux' });
    await startUp(electron);
    await ok(electron, 'session:createFirstAdmin', {
      id: 'ada',
      displayName: 'Ada Admin',
      password: 'a long password 42',
    });
    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');
    for (let crash = 0; crash < 3; crash++) crashRenderer(window.webContents, 'crashed', 139);
    expect(window.webContents.reloads).toBe(2);
    await vi.waitFor(() => expect(electron.messageBoxes).toHaveLength(1));
    expect(electron.messageBoxes[0]).toMatchObject({
      window,
      options: {
        type: 'error',
        message: 'La ventana de la aplicación dejó de funcionar varias veces.',
        buttons: ['Cerrar la aplicación'],
      },
    });
    expect(electron.messageBoxes[0]?.options.detail).toContain('avise a TI');
    await vi.waitFor(() => expect(electron.app.quitted).toBe(true));
  });

  it('each recovery is in the trail: two reloads and the loop that stopped them', async () => {
    const electron = await launch({ platform: 'linux' });
    await startUp(electron);
    await ok(electron, 'session:createFirstAdmin', {
      id: 'ada',
      displayName: 'Ada Admin',
      password: 'a long password 42',
    });
    const [window] = electron.windows;
    if (window === undefined) throw new Error('no window');
    // The agent stays (no quit yet): the rows are read while the app runs.
    const quit = vi.spyOn(electron.app, 'quit').mockImplementation(() => undefined);
    for (let crash = 0; crash < 3; crash++) crashRenderer(window.webContents, 'killed', 9);
    await vi.waitFor(() => expect(quit).toHaveBeenCalled());
    const rows = await vi.waitFor(async () => {
      const found = await windowRecoveredRows(electron);
      expect(found).toHaveLength(3);
      return found;
    });
    expect(rows.map(({ outcome, details }) => ({ outcome, reloaded: details['reloaded'] }))).toEqual([
      { outcome: 'failed', reloaded: false },
      { outcome: 'ok', reloaded: true },
      { outcome: 'ok', reloaded: true },
    ]);
    quit.mockRestore();
  });
});
