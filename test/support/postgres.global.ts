// Vitest's globalSetup for the test PostgreSQL: one server for the whole run, started by the first test file that asks
// for it (testPostgres in test/support/pg.ts), so a run without such a file starts none; stopped and removed here at the
// end of the run, also when tests failed or a worker died.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const rendezvous = await mkdtemp(path.join(tmpdir(), 'cpd-pg-run-'));
  project.provide('postgresRendezvous', rendezvous);
  return async () => {
    try {
      const written = JSON.parse(await readFile(path.join(rendezvous, SERVER_FILE), 'utf8')) as { dir?: string };
      if (written.dir !== undefined) await stopPostgresAt(written.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    } finally {
      await rm(rendezvous, { recursive: true, force: true });
    }
  };
}
