// The center's desk registry on a real PostgreSQL: two computers with one desk id (desk.json, or
// the whole data folder, copied) are told apart at start; the copy is refused in words and starts with an id of its own
// once desk.json is deleted. A desk stopped in the middle of its registration is not refused at its next start.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeProblem } from '../../../main/cli/messages';
import {
  DESK_FILE,
  DESK_NONCE_FILE,
  DESKS_STORE,
  DeskRegistryError,
  deskIdentity,
  registerDesk,
} from '../../../main/center';
import { centerStorage, type Storage } from '../../../main/storage';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';

let center: TestCenter;
let folder: string;
let counter = 0;
const storages: Storage[] = [];

beforeAll(async () => {
  center = await createCenter(await testPostgres(), { stores: [DESKS_STORE] });
  folder = await mkdtemp(path.join(tmpdir(), 'cpd-registry-'));
}, 120_000);

afterEach(async () => {
  await Promise.all(storages.splice(0).map((storage) => storage.close()));
});

afterAll(async () => {
  await center.drop();
  await rm(folder, { recursive: true, force: true });
});

const newFolder = (): string => path.join(folder, String(++counter));

/** A start of the desk whose data folder is `dataDir`, on the center, from the computer named `host`. */
async function start(dataDir: string, host: string): Promise<string> {
  const identity = await deskIdentity(dataDir);
  const storage = centerStorage(center.app);
  storages.push(storage);
  await registerDesk(storage, identity, dataDir, { host });
  return identity.deskId;
}

const refusal = async (dataDir: string, host: string): Promise<unknown> =>
  start(dataDir, host).then(
    () => 'started',
    (error: unknown) => error,
  );

const row = async (deskId: string): Promise<{ nonce: string | null; host: string } | undefined> =>
  (
    await center.query<{ nonce: string | null; host: string }>(
      'SELECT nonce, host FROM desks.desks WHERE desk_id = $1',
      [deskId],
    )
  )[0];

const nonceFile = async (dataDir: string): Promise<{ deskId: string; nonce: string; next?: string }> =>
  JSON.parse(await readFile(path.join(dataDir, DESK_NONCE_FILE), 'utf8')) as {
    deskId: string;
    nonce: string;
    next?: string;
  };

describe('the desk registry', () => {
  it('registers a new desk; each start takes a new nonce, the file and the center agreeing', async () => {
    const dir = newFolder();
    const deskId = await start(dir, 'PC-01');
    const first = await row(deskId);
    expect(first).toEqual({ nonce: (await nonceFile(dir)).nonce, host: 'PC-01' });
    expect(await nonceFile(dir)).toEqual({ version: 1, deskId, nonce: first?.nonce });
    await start(dir, 'PC-01');
    const second = await row(deskId);
    expect(second?.nonce).not.toBe(first?.nonce);
    expect((await nonceFile(dir)).nonce).toBe(second?.nonce);
  });

  it('desk.json copied to a second computer: the first starts, the second is refused in words and writes nothing; without the copied desk.json it makes an id of its own and starts', async () => {
    const original = newFolder();
    const copy = newFolder();
    const deskId = await start(original, 'PC-01');
    await cp(path.join(original, DESK_FILE), path.join(copy, DESK_FILE));
    const before = await row(deskId);

    const error = await refusal(copy, 'PC-02');
    expect(error).toBeInstanceOf(DeskRegistryError);
    expect(error).toMatchObject({ code: 'desk_id_in_use', params: { deskId, host: 'PC-01', dataDir: copy } });
    expect(describeProblem(error)).toContain(`This desk's id ${deskId}`);
    expect(describeProblem(error)).toMatch(
      /used on the center by another computer \("PC-01", last started .*\): its desk\.json was copied/,
    );
    expect(describeProblem(error)).toContain(`delete desk.json from its data folder (${copy})`);
    expect(await row(deskId)).toEqual(before);
    // The original goes on starting.
    await start(original, 'PC-01');

    await rm(path.join(copy, DESK_FILE));
    const own = await start(copy, 'PC-02');
    expect(own).not.toBe(deskId);
    expect(await row(own)).toMatchObject({ host: 'PC-02' });
    await start(copy, 'PC-02');
  });

  it('the whole data folder copied (a disk image, nonce file and all): whichever starts first keeps the id, the other is refused at its next start', async () => {
    const original = newFolder();
    const deskId = await start(original, 'PC-01');
    const image = newFolder();
    await cp(original, image, { recursive: true });
    // The copy happens to start first: it moves the center on; the original, holding the nonce of the image, is refused.
    await start(image, 'PC-07');
    expect(await refusal(original, 'PC-01')).toMatchObject({
      code: 'desk_id_in_use',
      params: { deskId, host: 'PC-07' },
    });
    await start(image, 'PC-07');
  });

  it('two computers with one id starting at the same moment: one starts, the other is refused', async () => {
    const a = newFolder();
    const b = newFolder();
    await deskIdentity(a);
    await cp(path.join(a, DESK_FILE), path.join(b, DESK_FILE));
    const results = await Promise.all([refusal(a, 'PC-A'), refusal(b, 'PC-B')]);
    expect(results.filter((result) => result === 'started')).toHaveLength(1);
    expect(results.filter((result) => result instanceof DeskRegistryError)).toHaveLength(1);
  });

  it('a desk stopped between writing its next nonce and the center taking it (or just after) starts again', async () => {
    const dir = newFolder();
    const deskId = await start(dir, 'PC-01');
    const held = (await nonceFile(dir)).nonce;
    const pending = 'p'.repeat(32);
    // Stopped before the center's commit: the center still holds the file's nonce.
    await writeFile(
      path.join(dir, DESK_NONCE_FILE),
      JSON.stringify({ version: 1, deskId, nonce: held, next: pending }),
    );
    await start(dir, 'PC-01');
    // Stopped after it: the center holds the file's next one.
    const now = (await nonceFile(dir)).nonce;
    await writeFile(
      path.join(dir, DESK_NONCE_FILE),
      JSON.stringify({ version: 1, deskId, nonce: 'o'.repeat(32), next: now }),
    );
    await start(dir, 'PC-01');
    expect((await nonceFile(dir)).nonce).toBe((await row(deskId))?.nonce);
  });

  it('a registry row without a nonce (IT cleared it, as the owner) is adopted by the next desk to start with that id', async () => {
    const original = newFolder();
    const deskId = await start(original, 'PC-01');
    const restored = newFolder();
    await cp(path.join(original, DESK_FILE), path.join(restored, DESK_FILE));
    expect(await refusal(restored, 'PC-01')).toMatchObject({ code: 'desk_id_in_use' });
    await center.query(`UPDATE desks.desks SET nonce = NULL WHERE desk_id = $1`, [deskId]);
    expect(await start(restored, 'PC-01')).toBe(deskId);
    expect((await nonceFile(restored)).nonce).toBe((await row(deskId))?.nonce);
  });

  it('the app role reaches the registry only through its functions, and the auditor reads every column but the nonce', async () => {
    const lines = await center.query<{ grantee: string; privilege_type: string }>(
      `SELECT grantee, privilege_type FROM information_schema.role_table_grants WHERE table_schema = 'desks' AND table_name = 'desks' ORDER BY grantee, privilege_type`,
    );
    expect(lines.filter((line) => line.grantee === center.roles.app.name).map((line) => line.privilege_type)).toEqual(
      [],
    );
    const callable = await center.query<{ routine_name: string }>(
      `SELECT routine_name FROM information_schema.role_routine_grants WHERE routine_schema = 'desks' AND grantee = $1 AND privilege_type = 'EXECUTE' ORDER BY routine_name`,
      [center.roles.app.name],
    );
    expect(callable.map((row) => row.routine_name)).toEqual(['register_desk']);
    const anyone = await center.query<{ callable: boolean }>(
      `SELECT has_function_privilege('public', 'desks.register_desk(text, text[], text, text)', 'EXECUTE') AS callable`,
    );
    expect(anyone).toEqual([{ callable: false }]);
    const columns = await center.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.column_privileges WHERE table_schema = 'desks' AND table_name = 'desks' AND grantee = $1 AND privilege_type = 'SELECT' ORDER BY column_name`,
      [center.roles.auditor.name],
    );
    expect(columns.map((column) => column.column_name)).toEqual([
      'desk_id',
      'first_started_at',
      'host',
      'last_started_at',
    ]);
  });
});
