// app:info on the real stack (issue 16): this desk's stable id, the same after a restart, and whether its records are in
// its own embedded files or on the center the `center` setting names.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMainStack, type MainStack } from '../../../main/app';
import { CENTER_STORES, CenterSettings } from '../../../main/center';
import { centerStorage, type Storage } from '../../../main/storage';
import { createCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import type { SenderInfo } from '../../../main/ipc';

const sender: SenderInfo = { url: 'app://app/index.html', isMainFrame: true, webContentsId: 1 };

let dir: string;
let stack: MainStack | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cpd-desk-info-'));
});

afterEach(async () => {
  await stack?.close();
  stack = undefined;
  await rm(dir, { recursive: true, force: true });
});

const start = (center?: { setting: CenterSettings; storage: Storage }): Promise<MainStack> =>
  createMainStack({ fetch, dataDir: dir, version: 'test', isTrustedSender: () => true, ...(center === undefined ? {} : { center: center.setting, storage: center.storage }) });

describe('app:info', () => {
  it('without a center setting: the embedded files, and a desk id kept in desk.json across restarts', async () => {
    stack = await start();
    const saved = JSON.parse(await readFile(path.join(dir, 'desk.json'), 'utf8')) as { deskId: string };
    const first = await stack.dispatch('app:info', sender, {});
    expect(first).toMatchObject({ ok: true, value: { storage: 'embedded', deskId: saved.deskId } });
    expect(JSON.stringify(first)).not.toContain('"center"');
    await stack.close();

    stack = await start();
    const again = await stack.dispatch('app:info', sender, {});
    expect(again).toMatchObject({ ok: true, value: { deskId: saved.deskId } });
  });

  it('with a center setting: the center (a real PostgreSQL, as the app makes it from the setting), named by host, port and database only', async () => {
    const center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
    try {
      const setting = CenterSettings.parse({ host: center.app.host, port: center.app.port, database: center.app.database, user: center.app.user, sslmode: 'disable' });
      stack = await start({ setting, storage: centerStorage(center.app) });
      const info = await stack.dispatch('app:info', sender, {});
      expect(info).toMatchObject({ ok: true, value: { storage: 'center', center: `${center.app.host}:${center.app.port}/${center.app.database}` } });
      expect(JSON.stringify(info)).not.toContain(center.roles.app.password);
      await stack.close();
      stack = undefined;
    } finally {
      await center.drop();
    }
  }, 60_000);
});
