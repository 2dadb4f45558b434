// main/index.ts's requests, run under Node with Electron's modules faked (test/main/support/launch-main.ts): the stack is
// given main's fetch, which sends no cookie and keeps none, over the fake's net and its default session's cookie store
// (test/main/support/fake-electron.ts, net section). test/electron/net.spec.ts runs the same steps in a real Electron.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type { FakeCookies } from './support/fake-electron';
import { invoke, launch, paymentInProgress, signInAgent, startUp, useMainLaunch } from './support/launch-main';

vi.mock('electron', async () => (await import('./support/launch-main')).electronModuleMock());

// The reservation system is a policy setting, read only from IT's managed file; its system path (/etc/…) needs root,
// so this test's managed file is in a folder of its own.
const managed = vi.hoisted(() => ({ file: '' }));
vi.mock('../../main/settings/paths', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  managedSettingsPath: () => managed.file,
}));

useMainLaunch();

/** The partner's reservation system on this machine: it hands out a session cookie with every answer (an empty list). */
const received: { path: string; cookie: string | undefined }[] = [];
const partner = createServer((req, res) => {
  received.push({ path: new URL(req.url ?? '/', 'http://localhost').pathname, cookie: req.headers.cookie });
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sid=s-1; Path=/' }).end('[]');
});
let partnerUrl: string;
let managedDir: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
  managedDir = mkdtempSync(path.join(tmpdir(), 'main-index-net-'));
});

beforeEach(() => {
  // No managed file unless the test writes one.
  managed.file = path.join(managedDir, `managed-settings-${crypto.randomUUID()}.json`);
});

afterAll(async () => {
  partner.closeAllConnections();
  await new Promise((resolve) => partner.close(resolve));
  rmSync(managedDir, { recursive: true, force: true });
});

describe("main/index.ts: the stack's requests carry no cookie and leave none in the profile", () => {
  it("the partner's reservation system: the cookie it sets is not kept, and neither it nor one stored earlier is sent", async () => {
    writeFileSync(managed.file, JSON.stringify({ settings: { reservations: { kind: 'rest', baseUrl: partnerUrl } } }));
    const electron = await launch({ settings: { language: 'en-US' } });
    await startUp(electron);
    const { cookies } = (electron.module['session'] as { defaultSession: { cookies: FakeCookies } }).defaultSession;
    // A cookie for that host already in the profile (kept by an earlier version of the app).
    await cookies.set({ url: partnerUrl, name: 'earlier', value: 'e-1' });

    expect(
      await invoke(electron, 'session:createFirstAdmin', {
        id: 'ada',
        displayName: 'Ada Admin',
        password: 'a long password 42',
      }),
    ).toMatchObject({ ok: true });
    for (let search = 0; search < 2; search++) {
      expect(await invoke(electron, 'reservations:search', { text: 'ana' })).toEqual({
        ok: true,
        value: { reservations: [] },
      });
    }
    expect(received).toEqual([
      { path: '/reservations', cookie: undefined },
      { path: '/reservations', cookie: undefined },
    ]);
    expect((await cookies.get({})).map((cookie) => `${cookie.name}=${cookie.value}`)).toEqual(['earlier=e-1']);
  });

  it('the payment service (the training simulator, redirects followed): a cookie in the profile for its host is never sent', async () => {
    const electron = await launch({ settings: { language: 'en-US' } });
    await startUp(electron);
    const { cookies } = (electron.module['session'] as { defaultSession: { cookies: FakeCookies } }).defaultSession;
    // The simulator listens on 127.0.0.1; cookies belong to a host, whatever its port.
    await cookies.set({ url: 'http://127.0.0.1/', name: 'earlier', value: 'e-1' });
    // The Cookie header the network stack adds to each request (undefined: none).
    const added = vi.spyOn(cookies, 'headerFor');

    await signInAgent(electron);
    await paymentInProgress(electron);
    // The token, the card's tokenization and the payment went through main's fetch.
    const ends = ['/oauth2/token', '/methods', '/payments'];
    expect(ends.filter((end) => electron.fetched.some((url) => new URL(url).pathname.endsWith(end)))).toEqual(ends);
    expect(
      added.mock.results.map((result) => result.value as unknown).filter((header) => header !== undefined),
    ).toEqual([]);
    expect((await cookies.get({})).map((cookie) => `${cookie.name}=${cookie.value}`)).toEqual(['earlier=e-1']);
  });
});
