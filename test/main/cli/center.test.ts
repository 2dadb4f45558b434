// `npm run center:check` as IT runs it from a shell: the managed file's center setting, PGPASSWORD, a real PostgreSQL.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CENTER_STORES } from '../../../main/center';
import { createCenter, type TestCenter } from '../../support/center';
import { testPostgres } from '../../support/pg';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let center: TestCenter;
let folder: string;

beforeAll(async () => {
  // Migrated as IT would before a desk checks it: every store this app keeps on the center.
  center = await createCenter(await testPostgres(), { stores: CENTER_STORES });
  folder = await mkdtemp(path.join(tmpdir(), 'cpd-center-cli-'));
}, 120_000);

afterAll(async () => {
  await center.drop();
  await rm(folder, { recursive: true, force: true });
});

async function check(
  managed: unknown,
  password: string | undefined,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = path.join(folder, `managed-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(managed));
  const env = { ...process.env, PGPASSWORD: password ?? '' };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'main/cli/center.ts', `--managed=${file}`],
      { cwd: ROOT, env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run center:check', () => {
  it('ready: prints each check and exits 0', async () => {
    const setting = {
      host: center.server.host,
      port: center.server.port,
      database: center.database.name,
      user: center.roles.app.name,
      sslmode: 'verify-full',
      sslrootcert: path.join(folder, 'ca.pem'),
    };
    await writeFile(setting.sslrootcert, center.server.caCertificatePem);
    const result = await check({ settings: { center: setting } }, center.roles.app.password);
    expect(result.stdout).toMatch(/ok {5} {2}connection/);
    expect(result.stdout).toMatch(/encrypted \(sslmode verify-full\)/);
    expect(result.stdout).toMatch(/is ready for this desk/);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(center.roles.app.password);
  }, 60_000);

  it('a wrong password: exits 1, the sign-in refused in words', async () => {
    const setting = {
      host: center.server.host,
      port: center.server.port,
      database: center.database.name,
      user: center.roles.app.name,
      sslmode: 'require',
    };
    const result = await check({ settings: { center: setting } }, 'wrong-password');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/PROBLEM {2}connection {2}The center's database .* refused this desk's sign-in/);
    expect(result.stdout).not.toContain('wrong-password');
  }, 60_000);

  it('no center setting: exits 2', async () => {
    const result = await check({ settings: {} }, undefined);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/no center setting/);
  }, 60_000);
});
