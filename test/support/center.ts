// A center for a test: a fresh database on the test PostgreSQL, set up by the repository's own docs/center/setup.sql with
// roles of its own (owner, app, auditor, with passwords), and the given stores migrated by the owner as IT would with
// --migrate-center. Desks then connect as the app role: a store that forgot a grant fails its tests here.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrateCenter, type CenterConnectionOptions, type StoreDefinition } from '../../main/storage';
import { createDatabase, type PostgresInfo, type TestDatabase } from './postgres';

const run = promisify(execFile);

export const SETUP_SQL = fileURLToPath(new URL('../../docs/center/setup.sql', import.meta.url));
export const ADD_DESK_SQL = fileURLToPath(new URL('../../docs/center/add-desk.sql', import.meta.url));

export interface CenterRole {
  name: string;
  password: string;
}

export interface TestCenter {
  server: PostgresInfo;
  database: TestDatabase;
  roles: { owner: CenterRole; app: CenterRole; auditor: CenterRole };
  /** How a desk connects: as the app role, TLS off unless asked. */
  app: CenterConnectionOptions;
  /** How --migrate-center connects: as the owner role. */
  owner: CenterConnectionOptions;
  /**
   * A desk's own credential, made by docs/center/add-desk.sql as IT does (bound to `deskId` at once when given): how
   * that desk connects. Dropped with the center.
   */
  addDesk(options?: { deskId?: string }): Promise<CenterConnectionOptions & { role: CenterRole }>;
  /** As the superuser, in this database: for arranging what a test needs (revoking a grant…). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

export interface CenterOptions {
  /** Migrated by the owner at once (default none). */
  stores?: readonly StoreDefinition[];
  /** Run docs/center/setup.sql (default true); false leaves an empty database. */
  setUp?: boolean;
}

function psqlPath(server: PostgresInfo): string {
  const beside = path.join(server.bin, 'psql');
  return existsSync(beside) ? beside : 'psql';
}

/** Runs one of docs/center/*.sql with psql in `database`, as IT does, with its variables. */
export async function runPsqlFile(
  server: PostgresInfo,
  database: string,
  file: string,
  variables: Record<string, string>,
): Promise<string> {
  const url = server.url.replace(/\/postgres$/, `/${database}`);
  try {
    const { stdout } = await run(psqlPath(server), [
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      ...Object.entries(variables).flatMap(([name, value]) => ['-v', `${name}=${value}`]),
      '-d',
      url,
      '-f',
      file,
    ]);
    return stdout;
  } catch (error) {
    throw new Error(
      `${path.basename(file)} failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`,
      { cause: error },
    );
  }
}

/** Runs docs/center/setup.sql with psql, as IT does, naming the roles. */
export function runSetupSql(
  server: PostgresInfo,
  database: string,
  roles: { owner: string; app: string; auditor: string },
): Promise<string> {
  return runPsqlFile(server, database, SETUP_SQL, {
    owner_role: roles.owner,
    app_role: roles.app,
    auditor_role: roles.auditor,
  });
}

export async function createCenter(server: PostgresInfo, options: CenterOptions = {}): Promise<TestCenter> {
  const database = await createDatabase(server, 'c');
  const role = (kind: string): CenterRole => ({
    name: `${database.name}_${kind}`,
    password: randomBytes(12).toString('base64url'),
  });
  const roles = { owner: role('owner'), app: role('app'), auditor: role('auditor') };
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const connection = (who: CenterRole): CenterConnectionOptions => ({
    host: server.host,
    port: server.port,
    database: database.name,
    user: who.name,
    password: () => Promise.resolve(who.password),
    tls: { mode: 'disable' },
  });
  if (options.setUp ?? true) {
    await runSetupSql(server, database.name, {
      owner: roles.owner.name,
      app: roles.app.name,
      auditor: roles.auditor.name,
    });
    for (const { name, password } of [roles.owner, roles.app]) {
      await query(`ALTER ROLE ${pg.escapeIdentifier(name)} PASSWORD ${pg.escapeLiteral(password)}`);
    }
  }
  if (options.stores !== undefined && options.stores.length > 0)
    await migrateCenter(connection(roles.owner), options.stores);
  const desks: CenterRole[] = [];
  const addDesk = async (desk: { deskId?: string } = {}): Promise<CenterConnectionOptions & { role: CenterRole }> => {
    const added = role(`d${desks.length + 1}`);
    desks.push(added);
    await runPsqlFile(server, database.name, ADD_DESK_SQL, {
      desk_role: added.name,
      ...(desk.deskId === undefined ? {} : { desk_id: desk.deskId }),
    });
    await query(`ALTER ROLE ${pg.escapeIdentifier(added.name)} PASSWORD ${pg.escapeLiteral(added.password)}`);
    return { ...connection(added), role: added };
  };
  return {
    server,
    database,
    roles,
    app: connection(roles.app),
    owner: connection(roles.owner),
    addDesk,
    query,
    drop: async () => {
      await database.drop();
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      try {
        for (const { name } of [...desks, roles.owner, roles.app, roles.auditor])
          await admin.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(name)}`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** A connection as an attacker makes it: `pg` and a desk's password, nothing of the app. The caller ends it. */
export async function connectAs(credential: CenterConnectionOptions): Promise<pg.Client> {
  const client = new pg.Client({
    host: credential.host,
    port: credential.port,
    database: credential.database,
    user: credential.user,
    password: await credential.password(),
  });
  await client.connect();
  return client;
}

/** What a statement answered: 'allowed', or the SQLSTATE (or message) that refused it. */
export const refused = (run: Promise<unknown>): Promise<string> =>
  run.then(
    () => 'allowed',
    (error: unknown) => (error as { code?: string }).code ?? String(error),
  );
