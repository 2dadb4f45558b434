// Vitest's globalSetup for the test PostgreSQL: one server for the whole run, started by the first test file that asks
// for it (testPostgres in test/support/pg.ts), so a run without such a file starts none; stopped and removed here at the
// end of the run, also when tests failed or a worker died. A run killed outright (SIGKILL, a closed terminal) cannot
// stop its server: the next run does, having found its folder with no live owner.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopPostgresAt } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the workers agree on the run's one server (test/support/pg.ts). */
    postgresRendezvous: string;
  }
}

export const SERVER_FILE = 'server.json';
const OWNER_FILE = 'owner.pid';
const PREFIX = 'cpd-pg-run-';

/** Stops the server a run started (if it started one) and removes the run's folder. */
async function tearDown(rendezvous: string): Promise<void> {
  try {
    const written = JSON.parse(await readFile(path.join(rendezvous, SERVER_FILE), 'utf8')) as { dir?: string };
    if (written.dir !== undefined) await stopPostgresAt(written.dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    await rm(rendezvous, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The servers of earlier runs that were killed before their teardown (their owner process is gone). */
async function sweepOrphans(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const rendezvous = path.join(tmpdir(), name);
    const owner = Number(await readFile(path.join(rendezvous, OWNER_FILE), 'utf8').catch(() => 'NaN'));
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) await tearDown(rendezvous).catch(() => undefined);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await sweepOrphans();
  const rendezvous = await mkdtemp(path.join(tmpdir(), PREFIX));
  await writeFile(path.join(rendezvous, OWNER_FILE), String(process.pid));
  project.provide('postgresRendezvous', rendezvous);
  return () => tearDown(rendezvous);
}
