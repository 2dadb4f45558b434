// app:info on the real stack: this desk's stable id, the same after a restart, and whether its records are in
// its own embedded files or on the center the `center` setting names.
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeProblem } from '../../../main/cli/messages';
import { createMainStack, type MainStack } from '../../../main/app';
import { CENTER_STORES, CenterSettings, DESK_NONCE_FILE } from '../../../main/center';
import { centerStorage, type Storage } from '../../../main/storage';
import { createCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import type { SenderInfo } from '../../../main/ipc';
import { MIN_COST } from '../../../main/operators';

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
  createMainStack({
    passwordCost: MIN_COST,
    fetch,
    dataDir: dir,
    version: 'test',
    isTrustedSender: () => true,
    ...(center === undefined ? {} : { center: center.setting, storage: center.storage }),
  });

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
    // The center's desk registry is not the embedded desk's concern: no nonce beside desk.json.
    expect(await readdir(dir)).not.toContain(DESK_NONCE_FILE);
  });

  it('with a center setting: the center (a real PostgreSQL, as the app makes it from the setting), named by host, port and database only', async () => {
    const center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
    try {
      const setting = CenterSettings.parse({
        host: center.app.host,
        port: center.app.port,
        database: center.app.database,
        user: center.app.user,
        sslmode: 'disable',
      });
      stack = await start({ setting, storage: centerStorage(center.app) });
      const info = await stack.dispatch('app:info', sender, {});
      expect(info).toMatchObject({
        ok: true,
        value: { storage: 'center', center: `${center.app.host}:${center.app.port}/${center.app.database}` },
      });
      expect(JSON.stringify(info)).not.toContain(center.roles.app.password);
      await stack.close();
      stack = undefined;
    } finally {
      await center.drop();
    }
  }, 60_000);

  it('two data folders with one desk.json (copied) on one center: the first starts, the second is refused in words before touching any record; without the copied desk.json it starts with an id of its own', async () => {
    const center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
    const copy = await mkdtemp(path.join(tmpdir(), 'cpd-desk-copy-'));
    const storages: Storage[] = [];
    const storage = (): Storage => {
      const made = centerStorage(center.app);
      storages.push(made);
      return made;
    };
    const setting = CenterSettings.parse({
      host: center.app.host,
      port: center.app.port,
      database: center.app.database,
      user: center.app.user,
      sslmode: 'disable',
    });
    const startAt = (dataDir: string): Promise<MainStack> =>
      createMainStack({
        passwordCost: MIN_COST,
        fetch,
        dataDir,
        version: 'test',
        isTrustedSender: () => true,
        center: setting,
        storage: storage(),
      });
    try {
      stack = await startAt(dir);
      const info = await stack.dispatch('app:info', sender, {});
      const deskId = (info as { value: { deskId: string } }).value.deskId;
      await stack.directory.createFirstAdmin({ id: 'ada', displayName: 'Ada', password: 'a long password 42' });
      expect((await stack.dispatch('session:signIn', sender, { id: 'ada', password: 'a long password 42' })).ok).toBe(
        true,
      );
      await cp(path.join(dir, 'desk.json'), path.join(copy, 'desk.json'));

      const refused: unknown = await startAt(copy).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'desk_id_in_use', params: { deskId } });
      expect(describeProblem(refused)).toMatch(
        /is used on the center by another computer .*delete desk\.json from its data folder/,
      );
      // Desk A's session was not ended by the copy's start (closeDeskSessions never ran there).
      expect(await center.query('SELECT operator_id, desk_id FROM operators.sessions')).toEqual([
        { operator_id: 'ada', desk_id: deskId },
      ]);
      expect((await stack.dispatch('messaging:channels', sender, {})).ok).toBe(true);

      await rm(path.join(copy, 'desk.json'));
      const second = await startAt(copy);
      try {
        const own = await second.dispatch('app:info', sender, {});
        expect(own).toMatchObject({ ok: true, value: { storage: 'center' } });
        expect((own as { value: { deskId: string } }).value.deskId).not.toBe(deskId);
      } finally {
        await second.close();
      }
      await stack.close();
      stack = undefined;
    } finally {
      await Promise.all(storages.map((made) => made.close()));
      await rm(copy, { recursive: true, force: true });
      await center.drop();
    }
  }, 60_000);
});
