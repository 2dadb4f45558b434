// --migrate-center against a real PostgreSQL: as the owner role it migrates and grants, then --check-center is ready;
// as the app role, or without the owner's credentials, it is refused in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CenterSettings, runCenterCheck, runCenterMigration } from '../../../main/center';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';
import { notesStore } from '../storage/support/notes-store';

let center: TestCenter;
let setting: CenterSettings;

beforeAll(async () => {
  center = await createCenter(await testPostgres());
  setting = CenterSettings.parse({
    host: center.server.host,
    port: center.server.port,
    database: center.database.name,
    user: center.roles.app.name,
    sslmode: 'require',
  });
}, 120_000);

afterAll(async () => {
  await center.drop();
});

describe('--migrate-center', () => {
  it('as the owner: each store migrated and granted, said store by store; then the desk check is ready; again: nothing to do', async () => {
    const before = await runCenterCheck({
      center: setting,
      managedPath: 'm.json',
      password: () => Promise.resolve(center.roles.app.password),
      stores: [notesStore],
    });
    expect(before.exitCode).toBe(1);
    const owner = {
      center: setting,
      managedPath: 'm.json',
      user: center.roles.owner.name,
      password: center.roles.owner.password,
      stores: [notesStore],
    };
    const result = await runCenterMigration(owner);
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(
      /notes_test: schema 0 → 2 \(0001_notes, 0002_pinned\); app role: notes SELECT, INSERT, UPDATE/,
    );
    const after = await runCenterCheck({
      center: setting,
      managedPath: 'm.json',
      password: () => Promise.resolve(center.roles.app.password),
      stores: [notesStore],
    });
    expect(after.exitCode).toBe(0);
    expect((await runCenterMigration(owner)).output).toMatch(/notes_test: already at schema 2/);
  });

  it('as the app role: refused, nothing created', async () => {
    const result = await runCenterMigration({
      center: setting,
      managedPath: 'm.json',
      user: center.roles.app.name,
      password: center.roles.app.password,
      stores: [{ ...notesStore, name: 'notes_by_app' }],
    });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/was not migrated: .*refused this desk a privilege/);
    expect(await center.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'notes_by_app'`)).toEqual([]);
  });

  it('without PGUSER and PGPASSWORD, or without a center setting: exit 2, saying what is needed', async () => {
    expect(
      await runCenterMigration({ center: setting, managedPath: 'm.json', user: undefined, password: undefined }),
    ).toMatchObject({
      exitCode: 2,
      output: expect.stringMatching(/set PGUSER to the owner role and PGPASSWORD/) as unknown,
    });
    expect(
      await runCenterMigration({ center: undefined, managedPath: 'm.json', user: 'o', password: 'p' }),
    ).toMatchObject({
      exitCode: 2,
      output: expect.stringMatching(/no center setting in m\.json/) as unknown,
    });
  });
});
