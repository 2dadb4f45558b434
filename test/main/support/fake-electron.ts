/**
 * A recording stand-in for Electron's main-process modules — the one thing main/index.ts needs that cannot run here
 * (no Electron binary). It keeps, in order, what main asked of it (`log`), and behaves as Electron documents where main
 * relies on it: schemes can be registered only before `ready`; app.quit() sends before-quit, closes the windows
 * (either can be prevented), then will-quit and quit; a window closed by the user sends close, closed, and
 * window-all-closed after the last one; net.fetch takes a string or a Request (and really fetches, with Node's fetch),
 * net.request is a ClientRequest over node:http.
 * safeStorage encrypts with AES-256-GCM under a key the test can replace, as a reset keyring would. As Chromium, the
 * user data folder is made when the app starts.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface FakeRequestOptions {
  method?: string;
  url: string;
  redirect?: 'follow' | 'error' | 'manual';
}

/** Node's system errors as Chromium's network stack names them (net/base/net_error_list.h). */
const CHROMIUM_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'ERR_CONNECTION_REFUSED',
  ENOTFOUND: 'ERR_NAME_NOT_RESOLVED',
  ECONNRESET: 'ERR_CONNECTION_RESET',
  ETIMEDOUT: 'ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'ERR_ADDRESS_UNREACHABLE',
};

function headerArrays(headers: IncomingHttpHeaders): Record<string, string[]> {
  return Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value : [value]]])));
}

/**
 * Electron's ClientRequest (net.request), on node:http, as Electron 45 behaves (lib/common/api/net-client-request.ts):
 * 'response' with the IncomingMessage; on a redirect with `redirect: 'manual'`, 'redirect' (status, method, URL, headers)
 * and then, unless followRedirect() was called, an error "Redirect was cancelled"; a network failure as Chromium's
 * Error('net::ERR_CONNECTION_REFUSED'), with no code. Plain http only (local servers).
 */
export class FakeClientRequest extends EventEmitter {
  private readonly headers: Record<string, string> = {};
  private aborted = false;
  private followed = false;
  constructor(private readonly options: FakeRequestOptions) {
    super();
  }
  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
  followRedirect(): void {
    this.followed = true;
  }
  abort(): void {
    this.aborted = true;
    this.emit('abort');
  }
  end(body?: Buffer | string): void {
    const outgoing = httpRequest(this.options.url, { method: this.options.method ?? 'GET', headers: this.headers }, (response) => {
      if (this.aborted) return;
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location !== undefined) {
        response.resume();
        if (this.options.redirect === 'error') {
          this.emit('error', new Error("Attempted to redirect, but redirect policy was 'error'"));
          return;
        }
        if (this.options.redirect === 'manual') {
          this.followed = false;
          this.emit('redirect', status, this.options.method ?? 'GET', response.headers.location, headerArrays(response.headers));
          if (!this.followed && !this.aborted) this.emit('error', new Error('Redirect was cancelled'));
          return;
        }
        this.emit('error', new Error('the fake ClientRequest follows no redirect'));
        return;
      }
      this.emit('response', response);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // As Chromium reports them: Error('net::ERR_…'), no code.
      if (!this.aborted) this.emit('error', new Error(`net::${CHROMIUM_ERRORS[error.code ?? ''] ?? 'ERR_FAILED'}`));
    });
    outgoing.end(body);
  }
}

export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export interface FakeElectronOptions {
  /** Where Electron would keep the data without --user-data-dir. */
  defaultUserData: string;
  logs: string;
  appPath: string;
  packaged: boolean;
  /** process.argv as Electron would give it; app.commandLine reads its switches. */
  argv: readonly string[];
  /** False: another instance holds the lock. */
  singleInstanceLock?: boolean;
}

export interface MessageBoxCall {
  window: FakeBrowserWindow | undefined;
  options: { type?: string; title?: string; message: string; detail?: string; buttons?: string[]; defaultId?: number; cancelId?: number };
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export class FakeWebContents extends EventEmitter {
  /** The frame that sent an IPC call: the URL the window loaded. */
  readonly mainFrame: { url: string } = { url: '' };
  readonly sent: { event: string; payload: unknown }[] = [];
  destroyed = false;
  constructor(readonly id: number) {
    super();
  }
  send(event: string, payload: unknown): void {
    this.sent.push({ event, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;

  // --- Reload and renderer loss (main/shell/recovery.ts; see the section "Menu, keys, reload, renderer loss" below) ---
  /** Each load of the page after the first: contents.reload(), or a menu's Reload / Force Reload. */
  reloads = 0;
  /** The renderer process is gone: a reload starts the page in a new one (docs/api/web-contents.md, forcefullyCrashRenderer). */
  rendererGone = false;
  reload(): void {
    this.reloads++;
    this.rendererGone = false;
  }
  reloadIgnoringCache(): void {
    this.reload();
  }
  /**
   * As docs/api/web-contents.md says of contents.forcefullyCrashRenderer(): the renderer is terminated and
   * 'render-process-gone' is emitted with reason 'killed' (or 'crashed'), once the process is gone (not within the call).
   */
  forcefullyCrashRenderer(): void {
    this.forcefulCrashes++;
    setImmediate(() => crashRenderer(this, 'killed', 9));
  }
  forcefulCrashes = 0;
}

export class FakeBrowserWindow extends EventEmitter {
  readonly webContents: FakeWebContents;
  minimized = false;
  shown = false;
  destroyed = false;
  focused = 0;
  contentProtection: boolean | undefined;
  loadedUrl: string | undefined;
  /** Windows and Linux: the window's menu bar (see the section "Menu, keys, reload, renderer loss" below). */
  menu: FakeMenu | null = null;

  constructor(
    private readonly electron: FakeElectron,
    readonly options: { webPreferences?: Record<string, unknown>; title?: string; show?: boolean },
  ) {
    super();
    this.webContents = new FakeWebContents(electron.nextWebContentsId++);
    electron.record('new BrowserWindow');
    electron.windows.push(this);
    // As Electron on Windows and Linux: a new window gets the application menu as its menu bar (lib/browser/api/base-window.ts, _init).
    if (process.platform !== 'darwin') this.menu = electron.applicationMenu;
    // As Electron: every web contents, a window's too, is announced as it is made.
    electron.app.emit('web-contents-created', new FakeEvent(), this.webContents);
  }
  loadURL(url: string): Promise<void> {
    this.electron.record(`window.loadURL ${url}`);
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  show(): void {
    this.electron.record('window.show');
    this.shown = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.electron.record('window.restore');
    this.minimized = false;
  }
  focus(): void {
    this.electron.record('window.focus');
    this.focused++;
  }
  setContentProtection(on: boolean): void {
    this.contentProtection = on;
  }
  /** Windows and Linux (docs/api/browser-window.md): win.setMenu(menu), win.removeMenu(). */
  setMenu(menu: FakeMenu | null): void {
    this.menu = menu;
  }
  removeMenu(): void {
    this.menu = null;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** The user closes the window (its close button): false when main prevented it. */
  userCloses(): boolean {
    const event = new FakeEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroy();
    if (this.electron.windows.length === 0) this.electron.app.emit('window-all-closed');
    return true;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.electron.windows.splice(this.electron.windows.indexOf(this), 1);
    this.emit('closed');
  }
}

class FakeApp extends EventEmitter {
  private readonly paths: Map<string, string>;
  private resolveReady!: () => void;
  private readonly readyPromise = new Promise<void>((resolve) => {
    this.resolveReady = resolve;
  });
  ready = false;
  quitted = false;
  exitCode: number | undefined;
  readonly commandLine: { getSwitchValue(name: string): string };

  constructor(
    private readonly electron: FakeElectron,
    private readonly options: FakeElectronOptions,
  ) {
    super();
    this.paths = new Map([
      ['userData', options.defaultUserData],
      ['logs', options.logs],
    ]);
    this.commandLine = {
      getSwitchValue: (name) => {
        const prefix = `--${name}=`;
        return options.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? '';
      },
    };
  }

  get isPackaged(): boolean {
    return this.options.packaged;
  }
  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  isReady(): boolean {
    return this.ready;
  }
  markReady(): void {
    // As Chromium: the user data folder exists once the app runs.
    mkdirSync(this.getPath('userData'), { recursive: true });
    this.ready = true;
    this.electron.record('ready');
    this.resolveReady();
    this.emit('ready');
  }
  getPath(name: string): string {
    const value = this.paths.get(name);
    if (value === undefined) throw new Error(`Failed to get '${name}' path`);
    return value;
  }
  setPath(name: string, value: string): void {
    this.electron.record(`app.setPath ${name}`);
    this.paths.set(name, value);
  }
  getVersion(): string {
    return '1.2.3';
  }
  getName(): string {
    return 'Card Payments Desk';
  }
  getAppPath(): string {
    return this.options.appPath;
  }
  requestSingleInstanceLock(): boolean {
    this.electron.record('app.requestSingleInstanceLock');
    return this.options.singleInstanceLock ?? true;
  }
  /** As Electron: before-quit, the windows closed (each may refuse), will-quit, quit; each step can be prevented. */
  quit(): void {
    this.electron.record('app.quit');
    const beforeQuit = new FakeEvent();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    for (const window of [...this.electron.windows]) {
      const close = new FakeEvent();
      window.emit('close', close);
      if (close.defaultPrevented) return;
      window.destroy();
    }
    const willQuit = new FakeEvent();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return;
    this.electron.record('quit');
    this.quitted = true;
    this.emit('quit');
  }
  exit(code: number): void {
    this.electron.record(`app.exit ${code}`);
    this.exitCode = code;
  }
}

function seal(key: Buffer, text: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(key: Buffer, data: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
  decipher.setAuthTag(data.subarray(12, 28));
  return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
}

export class FakeElectron {
  /** What main asked, in order: the start sequence. */
  readonly log: string[] = [];
  readonly windows: FakeBrowserWindow[] = [];
  readonly allWindows: FakeBrowserWindow[] = [];
  nextWebContentsId = 1;
  readonly app: FakeApp;
  readonly privilegedSchemes: unknown[] = [];
  readonly protocolHandlers = new Map<string, (request: Request) => Promise<Response> | Response>();
  readonly permissionHandlers: { request?: Handler; check?: Handler; device?: Handler } = {};
  readonly ipcHandlers = new Map<string, Handler>();
  readonly errorBoxes: { title: string; content: string }[] = [];
  readonly messageBoxes: MessageBoxCall[] = [];
  /** The buttons "clicked" in the next message boxes (index in `buttons`); the default button when none is left. */
  readonly answers: number[] = [];
  readonly fetched: string[] = [];
  /** The OS key safeStorage encrypts with: a new one plays a reset keyring. */
  storageKey: Buffer = randomBytes(32);
  readonly powerMonitor = new EventEmitter();
  readonly webContentsCreated: FakeWebContents[] = [];
  /** Menu.setApplicationMenu's menu: Electron's default one unless main set its own (section "Menu, keys, reload…" below). */
  applicationMenu: FakeMenu | null = null;
  applicationMenuWasSet = false;

  constructor(options: FakeElectronOptions) {
    this.app = new FakeApp(this, options);
    setDefaultApplicationMenuAtLaunch(this);
  }

  record(what: string): void {
    this.log.push(what);
  }

  private built: Record<string, unknown> | undefined;

  /** The `electron` module as main/index.ts and main/shell/** import it. */
  get module(): Record<string, unknown> {
    this.built ??= buildModule(this);
    return this.built;
  }

  /** Electron's `ready`. */
  ready(): void {
    this.app.markReady();
  }

  /** A web contents created later (a pop-up, a webview): main's rules apply to it too. */
  createWebContents(): FakeWebContents {
    const contents = new FakeWebContents(this.nextWebContentsId++);
    this.webContentsCreated.push(contents);
    this.app.emit('web-contents-created', new FakeEvent(), contents);
    return contents;
  }
}

function buildModule(electron: FakeElectron): Record<string, unknown> {
  const windowClass = class extends FakeBrowserWindow {
    constructor(options: ConstructorParameters<typeof FakeBrowserWindow>[1]) {
      super(electron, options);
      electron.allWindows.push(this);
    }
    static getAllWindows(): FakeBrowserWindow[] {
      return [...electron.windows];
    }
    static fromWebContents(contents: FakeWebContents): FakeBrowserWindow | null {
      return electron.windows.find((window) => window.webContents === contents) ?? null;
    }
  };
  const module = {
    app: electron.app,
    BrowserWindow: windowClass,
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => {
        // As Electron: too late once the app is ready.
        if (electron.app.ready) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
        electron.record('protocol.registerSchemesAsPrivileged');
        electron.privilegedSchemes.push(...schemes);
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: Handler) => {
          electron.record('session.setPermissionRequestHandler');
          electron.permissionHandlers.request = handler;
        },
        setPermissionCheckHandler: (handler: Handler) => {
          electron.permissionHandlers.check = handler;
        },
        setDevicePermissionHandler: (handler: Handler) => {
          electron.permissionHandlers.device = handler;
        },
        protocol: {
          handle: (scheme: string, handler: (request: Request) => Promise<Response> | Response) => {
            electron.record(`session.protocol.handle ${scheme}`);
            electron.protocolHandlers.set(scheme, handler);
          },
        },
      },
    },
    webContents: {
      fromId: (id: number) => electron.allWindows.find((window) => window.webContents.id === id)?.webContents,
    },
    // eslint-disable-next-line no-restricted-syntax -- the fake of Electron's module offers ipcMain under its own name
    ipcMain: {
      handle: (channel: string, handler: Handler) => {
        if (electron.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        electron.ipcHandlers.set(channel, handler);
      },
      removeHandler: (channel: string) => {
        electron.ipcHandlers.delete(channel);
      },
    },
    dialog: {
      showErrorBox: (title: string, content: string) => {
        electron.record('dialog.showErrorBox');
        electron.errorBoxes.push({ title, content });
      },
      showMessageBox: (first: FakeBrowserWindow | MessageBoxCall['options'], second?: MessageBoxCall['options']) => {
        electron.record('dialog.showMessageBox');
        const call: MessageBoxCall = first instanceof FakeBrowserWindow ? { window: first, options: second ?? { message: '' } } : { window: undefined, options: first };
        electron.messageBoxes.push(call);
        const response = electron.answers.shift() ?? call.options.defaultId ?? 0;
        return Promise.resolve({ response, checkboxChecked: false });
      },
    },
    safeStorage: {
      isAsyncEncryptionAvailable: () => Promise.resolve(electron.app.ready),
      getSelectedStorageBackend: () => (electron.app.ready ? 'gnome_libsecret' : 'unknown'),
      encryptStringAsync: (text: string) => Promise.resolve(seal(electron.storageKey, text)),
      decryptStringAsync: (data: Buffer) => {
        try {
          return Promise.resolve({ result: open(electron.storageKey, data), shouldReEncrypt: false });
        } catch {
          return Promise.reject(new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.'));
        }
      },
    },
    net: {
      fetch: (input: string | Request, init?: RequestInit) => {
        // Electron's net.fetch takes a string or a Request.
        if (typeof input !== 'string' && !(input instanceof Request)) return Promise.reject(new TypeError('net.fetch: input must be a string or a Request'));
        electron.fetched.push(typeof input === 'string' ? input : input.url);
        return fetch(input, init);
      },
      request: (options: FakeRequestOptions) => {
        electron.fetched.push(options.url);
        return new FakeClientRequest(options);
      },
    },
    powerMonitor: electron.powerMonitor,
    Menu: menuModule(electron),
  };
  return { ...module, default: module };
}

/** electron-updater's autoUpdater, as main/updates uses it (electron-updater cannot load without Electron). */
export class FakeAutoUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  allowDowngrade = true;
  allowPrerelease = true;
  logger: unknown;
  readonly feeds: unknown[] = [];
  readonly installs: unknown[][] = [];
  checks = 0;
  setFeedURL(feed: unknown): void {
    this.feeds.push(feed);
  }
  checkForUpdates(): Promise<unknown> {
    this.checks++;
    return Promise.resolve(undefined);
  }
  quitAndInstall(...args: unknown[]): void {
    this.installs.push(args);
  }
}

// --- Menu, keys, reload, renderer loss (main/shell/menu.ts, main/shell/recovery.ts, hardenWebContents) ---------------------

/** A menu item as Menu.buildFromTemplate takes it (Electron's MenuItemConstructorOptions, the fields the fake reads). */
export interface FakeMenuItem {
  label?: string;
  role?: string;
  type?: string;
  accelerator?: string;
  submenu?: FakeMenuItem[];
}

/** A Menu built from a template: its items, kept as given (the roles that are whole menus expanded as Electron does). */
export class FakeMenu {
  constructor(readonly items: FakeMenuItem[]) {}
}

/**
 * The roles' own accelerators, as lib/browser/api/menu-item-roles.ts gives them (reload CmdOrCtrl+R, forceReload
 * Shift+CmdOrCtrl+R, toggleDevTools Alt+Command+I on macOS, Ctrl+Shift+I elsewhere; the editing roles'). Role names are
 * case-insensitive (docs/tutorial/menus.md).
 */
function roleAccelerator(role: string): string | undefined {
  const mac = process.platform === 'darwin';
  const accelerators: Record<string, string> = {
    reload: 'CmdOrCtrl+R',
    forcereload: 'Shift+CmdOrCtrl+R',
    toggledevtools: mac ? 'Alt+Command+I' : 'Ctrl+Shift+I',
    undo: 'CommandOrControl+Z',
    redo: mac ? 'Shift+CommandOrControl+Z' : 'Control+Y',
    cut: 'CommandOrControl+X',
    copy: 'CommandOrControl+C',
    paste: 'CommandOrControl+V',
    selectall: 'CommandOrControl+A',
    minimize: 'CommandOrControl+M',
    quit: mac ? 'CommandOrControl+Q' : '',
  };
  return accelerators[role.toLowerCase()] || undefined;
}

/** The roles that are whole menus, as lib/browser/api/menu-item-roles.ts fills them (only what the fake's tests read). */
function roleSubmenu(role: string): FakeMenuItem[] | undefined {
  const mac = process.platform === 'darwin';
  const menus: Record<string, FakeMenuItem[]> = {
    appmenu: [{ role: 'about' }, { type: 'separator' }, { role: 'services' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
    filemenu: [mac ? { role: 'close' } : { role: 'quit' }],
    editmenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'delete' }, { role: 'selectAll' }],
    viewmenu: [
      { role: 'reload' },
      { role: 'forceReload' },
      { role: 'toggleDevTools' },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
    windowmenu: [{ role: 'minimize' }, { role: 'zoom' }, ...(mac ? [{ type: 'separator' }, { role: 'front' }] : [{ role: 'close' }])],
  };
  return menus[role.toLowerCase()];
}

function expand(items: FakeMenuItem[]): FakeMenuItem[] {
  return items.map((item) => {
    const submenu = item.submenu ?? (item.role === undefined ? undefined : roleSubmenu(item.role));
    return submenu === undefined ? { ...item } : { ...item, submenu: expand(submenu) };
  });
}

/** Every item of a menu, its submenus' too. */
export function menuItems(menu: FakeMenu | null): FakeMenuItem[] {
  const walk = (items: FakeMenuItem[]): FakeMenuItem[] => items.flatMap((item) => [item, ...walk(item.submenu ?? [])]);
  return menu === null ? [] : walk(menu.items);
}

/** Electron's Menu as main uses it: lib/browser/api/menu.ts (buildFromTemplate's checks, setApplicationMenu, getApplicationMenu). */
function menuModule(electron: FakeElectron): Record<string, unknown> {
  return {
    buildFromTemplate: (template: unknown) => {
      if (!Array.isArray(template)) throw new TypeError('Invalid template for Menu: Menu template must be an array');
      const valid = (template as unknown[]).every(
        (item) => item !== null && typeof item === 'object' && (Object.hasOwn(item, 'label') || Object.hasOwn(item, 'role') || (item as FakeMenuItem).type === 'separator'),
      );
      if (!valid) throw new TypeError('Invalid template for MenuItem: must have at least one of label, role or type');
      return new FakeMenu(expand(template as FakeMenuItem[]));
    },
    setApplicationMenu: (menu: FakeMenu | null) => {
      if (menu !== null && !(menu instanceof FakeMenu)) throw new TypeError('Invalid menu');
      electron.applicationMenu = menu;
      electron.applicationMenuWasSet = true;
      // Windows and Linux: the application menu becomes every open window's menu bar.
      if (process.platform !== 'darwin') for (const window of electron.windows) window.setMenu(menu);
    },
    getApplicationMenu: () => electron.applicationMenu,
  };
}

/**
 * Electron sets its default menu (File, Edit, View with Reload, Force Reload and Toggle Developer Tools, Window; and the
 * app menu on macOS) at 'will-finish-launching', unless the app has set one by then (lib/browser/init.ts,
 * lib/browser/default-menu.ts). 'will-finish-launching' comes before 'ready' and main/index.ts sets no menu before ready:
 * the fake sets it as the app becomes ready, before main's code after whenReady() runs.
 */
function setDefaultApplicationMenuAtLaunch(electron: FakeElectron): void {
  electron.app.once('ready', () => {
    if (electron.applicationMenuWasSet) return;
    const template = [...(process.platform === 'darwin' ? [{ role: 'appMenu' }] : []), { role: 'fileMenu' }, { role: 'editMenu' }, { role: 'viewMenu' }, { role: 'windowMenu' }];
    electron.applicationMenu = new FakeMenu(expand(template));
    // Not "set by the app": main may still set its own.
    if (process.platform !== 'darwin') for (const window of electron.windows) window.setMenu(electron.applicationMenu);
  });
}

/** What before-input-event gives (docs/api/web-contents.md, Event: 'before-input-event'); a key down unless said. */
export interface FakeKey {
  key: string;
  type?: 'keyDown' | 'keyUp';
  control?: boolean;
  meta?: boolean;
  shift?: boolean;
  alt?: boolean;
}

function matches(accelerator: string, input: Required<FakeKey>): boolean {
  const parts = accelerator.split('+');
  const key = parts.pop() ?? '';
  const wanted = { control: false, meta: false, shift: false, alt: false };
  for (const part of parts.map((p) => p.toLowerCase())) {
    if (part === 'cmdorctrl' || part === 'commandorcontrol') wanted[process.platform === 'darwin' ? 'meta' : 'control'] = true;
    else if (part === 'cmd' || part === 'command') wanted.meta = true;
    else if (part === 'ctrl' || part === 'control') wanted.control = true;
    else if (part === 'shift') wanted.shift = true;
    else if (part === 'alt' || part === 'option') wanted.alt = true;
  }
  return (
    key.toLowerCase() === input.key.toLowerCase() &&
    wanted.control === input.control &&
    wanted.meta === input.meta &&
    wanted.shift === input.shift &&
    wanted.alt === input.alt
  );
}

/**
 * The agent presses a key in the window, as Chromium and Electron handle it: 'before-input-event' first (preventDefault
 * stops the page's keydown and the menu shortcuts: docs/api/web-contents.md); then, on a key down, the menu's item whose
 * accelerator it is runs its role — the application menu on macOS, the window's menu bar on Windows and Linux (a window
 * without a menu has no menu shortcuts). Answers what happened.
 */
export function pressKey(electron: FakeElectron, window: FakeBrowserWindow, key: FakeKey): { prevented: boolean; role: string | undefined } {
  const input = { type: 'keyDown' as const, control: false, meta: false, shift: false, alt: false, ...key };
  const event = new FakeEvent();
  window.webContents.emit('before-input-event', event, { ...input, code: '', isAutoRepeat: false, isComposing: false, location: 0, modifiers: [] });
  if (event.defaultPrevented || input.type !== 'keyDown') return { prevented: event.defaultPrevented, role: undefined };
  const menu = process.platform === 'darwin' ? electron.applicationMenu : window.menu;
  const item = menuItems(menu).find((candidate) => {
    const accelerator = candidate.accelerator ?? (candidate.role === undefined ? undefined : roleAccelerator(candidate.role));
    return accelerator !== undefined && matches(accelerator, input);
  });
  const role = item?.role?.toLowerCase();
  if (role === 'reload') window.webContents.reload();
  if (role === 'forcereload') window.webContents.reloadIgnoringCache();
  return { prevented: false, role };
}

/** The renderer process goes away, as Chromium reports it: 'render-process-gone' with the reason and exit code. */
export function crashRenderer(contents: FakeWebContents, reason: string, exitCode: number): void {
  contents.rendererGone = true;
  contents.emit('render-process-gone', new FakeEvent(), { reason, exitCode });
}
