/**
 * A recording stand-in for Electron's main-process modules — the one thing main/index.ts needs that cannot run here
 * (no Electron binary). It keeps, in order, what main asked of it (`log`), and behaves as Electron documents where main
 * relies on it: schemes can be registered only before `ready`; app.quit() sends before-quit, closes the windows
 * (either can be prevented), then will-quit and quit; a window closed by the user sends close, closed, and
 * window-all-closed after the last one; net.fetch (the default session's fetch) and net.request really fetch, over
 * node:http, with the default session's cookie store (the net section).
 * safeStorage encrypts with AES-256-GCM under a key the test can replace, as a reset keyring would. As Chromium, the
 * user data folder is made when the app starts.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { format } from 'node:util';

import { vi } from 'vitest';

// ─── net: Electron's net.request and net.fetch, and a session's cookie store ─────────────────────────────────────────────
// As Electron 45 behaves (electron/electron lib/common/api/net-client-request.ts, lib/browser/api/net-fetch.ts,
// shell/common/api/electron_api_url_loader.cc) over Chromium's network service. Plain http and https on node:http(s).

export interface FakeRequestOptions {
  method?: string;
  url: string;
  redirect?: 'follow' | 'error' | 'manual';
  /** The session whose cookie store the request may use; without it, the default session (docs/api/client-request.md). */
  session?: FakeNetSession;
  credentials?: 'include' | 'omit' | 'same-origin';
  useSessionCookies?: boolean;
  origin?: string;
}

/** A cookie as Electron's cookies.get answers it (docs/api/structures/cookie.md): the fields the tests read. */
export interface FakeCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  hostOnly: boolean;
}

/**
 * A session's cookie store, Electron's `session.cookies` (docs/api/cookies.md: get(filter), set(details)) over Chromium's
 * CookieMonster, with what the tests need: host-only cookies (a Set-Cookie's first name=value pair, keyed by the host,
 * any port, path '/'), kept as long as the session.
 */
export class FakeCookies {
  private readonly byHost = new Map<string, Map<string, string>>();

  /** cookies.get(filter): those of the filter's url (its host) and name; `{}` answers every cookie of the session. */
  get(filter: { url?: string; name?: string } = {}): Promise<FakeCookie[]> {
    const host = filter.url === undefined ? undefined : new URL(filter.url).hostname;
    const cookies = [...this.byHost].flatMap(([domain, jar]) =>
      host !== undefined && host !== domain
        ? []
        : [...jar].map(([name, value]) => ({ name, value, domain, path: '/', hostOnly: true })),
    );
    return Promise.resolve(cookies.filter((cookie) => filter.name === undefined || cookie.name === filter.name));
  }

  /** cookies.set(details): the cookie, for the details' url. */
  set(details: { url: string; name?: string; value?: string }): Promise<void> {
    this.keep(new URL(details.url).hostname, details.name ?? '', details.value ?? '');
    return Promise.resolve();
  }

  /** cookies.remove(url, name): that cookie of the url's host. */
  remove(url: string, name: string): Promise<void> {
    this.byHost.get(new URL(url).hostname)?.delete(name);
    return Promise.resolve();
  }

  /** What Chromium keeps of a response's Set-Cookie headers (net/url_request/url_request_http_job.cc, SaveCookiesAndNotifyHeadersComplete). */
  storeFrom(url: string, setCookie: readonly string[]): void {
    for (const line of setCookie) {
      const pair = line.split(';', 1)[0] ?? '';
      const equals = pair.indexOf('=');
      if (equals > 0) this.keep(new URL(url).hostname, pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
  }

  /** The Cookie header Chromium adds to a request (url_request_http_job.cc, AddCookieHeaderAndStart), if any. */
  headerFor(url: string): string | undefined {
    const jar = this.byHost.get(new URL(url).hostname);
    return jar === undefined || jar.size === 0
      ? undefined
      : [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(host: string, name: string, value: string): void {
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    jar.set(name, value);
    this.byHost.set(host, jar);
  }
}

/** What a session lends a request: its cookie store. */
export interface FakeNetSession {
  readonly cookies: FakeCookies;
}

/** Node's system errors as Chromium's network stack names them (net/base/net_error_list.h). */
const CHROMIUM_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'ERR_CONNECTION_REFUSED',
  ENOTFOUND: 'ERR_NAME_NOT_RESOLVED',
  ECONNRESET: 'ERR_CONNECTION_RESET',
  ETIMEDOUT: 'ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'ERR_ADDRESS_UNREACHABLE',
};

/** Chromium's URLRequest::kMaxRedirects (net/url_request/url_request.cc). */
const MAX_REDIRECTS = 20;

function headerArrays(headers: IncomingHttpHeaders): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value : [value]]],
    ),
  );
}

/** The method after a redirect (net/url_request/redirect_info.cc, ComputeMethodForRedirect): 303 → GET, 301/302 POST → GET. */
function methodAfterRedirect(status: number, method: string): string {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

/**
 * Electron's ClientRequest (net.request), on node:http(s), as Electron 45 behaves (lib/common/api/net-client-request.ts):
 * 'response' with the IncomingMessage; on a redirect, 'redirect' (status, new method, new URL, headers) and then with
 * `redirect: 'manual'` an error "Redirect was cancelled" unless followRedirect() was called during the event; with
 * 'follow' the next request; with 'error' an error. A network failure is Chromium's Error('net::ERR_CONNECTION_REFUSED'),
 * with no code.
 * Cookies, as shell/common/api/electron_api_url_loader.cc (CreateURLLoader) and Chromium's network service decide:
 * - no `credentials` and `useSessionCookies` false (the default): kURLLoadOptionBlockAllCookies, none sent, none kept;
 * - `credentials: 'include'` (or 'same-origin', which needs an `origin`; services/network/url_loader.cc
 *   ShouldAllowCredentials treats it as include), or `useSessionCookies` without `credentials`: the session's cookies
 *   are sent, and every response's Set-Cookie (a redirect's too) is kept in the session's store;
 * - `credentials: 'omit'`: URLLoader calls set_allow_credentials(false): no Cookie header
 *   (URLRequestHttpJob::ShouldAddCookieHeader) and LOAD_DO_NOT_SAVE_COOKIES, so no Set-Cookie is kept.
 */
export class FakeClientRequest extends EventEmitter {
  private readonly headers: Record<string, string> = {};
  private aborted = false;
  private followed = false;
  private readonly cookies: FakeCookies | undefined;
  constructor(
    private readonly options: FakeRequestOptions,
    defaultSession?: FakeNetSession,
  ) {
    super();
    if (options.credentials === 'same-origin' && options.origin === undefined)
      throw new Error('credentials: same-origin requires origin to be set');
    const usesCookies =
      options.credentials === undefined ? options.useSessionCookies === true : options.credentials !== 'omit';
    this.cookies = usesCookies ? (options.session ?? defaultSession)?.cookies : undefined;
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
    this.send(this.options.url, this.options.method ?? 'GET', body, 0);
  }

  private send(url: string, method: string, body: Buffer | string | undefined, redirects: number): void {
    const cookie = this.cookies?.headerFor(url);
    const headers = cookie === undefined ? this.headers : { ...this.headers, cookie };
    const requestFor = new URL(url).protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = requestFor(url, { method, headers }, (response) => {
      if (this.aborted) return;
      const setCookie = response.headers['set-cookie'];
      if (setCookie !== undefined) this.cookies?.storeFrom(url, setCookie);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status < 300 || status >= 400 || location === undefined) {
        this.emit('response', response);
        return;
      }
      response.resume();
      if (this.options.redirect === 'error') {
        this.emit('error', new Error("Attempted to redirect, but redirect policy was 'error'"));
        return;
      }
      if (redirects >= MAX_REDIRECTS) {
        this.emit('error', new Error('net::ERR_TOO_MANY_REDIRECTS'));
        return;
      }
      const next = new URL(location, url).href;
      const nextMethod = methodAfterRedirect(status, method);
      this.followed = this.options.redirect !== 'manual';
      this.emit('redirect', status, nextMethod, next, headerArrays(response.headers));
      if (this.aborted) return;
      if (!this.followed) {
        this.emit('error', new Error('Redirect was cancelled'));
        return;
      }
      this.send(next, nextMethod, nextMethod === method ? body : undefined, redirects + 1);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // As Chromium reports them: Error('net::ERR_…'), no code.
      if (!this.aborted) this.emit('error', new Error(`net::${CHROMIUM_ERRORS[error.code ?? ''] ?? 'ERR_FAILED'}`));
    });
    outgoing.end(body);
  }
}

/**
 * A session's fetch (net.fetch is session.defaultSession.fetch: lib/browser/api/net.ts), as Electron's fetchWithSession
 * (lib/browser/api/net-fetch.ts) builds it: a ClientRequest with the Request's method, URL, redirect mode and
 * credentials, where the Request's default credentials 'same-origin' becomes 'include' when there is no Origin header.
 * So by default net.fetch sends the session's cookies and keeps those it is given. It never listens for the request's
 * 'redirect' event: with `redirect: 'manual'` a 3xx answer rejects the fetch ("Redirect was cancelled").
 */
export function fakeSessionFetch(
  session: FakeNetSession,
  input: string | Request,
  init?: RequestInit,
): Promise<Response> {
  let request: Request;
  try {
    request = new Request(input, init);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new TypeError(String(error)));
  }
  const abortReason = (): Error => {
    const reason: unknown = request.signal.reason;
    return reason instanceof Error ? reason : new DOMException('The operation was aborted.', 'AbortError');
  };
  if (request.signal.aborted) return Promise.reject(abortReason());
  return new Promise((resolve, reject) => {
    const origin = request.headers.get('origin') ?? undefined;
    const credentials = request.credentials === 'same-origin' && origin === undefined ? 'include' : request.credentials;
    const client = new FakeClientRequest(
      {
        session,
        method: request.method,
        url: request.url,
        credentials,
        redirect: request.redirect,
        ...(origin === undefined ? {} : { origin }),
      },
      session,
    );
    request.signal.addEventListener(
      'abort',
      () => {
        reject(abortReason());
        client.abort();
      },
      { once: true },
    );
    for (const [name, value] of request.headers) client.setHeader(name, value);
    client.on('response', (response: IncomingMessage) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers))
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const status = response.statusCode ?? 0;
      const body =
        [101, 204, 205, 304].includes(status) || request.method === 'HEAD'
          ? null
          : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status, statusText: response.statusMessage, headers }));
    });
    client.on('error', reject);
    void request.arrayBuffer().then((body) => client.end(body.byteLength === 0 ? undefined : Buffer.from(body)));
  });
}

// ─── end of net ──────────────────────────────────────────────────────────────────────────────────────────────────────────

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
  options: {
    type?: string;
    title?: string;
    message: string;
    detail?: string;
    buttons?: string[];
    defaultId?: number;
    cancelId?: number;
  };
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
  hide(): void {
    this.electron.record('window.hide');
    this.shown = false;
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
  /** Chromium's locale of the system (app.getLocale(), valid once ready). */
  locale = 'es-MX';
  getLocale(): string {
    return this.locale;
  }
  /** app.relaunch(): "Relaunches the app when current instance exits" (Electron docs, app.relaunch). */
  relaunched = 0;
  relaunch(): void {
    this.electron.record('app.relaunch');
    this.relaunched++;
  }
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    this.electron.record('app.requestSingleInstanceLock');
    // Electron hands additionalData to the running instance's 'second-instance' event (its app docs).
    this.electron.lockRequests.push(additionalData);
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
  // --- Command-line modes and the Linux keyring (main/cli/desk.ts, main/secrets) ---
  /** The additionalData of each app.requestSingleInstanceLock call, in order. */
  readonly lockRequests: (Record<string, unknown> | undefined)[] = [];
  /** Linux: what the desktop offers safeStorage (see LinuxDesktop); undefined: GNOME with its keyring. */
  linuxDesktop: LinuxDesktop | undefined;
  // --- end ---
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
  // net: the default session's cookie store, which its fetch, net.fetch and net.request use.
  const defaultNetSession: FakeNetSession = { cookies: new FakeCookies() };
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
        if (electron.app.ready)
          throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
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
        // net: its cookies and its fetch (the net section: FakeCookies, fakeSessionFetch).
        cookies: defaultNetSession.cookies,
        fetch: (input: string | Request, init?: RequestInit) => fakeSessionFetch(defaultNetSession, input, init),
      },
    },
    webContents: {
      fromId: (id: number) => electron.allWindows.find((window) => window.webContents.id === id)?.webContents,
    },
    // eslint-disable-next-line no-restricted-syntax -- the fake of Electron's module offers ipcMain under its own name
    ipcMain: {
      handle: (channel: string, handler: Handler) => {
        if (electron.ipcHandlers.has(channel))
          throw new Error(`Attempted to register a second handler for '${channel}'`);
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
        const call: MessageBoxCall =
          first instanceof FakeBrowserWindow
            ? { window: first, options: second ?? { message: '' } }
            : { window: undefined, options: first };
        electron.messageBoxes.push(call);
        const response = electron.answers.shift() ?? call.options.defaultId ?? 0;
        return Promise.resolve({ response, checkboxChecked: false });
      },
    },
    safeStorage: fakeSafeStorage(electron),
    net: {
      // net.fetch is session.defaultSession.fetch (lib/browser/api/net.ts); it takes a string or a Request.
      fetch: (input: string | Request, init?: RequestInit) => {
        if (typeof input !== 'string' && !(input instanceof Request))
          return Promise.reject(new TypeError('net.fetch: input must be a string or a Request'));
        electron.fetched.push(typeof input === 'string' ? input : input.url);
        return fakeSessionFetch(defaultNetSession, input, init);
      },
      request: (options: FakeRequestOptions) => {
        electron.fetched.push(options.url);
        return new FakeClientRequest(options, defaultNetSession);
      },
    },
    powerMonitor: electron.powerMonitor,
    Menu: menuModule(electron),
  };
  return { ...module, default: module };
}

// electron-updater's autoUpdater, per platform, with the OS installer: test/main/support/fake-updater.ts.
export {
  FakeAutoUpdater,
  type FakeAutoUpdaterOptions,
  type FakeInstall,
  type FakeUpdaterPlatform,
} from './fake-updater';

// --- Command-line modes and the Linux keyring (main/cli/desk.ts, main/secrets) ------------------------------------

/**
 * A Linux desktop as Electron 45's safeStorage sees it. getSelectedStorageBackend() answers from the desktop's name
 * ("basic_text - When the desktop environment is not recognised", Electron 45's safeStorage docs): sway or i3 say
 * basic_text. The asynchronous API asks os_crypt_async's providers instead (shell/browser/browser_process_impl.cc,
 * CreateOSCryptAsync): FreedesktopSecretKeyProvider asks the Secret Service on the session bus whatever the desktop's
 * name (GetKey: KDE → KWallet, any other desktop → org.freedesktop.secrets) and tags its ciphertext "v11"; when no
 * keyring answers, PosixKeyProvider's key built into Chromium, tagged "v10" ("A fallback provider is used for
 * environments without a secret service available", the safeStorage docs). isAsyncEncryptionAvailable() is true either way.
 */
export interface LinuxDesktop {
  storageBackend: 'basic_text' | 'gnome_libsecret' | 'kwallet5' | 'kwallet6';
  /** A keyring answers on the session bus (gnome-keyring, KWallet, KeePassXC…). */
  secretService: boolean;
}

/** PosixKeyProvider's key: the same in every Chromium, so anyone with the file can open what it encrypted. */
const BUILT_IN_KEY = Buffer.alloc(32, 0x70);

function fakeSafeStorage(electron: FakeElectron): Record<string, unknown> {
  const tagged = (): { tag: Buffer; key: Buffer } | undefined => {
    const desktop = electron.linuxDesktop;
    if (desktop === undefined) return undefined;
    return desktop.secretService
      ? { tag: Buffer.from('v11'), key: electron.storageKey }
      : { tag: Buffer.from('v10'), key: BUILT_IN_KEY };
  };
  return {
    isAsyncEncryptionAvailable: () => Promise.resolve(electron.app.ready),
    getSelectedStorageBackend: () =>
      electron.app.ready ? (electron.linuxDesktop?.storageBackend ?? 'gnome_libsecret') : 'unknown',
    encryptStringAsync: (text: string) => {
      const provider = tagged();
      return Promise.resolve(
        provider === undefined
          ? seal(electron.storageKey, text)
          : Buffer.concat([provider.tag, seal(provider.key, text)]),
      );
    },
    decryptStringAsync: (data: Buffer) => {
      try {
        const provider = tagged();
        const result =
          provider === undefined
            ? open(electron.storageKey, data)
            : open(provider.key, data.subarray(provider.tag.length));
        return Promise.resolve({ result, shouldReEncrypt: false });
      } catch {
        return Promise.reject(
          new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.'),
        );
      }
    },
  };
}

/**
 * process.stdout and process.stderr as pipes to IT's script: "Pipes (and sockets): synchronous on Windows, asynchronous
 * on POSIX" (Node's docs, process, "A note on process I/O"), so a chunk is out, and its write's callback called, only on
 * a later turn of the event loop; and app.exit() ends the process at once ("All windows will be closed immediately
 * without asking the user, and the before-quit and will-quit events will not be emitted", Electron's app docs): what
 * is not out by then is lost. console.error writes to process.stderr, as Node's console does.
 */
export class FakePipes {
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  /** What was written after the process had ended, or still under way when it did: never delivered. */
  readonly lost: string[] = [];

  constructor(private readonly electron: () => FakeElectron) {
    this.pipe(process.stdout, this.stdout);
    this.pipe(process.stderr, this.stderr);
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      process.stderr.write(`${format(...args)}\n`);
    });
  }

  private ended(): boolean {
    return this.electron().app.exitCode !== undefined;
  }

  private pipe(stream: NodeJS.WriteStream, delivered: string[]): void {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const done = rest.find((arg) => typeof arg === 'function') as ((error?: Error | null) => void) | undefined;
      if (this.ended()) {
        this.lost.push(text);
        return false;
      }
      setImmediate(() => {
        if (this.ended()) {
          this.lost.push(text);
          return;
        }
        delivered.push(text);
        done?.();
      });
      return true;
    });
  }
}
// --- end of command-line modes and the Linux keyring ---

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
    appmenu: [
      { role: 'about' },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
    filemenu: [mac ? { role: 'close' } : { role: 'quit' }],
    editmenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'delete' },
      { role: 'selectAll' },
    ],
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
    windowmenu: [
      { role: 'minimize' },
      { role: 'zoom' },
      ...(mac ? [{ type: 'separator' }, { role: 'front' }] : [{ role: 'close' }]),
    ],
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
        (item) =>
          item !== null &&
          typeof item === 'object' &&
          (Object.hasOwn(item, 'label') || Object.hasOwn(item, 'role') || (item as FakeMenuItem).type === 'separator'),
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
    const template = [
      ...(process.platform === 'darwin' ? [{ role: 'appMenu' }] : []),
      { role: 'fileMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
    ];
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
    if (part === 'cmdorctrl' || part === 'commandorcontrol')
      wanted[process.platform === 'darwin' ? 'meta' : 'control'] = true;
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
export function pressKey(
  electron: FakeElectron,
  window: FakeBrowserWindow,
  key: FakeKey,
): { prevented: boolean; role: string | undefined } {
  const input = { type: 'keyDown' as const, control: false, meta: false, shift: false, alt: false, ...key };
  const event = new FakeEvent();
  window.webContents.emit('before-input-event', event, {
    ...input,
    code: '',
    isAutoRepeat: false,
    isComposing: false,
    location: 0,
    modifiers: [],
  });
  if (event.defaultPrevented || input.type !== 'keyDown') return { prevented: event.defaultPrevented, role: undefined };
  const menu = process.platform === 'darwin' ? electron.applicationMenu : window.menu;
  const item = menuItems(menu).find((candidate) => {
    const accelerator =
      candidate.accelerator ?? (candidate.role === undefined ? undefined : roleAccelerator(candidate.role));
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
