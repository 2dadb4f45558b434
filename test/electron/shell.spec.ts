// The real app in a real Electron: window flags, app:// with its CSP, navigation and pop-ups refused, no Node in the page, first run.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { CONTENT_SECURITY_POLICY } from '../../main/window/csp';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME } from '../../main/window/protocol';
import { CHANNEL_NAMES } from '../../shared/ipc';
import { expect, projectRoot, startSecondInstance, test } from './support/desk';
import { announceSkip, electronSkipReason } from './support/electron-binary';

const packageJson = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };

const skipReason = electronSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
test.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

// Page-side snippets are strings: the test project has no DOM typings, and they run in the sandboxed page.
const reportCspViolations = `
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error('CSP violation: ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline'));
  });
`;

test('the window runs with context isolation, the sandbox, no Node integration and web security', async ({ desk }) => {
  const windows = await desk.app.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows().map((window) => {
      // Undocumented but long-standing (Electron's own tests use it): the preferences the renderer was started with.
      const contents = window.webContents as unknown as { getLastWebPreferences(): Record<string, unknown> | null };
      return contents.getLastWebPreferences();
    }),
  );
  expect(windows).toHaveLength(1);
  expect(windows[0]).toMatchObject({
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
  });
});

test('started as npm start starts it: the project folder is the app, named and versioned by its package.json', async ({
  desk,
}) => {
  const facts = await desk.app.evaluate(({ app }) => ({
    appPath: app.getAppPath(),
    name: app.getName(),
    version: app.getVersion(),
    userData: app.getPath('userData'),
  }));
  expect(facts).toEqual({
    appPath: path.resolve(projectRoot),
    name: 'Card Payments Desk',
    version: packageJson.version,
    userData: desk.userDataDir,
  });
});

test('the page comes from app://, not file://, with the CSP as a response header', async ({ desk }) => {
  const { window } = desk;
  expect(window.url()).toBe(APP_ENTRY_URL);
  // The page's own origin, as Chromium sees it: app:// is registered as a standard, secure scheme, so the page has the
  // origin app://app and is a secure context. (Node's URL parser knows nothing of that: it gives 'null' for any app: URL.)
  expect(await window.evaluate('location.origin')).toBe(APP_ORIGIN);
  expect(await window.evaluate('window.isSecureContext')).toBe(true);

  // The first load happened before the test was attached; a reload shows the response itself.
  await window.addInitScript({ content: reportCspViolations });
  const response = await window.reload();
  if (response === null) throw new Error('the reload of the app:// page produced no response');
  expect(response.url()).toBe(APP_ENTRY_URL);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  // The header and renderer/index.html's meta tag are one policy, not two that drift apart.
  await expect(window.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
    'content',
    CONTENT_SECURITY_POLICY,
  );
  await expect(window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  expect(desk.problems).toEqual([]);
});

test('app:// serves only the built renderer: paths that climb out of it are refused', async ({ desk }) => {
  // out/main/index.js sits next to out/renderer/: each of these would reach it if the handler decoded and followed them.
  const climbing = [
    `${APP_ORIGIN}/..%2fmain%2findex.js`,
    `${APP_ORIGIN}/%2e%2e%2fmain%2findex.js`,
    `${APP_ORIGIN}/..%5cmain%5cindex.js`,
    `${APP_ORIGIN}/assets/%2e%2e/%2e%2e/main/index.js`,
    `${APP_ORIGIN}/..%2fpreload%2findex.cjs`,
    `${APP_SCHEME}://elsewhere/index.html`,
  ];
  const answers = await desk.app.evaluate(
    async ({ BrowserWindow }, urls) => {
      const [window] = BrowserWindow.getAllWindows();
      if (window === undefined) throw new Error('no window');
      const results: { url: string; status: number; csp: string | null }[] = [];
      for (const url of urls) {
        // The window's own session: the same protocol handler the page is served by.
        const answer = await window.webContents.session.fetch(url);
        results.push({ url, status: answer.status, csp: answer.headers.get('content-security-policy') });
      }
      return results;
    },
    [APP_ENTRY_URL, ...climbing],
  );

  const [entry, ...refused] = answers;
  // Positive control: the same request path does serve the app, with its policy.
  expect(entry).toEqual({ url: APP_ENTRY_URL, status: 200, csp: CONTENT_SECURITY_POLICY });
  expect(refused.map(({ url, status }) => ({ url, status }))).toEqual(climbing.map((url) => ({ url, status: 404 })));
});

test('navigation away from the app is refused and the page stays where it is', async ({ desk }) => {
  const { window, app } = desk;
  await expect(window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  const before = window.url();

  // Listen in main after the app's own handlers, so the event shows whether they prevented it.
  await app.evaluate(({ BrowserWindow }) => {
    const [appWindow] = BrowserWindow.getAllWindows();
    if (appWindow === undefined) throw new Error('no window');
    const seen = new Promise<{ url: string; prevented: boolean }>((resolve) => {
      appWindow.webContents.once('will-navigate', (event) => {
        // Read after every listener of this emit has run.
        setImmediate(() => resolve({ url: event.url, prevented: event.defaultPrevented }));
      });
    });
    (globalThis as { __cpdNavigationAttempt?: Promise<unknown> }).__cpdNavigationAttempt = seen;
  });
  await window.evaluate("location.href = 'https://example.com/'");
  const attempt = await app.evaluate(
    () => (globalThis as { __cpdNavigationAttempt?: Promise<unknown> }).__cpdNavigationAttempt,
  );
  expect(attempt).toEqual({ url: 'https://example.com/', prevented: true });

  // A link the page might show (a guest's e-mail, a payment link) is refused the same way, left- or middle-clicked.
  await window.evaluate(`(() => {
    const link = document.createElement('a');
    link.href = 'https://example.com/pay';
    link.textContent = 'outside link';
    document.body.append(link);
  })()`);
  await window.getByText('outside link').click();
  await window.getByText('outside link').click({ button: 'middle' });

  expect(window.url()).toBe(before);
  await expect(window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
});

test('window.open opens nothing, outside or inside the app', async ({ desk }) => {
  const { window, app } = desk;
  const opened: string[] = [];
  app.on('window', (page) => opened.push(page.url()));

  const results = await window.evaluate(`[
    window.open('https://example.com/', '_blank') === null,
    window.open('${APP_ENTRY_URL}', '_blank') === null,
    window.open('about:blank') === null,
  ]`);
  expect(results).toEqual([true, true, true]);
  // Each window.open above returns only after main's window-open handler has answered.
  expect(
    await app.evaluate(({ BrowserWindow, webContents }) => [
      BrowserWindow.getAllWindows().length,
      webContents.getAllWebContents().length,
    ]),
  ).toEqual([1, 1]);
  expect(app.windows()).toHaveLength(1);
  expect(opened).toEqual([]);
});

test('the page has no require, process or Node globals; window.api is the contract and nothing more', async ({
  desk,
}) => {
  const globals = await desk.window.evaluate(`({
    require: typeof require,
    process: typeof process,
    module: typeof module,
    Buffer: typeof Buffer,
    global: typeof global,
    rendererIpc: typeof window.ipcRenderer,
    electron: typeof window.electron,
    api: typeof window.api,
  })`);
  expect(globals).toEqual({
    require: 'undefined',
    process: 'undefined',
    module: 'undefined',
    Buffer: 'undefined',
    global: 'undefined',
    rendererIpc: 'undefined',
    electron: 'undefined',
    api: 'object',
  });

  const surface = await desk.window.evaluate(
    '({ frozen: Object.isFrozen(window.api), keys: Object.keys(window.api).sort() })',
  );
  const domains = [...new Set(CHANNEL_NAMES.map((channel) => channel.split(':')[0]))];
  expect(surface).toEqual({ frozen: true, keys: [...domains, 'events'].sort() });
});

test('first run: the first administrator is created, signed in, and kept in the data folder', async ({
  desk,
  launchDesk,
}) => {
  const { window } = desk;
  const sessionStatus = 'window.api.session.status({})';
  await expect(window.getByRole('heading', { name: /first administrator/i })).toBeVisible();
  await window.getByLabel(/operator id/i).fill('ada');
  await window.getByLabel(/^name/i).fill('Ada Admin');
  await window.getByLabel(/^password/i).fill('a long password 42');
  await window.getByRole('button', { name: /create and sign in/i }).click();
  await expect(window.getByRole('heading', { name: /first administrator/i })).toBeHidden();
  await expect(window.getByText(/Ada Admin/).first()).toBeVisible();
  // Main, not the page, says who is signed in.
  expect(await window.evaluate(sessionStatus)).toEqual({
    ok: true,
    value: {
      operator: { id: 'ada', displayName: 'Ada Admin', role: 'admin', disabled: false },
      locked: false,
      needsFirstAdmin: false,
    },
  });
  expect(desk.problems).toEqual([]);

  // The account lives in --user-data-dir: the next start on the same folder asks to sign in, not for an administrator.
  await desk.app.close();
  const again = await launchDesk(desk.userDataDir);
  await expect(again.window.getByRole('heading', { name: /sign in/i })).toBeVisible();
  const restarted = await again.window.evaluate(sessionStatus);
  expect(restarted).toMatchObject({ ok: true, value: { needsFirstAdmin: false } });
  expect(restarted).not.toHaveProperty('value.operator.id');
  await again.window.getByLabel(/operator id/i).fill('ada');
  await again.window.getByLabel(/^password/i).fill('a long password 42');
  await again.window.getByRole('button', { name: /sign in/i }).click();
  await expect(again.window.getByText(/Ada Admin/).first()).toBeVisible();
  expect(await again.window.evaluate(sessionStatus)).toMatchObject({
    ok: true,
    value: { operator: { id: 'ada', role: 'admin' }, locked: false },
  });
  expect(again.problems).toEqual([]);
});

test('a second start on the same data folder hands over to the running app and exits', async ({ desk }) => {
  await desk.app.evaluate(({ app }) => {
    (globalThis as { __cpdSecondInstance?: Promise<boolean> }).__cpdSecondInstance = new Promise((resolve) => {
      app.once('second-instance', () => resolve(true));
    });
  });
  const exitCode = await startSecondInstance(desk.userDataDir);
  expect(exitCode).toBe(0);
  expect(
    await desk.app.evaluate(() => (globalThis as { __cpdSecondInstance?: Promise<boolean> }).__cpdSecondInstance),
  ).toBe(true);
  expect(await desk.app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
});
