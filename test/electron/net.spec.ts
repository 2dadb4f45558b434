// Main's fetch in a real Electron: no cookie is sent to or kept from the services (main/shell/net.ts), and the behaviour
// of Electron's net that the unit tests' fake models (test/main/support/fake-electron.ts, its net section).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { userSettingsPath } from '../../main/settings/paths';
import { appArgs, expect, launchEnv, projectRoot, test } from './support/desk';
import { announceSkip, electronSkipReason } from './support/electron-binary';

const skipReason = electronSkipReason();
if (skipReason !== undefined) announceSkip(skipReason);
test.skip(skipReason !== undefined, `Electron tests skipped: ${skipReason ?? ''}`);

interface CookieServer {
  url: string;
  /** Each request received: its path and its Cookie header. */
  received: { path: string; cookie: string | undefined }[];
  close(): Promise<void>;
}

/** A local server that hands out a session cookie with every answer (an empty reservation list as JSON). */
async function cookieServer(): Promise<CookieServer> {
  const received: CookieServer['received'] = [];
  const server = createServer((req, res) => {
    received.push({ path: new URL(req.url ?? '/', 'http://localhost').pathname, cookie: req.headers.cookie });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sid=s-1; Path=/' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test("the partner's reservation system through main's fetch: the cookie it sets is not kept, and the next search sends none", async ({
  playwright,
}) => {
  // The reservation system is set only in IT's managed file. Outside Windows its place is system-wide and root's
  // (/etc/card-payments-desk/, /Library/Application Support/CardPaymentsDesk/); on Windows %ProgramData% says where it is.
  test.skip(
    process.platform !== 'win32',
    "the managed settings file's place can be given to the app only on Windows (%ProgramData%)",
  );
  const server = await cookieServer();
  const root = await mkdtemp(path.join(tmpdir(), 'cpd-electron-net-'));
  const userDataDir = path.join(root, 'user-data');
  await mkdir(path.join(root, 'CardPaymentsDesk'), { recursive: true });
  await mkdir(userDataDir, { recursive: true });
  // The partner's REST system on this machine (http is allowed for localhost), no key; the desk in English, in training.
  await writeFile(
    path.join(root, 'CardPaymentsDesk', 'managed-settings.json'),
    JSON.stringify({ settings: { reservations: { kind: 'rest', baseUrl: server.url } } }),
  );
  await writeFile(userSettingsPath(userDataDir), `${JSON.stringify({ language: 'en-US' })}\n`);
  const env = Object.fromEntries(Object.entries(launchEnv()).filter(([name]) => name.toLowerCase() !== 'programdata'));
  const app = await playwright._electron.launch({
    args: appArgs(userDataDir),
    env: { ...env, ProgramData: root },
    cwd: projectRoot,
  });
  try {
    const window = await app.firstWindow();
    await window.waitForLoadState('domcontentloaded');
    const created = await window.evaluate(
      "window.api.session.createFirstAdmin({ id: 'ada', displayName: 'Ada Admin', password: 'a long password 42' })",
    );
    expect(created).toMatchObject({ ok: true });

    for (let search = 0; search < 2; search++) {
      expect(await window.evaluate("window.api.reservations.search({ text: 'ana' })")).toEqual({
        ok: true,
        value: { reservations: [] },
      });
    }
    expect(server.received).toEqual([
      { path: '/reservations', cookie: undefined },
      { path: '/reservations', cookie: undefined },
    ]);
    // Nothing in the profile's cookie store (the Cookies file of the user data folder).
    expect(await app.evaluate(({ session }) => session.defaultSession.cookies.get({}))).toEqual([]);
  } finally {
    await app.close();
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

test("Electron's net as the fake has it: net.fetch sends and keeps the session's cookies unless credentials are 'omit'; net.request keeps none", async ({
  desk,
}) => {
  const server = await cookieServer();
  try {
    const kept = await desk.app.evaluate(async ({ net, session }, url) => {
      const cookies = session.defaultSession.cookies;
      const names = async (): Promise<string[]> =>
        (await cookies.get({})).map((cookie) => `${cookie.name}=${cookie.value}`);
      const request = (route: string, options: { credentials?: 'omit' }): Promise<void> =>
        new Promise((resolve, reject) => {
          const client = net.request({ url: `${url}${route}`, ...options });
          client.on('response', (response) => {
            response.on('data', () => undefined);
            response.on('end', () => resolve());
          });
          client.on('error', reject);
          client.end();
        });
      const seen: Record<string, string[]> = {};
      // main's fetch before it omitted credentials: net.fetch's Request defaults to 'same-origin', which Electron
      // makes 'include' when there is no Origin header (lib/browser/api/net-fetch.ts).
      for (let i = 0; i < 2; i++) await (await net.fetch(`${url}/fetch-default`)).text();
      seen['fetch-default'] = await names();
      await session.defaultSession.clearStorageData({ storages: ['cookies'] });
      for (let i = 0; i < 2; i++) await (await net.fetch(`${url}/fetch-omit`, { credentials: 'omit' })).text();
      seen['fetch-omit'] = await names();
      for (let i = 0; i < 2; i++) await request('/request-default', {});
      seen['request-default'] = await names();
      for (let i = 0; i < 2; i++) await request('/request-omit', { credentials: 'omit' });
      seen['request-omit'] = await names();
      return seen;
    }, server.url);

    expect(kept).toEqual({ 'fetch-default': ['sid=s-1'], 'fetch-omit': [], 'request-default': [], 'request-omit': [] });
    expect(server.received).toEqual([
      { path: '/fetch-default', cookie: undefined },
      { path: '/fetch-default', cookie: 'sid=s-1' },
      { path: '/fetch-omit', cookie: undefined },
      { path: '/fetch-omit', cookie: undefined },
      { path: '/request-default', cookie: undefined },
      { path: '/request-default', cookie: undefined },
      { path: '/request-omit', cookie: undefined },
      { path: '/request-omit', cookie: undefined },
    ]);
  } finally {
    await server.close();
  }
});
