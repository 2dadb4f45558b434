// The test PostgreSQL as a test file gets it: `const server = await testPostgres()` in beforeAll. The first file of the
// run that asks starts it (Debian's server, as the postgres user when root); the others wait for it and share it; Vitest's
// globalSetup (postgres.global.ts) stops it after the run. No PostgreSQL installed: the asking tests fail, saying so.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { SERVER_FILE } from './postgres.global';
import { startPostgres, type PostgresInfo } from './postgres';

/** How long a file waits for the server another file is starting (initdb on a busy machine). */
const START_WAIT_MS = 120_000;

type Written = { info: PostgresInfo; dir: string } | { error: string };

let server: Promise<PostgresInfo> | undefined;

async function read(file: string): Promise<Written | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Written;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function answer(written: Written): PostgresInfo {
  if ('error' in written) throw new Error(`The test PostgreSQL could not be started: ${written.error}`);
  return written.info;
}

async function startOrJoin(): Promise<PostgresInfo> {
  const rendezvous = inject('postgresRendezvous');
  if (rendezvous === undefined)
    throw new Error('No test PostgreSQL: vitest.config.ts must list test/support/postgres.global.ts in globalSetup.');
  const file = path.join(rendezvous, SERVER_FILE);
  let starter = true;
  try {
    await mkdir(path.join(rendezvous, 'starting'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    starter = false;
  }
  if (starter) {
    let written: Written;
    try {
      const started = await startPostgres({ stopOnProcessExit: false });
      const { dir, host, port, user, password, url, version, bin, caCertificatePem } = started;
      written = { info: { host, port, user, password, url, version, bin, caCertificatePem }, dir };
    } catch (error) {
      written = { error: error instanceof Error ? error.message : String(error) };
    }
    await writeFile(`${file}.tmp`, JSON.stringify(written), { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    return answer(written);
  }
  const deadline = Date.now() + START_WAIT_MS;
  for (;;) {
    const written = await read(file);
    if (written !== undefined) return answer(written);
    if (Date.now() > deadline)
      throw new Error(`The test PostgreSQL another test file is starting was not up after ${START_WAIT_MS / 1000} s.`);
    await sleep(100);
  }
}

/** The run's PostgreSQL server (its superuser's details): started on first use, shared by every file of the run. */
export function testPostgres(): Promise<PostgresInfo> {
  return (server ??= startOrJoin());
}
