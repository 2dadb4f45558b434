// The window in a real Electron: no reload from the keyboard (Ctrl/Cmd+R, F5), the desk's own application menu with no
// Reload and no View menu, no menu bar on Windows and Linux, and a renderer that is ended comes back with the call.
import type { ElectronApplication, Page } from '@playwright/test';

import { expect, test } from './support/desk';
import { announceSkip, electronSkipReason } from './support/electron-binary';

const skipReason = electronSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
test.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

/** First run: the first administrator, created and signed in through the page (the desk speaks English in these tests). */
async function firstAdmin(window: Page): Promise<void> {
  await expect(window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  await window.getByLabel(/operator id/i).fill('ada');
  await window.getByLabel(/^name/i).fill('Ada Admin');
  await window.getByLabel(/^password/i).fill('a long password 42');
  await window.getByRole('button', { name: /create and sign in/i }).click();
  await expect(window.getByText(/Ada Admin/).first()).toBeVisible();
}

/** Loads of the window's page counted in main from now on ('did-start-loading': a reload starts one). */
async function countLoads(app: ElectronApplication): Promise<void> {
  await app.evaluate(({ BrowserWindow }) => {
    const [window] = BrowserWindow.getAllWindows();
    if (window === undefined) throw new Error('no window');
    const state = { loads: 0, keys: [] as { key: string; prevented: boolean }[] };
    (globalThis as { __cpdWindow?: typeof state }).__cpdWindow = state;
    window.webContents.on('did-start-loading', () => {
      state.loads++;
    });
    // Listened to after the app's own listeners: shows whether they prevented the key.
    window.webContents.on('before-input-event', (event, input) => {
      if (input.type === 'keyDown') state.keys.push({ key: input.key, prevented: event.defaultPrevented });
    });
  });
}

const windowState = (app: ElectronApplication) =>
  app.evaluate(
    () => (globalThis as { __cpdWindow?: { loads: number; keys: { key: string; prevented: boolean }[] } }).__cpdWindow,
  );

test('Ctrl/Cmd+R, Shift+Ctrl/Cmd+R and F5 do not reload the page: main refuses them before the page and the menu', async ({
  desk,
}) => {
  const { app, window } = desk;
  await expect(window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  await window.evaluate('window.__cpdMarker = "still the same page"');
  await countLoads(app);
  const modifier: 'meta' | 'control' = process.platform === 'darwin' ? 'meta' : 'control';
  // Real key events into the renderer's input path (webContents.sendInputEvent), as the keyboard sends them.
  await app.evaluate(({ BrowserWindow }, mod) => {
    const [appWindow] = BrowserWindow.getAllWindows();
    if (appWindow === undefined) throw new Error('no window');
    const press = (keyCode: string, modifiers: ('control' | 'meta' | 'shift')[]) => {
      appWindow.webContents.sendInputEvent({ type: 'keyDown', keyCode, modifiers });
      appWindow.webContents.sendInputEvent({ type: 'keyUp', keyCode, modifiers });
    };
    press('R', [mod]);
    press('R', [mod, 'shift']);
    press('F5', []);
    // A plain key after them: once the page has it, the keys before it have been handled.
    press('F2', []);
  }, modifier);
  // The key's case follows Shift (KeyboardEvent.key): compared without it.
  const keys = async () =>
    (await windowState(app))?.keys.map(({ key, prevented }) => ({ key: key.toLowerCase(), prevented }));
  await expect.poll(async () => (await keys())?.length).toBe(4);
  expect(await keys()).toEqual([
    { key: 'r', prevented: true },
    { key: 'r', prevented: true },
    { key: 'f5', prevented: true },
    { key: 'f2', prevented: false },
  ]);
  const state = await windowState(app);
  expect(state?.loads).toBe(0);
  expect(await window.evaluate('window.__cpdMarker')).toBe('still the same page');
  expect(await window.evaluate("performance.getEntriesByType('navigation')[0].type")).toBe('navigate');
});

test('the application menu is the desk’s: no Reload, Force Reload or View menu; DevTools only unpackaged; no menu bar off macOS', async ({
  desk,
}) => {
  const menu = await desk.app.evaluate(({ app, BrowserWindow, Menu }) => {
    const items: { role: string | undefined; label: string }[] = [];
    const walk = (menu: Electron.Menu | null) => {
      for (const item of menu?.items ?? []) {
        items.push({ role: item.role?.toLowerCase(), label: item.label });
        walk(item.submenu ?? null);
      }
    };
    walk(Menu.getApplicationMenu());
    const [window] = BrowserWindow.getAllWindows();
    return {
      items,
      packaged: app.isPackaged,
      menuBarVisible: process.platform === 'darwin' ? false : (window?.isMenuBarVisible() ?? true),
    };
  });
  const roles = menu.items.map((item) => item.role);
  expect(roles).not.toContain('reload');
  expect(roles).not.toContain('forcereload');
  expect(roles).not.toContain('viewmenu');
  expect(menu.items.map((item) => item.label)).not.toContain('Reload');
  expect(roles.includes('toggledevtools')).toBe(!menu.packaged);
  expect(roles).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectall']));
  expect(menu.menuBarVisible).toBe(false);
});

test('a renderer ended by force comes back with the reservation on the call, and the recovery is audited', async ({
  desk,
}) => {
  const { app, window } = desk;
  await firstAdmin(window);
  await window.keyboard.press('F2');
  await window.keyboard.type('CUN-6B3D8F');
  await expect(window.getByRole('button', { name: /Zoë Anderson/ }).first()).toBeVisible();
  await window.keyboard.press('Enter');
  await expect(window.getByRole('heading', { level: 2, name: /Zoë Anderson/ })).toBeVisible();

  await app.evaluate(({ BrowserWindow }) => {
    BrowserWindow.getAllWindows()[0]?.webContents.forcefullyCrashRenderer();
  });
  // Read through main: the page object of the crashed renderer is not the one that comes back.
  const heading = () =>
    app.evaluate(async ({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]?.webContents;
      if (contents === undefined || contents.isCrashed() || contents.isLoading()) return null;
      return (await contents.executeJavaScript(
        "[...document.querySelectorAll('h2')].map((h) => h.textContent).join(' | ')",
      )) as string;
    });
  await expect.poll(heading, { timeout: 20_000 }).toMatch(/Zoë Anderson/);

  const rows = await app.evaluate(async ({ BrowserWindow }) => {
    const contents = BrowserWindow.getAllWindows()[0]?.webContents;
    return (await contents?.executeJavaScript("window.api.audit.list({ action: 'window.recovered' })")) as {
      ok: boolean;
      value?: { rows: { outcome: string; details: Record<string, unknown> }[] };
    };
  });
  expect(rows.ok).toBe(true);
  expect(rows.value?.rows).toHaveLength(1);
  expect(rows.value?.rows[0]).toMatchObject({ outcome: 'ok', details: { reloaded: true } });
  expect(['killed', 'crashed']).toContain(rows.value?.rows[0]?.details['reason']);
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
});
