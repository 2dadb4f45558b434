/**
 * Versioned migrations per backend with Kysely's Migrator: one migration list per store and backend, recorded in the
 * store's own `kysely_migration` table (the file's, or the store's schema on the center). A SQLite file written before this
 * layer (its version in PRAGMA user_version) is adopted without running its old migrations again; after every run
 * user_version holds the number of migrations applied, so an older app still refuses a file it does not know.
 */
import type Database from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { StorageError } from './errors';
import type { Migrations, StoreDefinition, TablePrivilege } from './store';

export const MIGRATION_TABLE = 'kysely_migration';
export const MIGRATION_LOCK_TABLE = 'kysely_migration_lock';

const NOTHING: Migration = { up: () => Promise.resolve() };

/** The names in the order they run. */
export function migrationNames(migrations: Migrations): string[] {
  return Object.keys(migrations).sort();
}

function provider(migrations: Migrations): MigrationProvider {
  return { getMigrations: () => Promise.resolve({ ...migrations }) };
}

/** A failed run as the storage layer says it: which step, why; the step's transaction was rolled back. */
function migrationFailed(
  label: string,
  where: string,
  result: { error?: unknown; results?: readonly { migrationName: string; status: string }[] },
): StorageError {
  if (result.error instanceof StorageError) return result.error;
  const step = result.results?.find((r) => r.status === 'Error')?.migrationName;
  const reason = result.error instanceof Error ? result.error.message : 'unknown error';
  const error = new StorageError(
    'store_migration_failed',
    `The ${label} (${where}) could not be brought up to this version of the app${step === undefined ? '' : ` (step ${step})`}: ${reason}. ` +
      'Nothing of that step was written. Tell IT.',
  );
  error.cause = result.error;
  return error;
}

function newerThanApp(label: string, where: string, unknown: readonly string[]): StorageError {
  return new StorageError(
    'store_from_newer_app',
    `The ${label} (${where}) was written by a newer version of the app (it has migration ${unknown.join(', ')}, which this version does not know): update the app.`,
  );
}

/**
 * Brings an embedded file up to date; answers its version (the number of migrations applied). `raw` is the same
 * better-sqlite3 handle `db` runs on (for PRAGMA user_version).
 */
export async function migrateSqliteStore(
  db: Kysely<unknown>,
  raw: Database.Database,
  definition: StoreDefinition,
  file: string,
): Promise<number> {
  const { label } = definition;
  const migrations = definition.sqlite.migrations;
  const names = migrationNames(migrations);
  const userVersion = raw.pragma('user_version', { simple: true }) as number;
  const tracked =
    raw.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(MIGRATION_TABLE) !== undefined;

  let adopt = 0;
  if (tracked) {
    const executed = (raw.prepare(`SELECT name FROM ${MIGRATION_TABLE}`).all() as { name: string }[]).map(
      (row) => row.name,
    );
    const unknown = executed.filter((name) => !names.includes(name));
    if (unknown.length > 0) throw newerThanApp(label, file, unknown);
  } else if (userVersion > 0) {
    // Written before this layer: its first `userVersion` migrations are done; they are recorded, not run again.
    if (userVersion > names.length) throw newerThanApp(label, file, [`user_version ${userVersion}`]);
    const adoptable = definition.sqlite.adoptsUserVersion ?? 0;
    if (userVersion > adoptable) {
      throw new StorageError(
        'store_migration_failed',
        `The ${label} (${file}) is at schema ${userVersion} without this app's migration records, and this app can adopt files up to schema ${adoptable} only: it was not written by this app. Tell IT.`,
      );
    }
    adopt = userVersion;
  }

  const run = Object.fromEntries(
    names.map((name, index) => [name, index < adopt ? NOTHING : (migrations[name] ?? NOTHING)]),
  );
  const result = await new Migrator({ db, provider: provider(run) }).migrateToLatest();
  if (result.error !== undefined) throw migrationFailed(label, file, result);
  const applied = (raw.prepare(`SELECT count(*) AS n FROM ${MIGRATION_TABLE}`).get() as { n: number }).n;
  // What an app of the SqliteFile era compares with its own migration count: a file ahead of it is refused, not misread.
  raw.pragma(`user_version = ${applied}`);
  return applied;
}

/** The store's migrations on the center, each given a Kysely whose unqualified tables are in the store's schema. */
function inSchema(migrations: Migrations, schema: string): Migrations {
  return Object.fromEntries(
    Object.entries(migrations).map(([name, migration]) => [
      name,
      {
        up: (db: Kysely<unknown>) => migration.up(db.withSchema(schema)),
        ...(migration.down === undefined
          ? {}
          : {
              down: (db: Kysely<unknown>) => (migration.down as NonNullable<Migration['down']>)(db.withSchema(schema)),
            }),
      },
    ]),
  );
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * The migrations recorded in the store's schema on the center (empty when the schema or its table does not exist yet).
 * Read with the app's role too (it has SELECT on the table).
 */
export async function centerMigrationsDone(db: Kysely<unknown>, definition: StoreDefinition): Promise<string[]> {
  try {
    const rows = await sql<{
      name: string;
    }>`SELECT name FROM ${sql.table(`${definition.name}.${MIGRATION_TABLE}`)} ORDER BY name`.execute(db);
    return rows.rows.map((row) => row.name);
  } catch (error) {
    // 42P01 undefined_table, 3F000 invalid_schema_name: not migrated yet.
    const code = errorCode(error) ?? errorCode((error as { cause?: unknown } | undefined)?.cause);
    if (code === '42P01' || code === '3F000') return [];
    throw error;
  }
}

/** Where the center stands for one store, against this app's migrations. */
export interface CenterSchemaState {
  store: string;
  label: string;
  /** Migrations recorded on the center. */
  applied: number;
  /** This app's migrations for the store. */
  known: number;
  /** Names this app's list has and the center has not run (the center is behind: IT runs --migrate-center). */
  missing: string[];
  /** Names the center ran that this app does not know (a newer app migrated it; accepted: migrations only add). */
  newer: string[];
}

export async function centerSchemaState(db: Kysely<unknown>, definition: StoreDefinition): Promise<CenterSchemaState> {
  const done = await centerMigrationsDone(db, definition);
  const names = migrationNames(definition.postgres.migrations);
  return {
    store: definition.name,
    label: definition.label,
    applied: done.length,
    known: names.length,
    missing: names.filter((name) => !done.includes(name)),
    newer: done.filter((name) => !names.includes(name)),
  };
}

/** The center's roles as docs/center/setup.sql recorded them in center.roles. */
export interface CenterRoles {
  owner: string;
  app: string;
  auditor: string;
}

export async function readCenterRoles(db: Kysely<unknown>, where: string): Promise<CenterRoles> {
  let rows: { kind: string; role_name: string }[];
  try {
    rows = (await sql<{ kind: string; role_name: string }>`SELECT kind, role_name FROM center.roles`.execute(db)).rows;
  } catch (error) {
    const code = errorCode(error) ?? errorCode((error as { cause?: unknown } | undefined)?.cause);
    if (code !== '42P01' && code !== '3F000') throw error;
    rows = [];
  }
  const role = (kind: string): string | undefined => rows.find((row) => row.kind === kind)?.role_name;
  const owner = role('owner');
  const app = role('app');
  const auditor = role('auditor');
  if (owner === undefined || app === undefined || auditor === undefined) {
    throw new StorageError(
      'center_not_ready',
      `The center's database (${where}) has not been set up: center.roles is missing or incomplete. IT must run docs/center/setup.sql on it first (docs/IT.md).`,
    );
  }
  return { owner, app, auditor };
}

/** What --migrate-center did for one store. */
export interface CenterMigrationReport {
  store: string;
  label: string;
  from: number;
  to: number;
  /** The migrations this run applied, in order. */
  applied: string[];
  /** The tables whose grants to the app role were set, with what they now allow. */
  grants: Record<string, readonly TablePrivilege[]>;
  /** Per table of the schema, what the auditor role may read (SELECT only, never a secret column). */
  auditor: Record<string, AuditorColumns>;
}

/**
 * Brings one store's schema on the center up to this app's migrations and sets the app role's grants to exactly what the
 * store declares (plus reading its migration records), all in one transaction. Runs as the schema owner; the tables and
 * the schema belong to whoever runs it.
 */
export async function migrateCenterStore(
  db: Kysely<unknown>,
  definition: StoreDefinition,
  roles: CenterRoles,
  where: string,
): Promise<CenterMigrationReport> {
  const before = await centerSchemaState(db, definition);
  if (before.newer.length > 0) throw newerThanApp(definition.label, where, before.newer);
  const schema = definition.name;
  const result = await new Migrator({
    db,
    provider: provider(inSchema(definition.postgres.migrations, schema)),
    migrationTableSchema: schema,
  }).migrateToLatest();
  if (result.error !== undefined) throw migrationFailed(definition.label, where, result);
  const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);

  let auditorReads: Record<string, AuditorColumns> = {};
  await db.transaction().execute(async (trx) => {
    const app = sql.id(roles.app);
    await sql`GRANT USAGE ON SCHEMA ${sql.id(schema)} TO ${app}`.execute(trx);
    await sql`REVOKE ALL ON ${sql.table(`${schema}.${MIGRATION_TABLE}`)}, ${sql.table(`${schema}.${MIGRATION_LOCK_TABLE}`)} FROM ${app}`.execute(
      trx,
    );
    await sql`GRANT SELECT ON ${sql.table(`${schema}.${MIGRATION_TABLE}`)} TO ${app}`.execute(trx);
    const secrets = definition.postgres.secretColumns ?? {};
    const columnsOf = await centerTables(trx, schema);
    for (const [table, privileges] of Object.entries(definition.postgres.grants)) {
      const target = sql.table(`${schema}.${table}`);
      // Also takes away every column privilege granted before.
      await sql`REVOKE ALL ON ${target} FROM ${app}`.execute(trx);
      const hidden = secrets[table] ?? [];
      // A table with secret columns is read column by column, all but those: no desk reads a hash or a session's key.
      const tableWide = hidden.length === 0 ? privileges : privileges.filter((privilege) => privilege !== 'SELECT');
      // The privileges are the fixed words of TABLE_PRIVILEGES, never text from outside.
      if (tableWide.length > 0) await sql`GRANT ${sql.raw(tableWide.join(', '))} ON ${target} TO ${app}`.execute(trx);
      const readable = (columnsOf.get(table) ?? []).filter((column) => !hidden.includes(column));
      if (hidden.length > 0 && privileges.includes('SELECT') && readable.length > 0)
        await sql`GRANT SELECT (${sql.join(readable.map((column) => sql.id(column)))}) ON ${target} TO ${app}`.execute(
          trx,
        );
    }
    // No function that runs as the owner (SECURITY DEFINER) is callable by everyone or by the app role but those the
    // store lists, granted below: an EXECUTE granted by hand before is taken away. A function that runs as its caller
    // gives the caller nothing it could not do itself, and keeps what its store granted (reservations' search_text).
    const definers = await sql<{ target: string }>`
      SELECT format('%I.%I(%s)', n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)) AS target
        FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = ${schema} AND p.prosecdef`.execute(trx);
    for (const { target } of definers.rows)
      await sql`REVOKE ALL ON ROUTINE ${sql.raw(target)} FROM PUBLIC, ${app}`.execute(trx);
    for (const signature of definition.postgres.functions ?? []) {
      // The signature is checked by checkDefinition (a name and type names); the schema is the store's own name.
      const target = sql.raw(`${schema}.${signature}`);
      await sql`REVOKE ALL ON FUNCTION ${target} FROM PUBLIC`.execute(trx);
      await sql`GRANT EXECUTE ON FUNCTION ${target} TO ${app}`.execute(trx);
    }
    auditorReads = await grantAuditor(trx, definition, roles.auditor, where);
  });
  return {
    store: definition.name,
    label: definition.label,
    from: before.applied,
    to: before.applied + applied.length,
    applied,
    grants: { ...definition.postgres.grants },
    auditor: auditorReads,
  };
}

/** What the auditor may read of a table: all of it, or every column but its secret ones. */
export type AuditorColumns = 'all' | { hidden: readonly string[] };

/** The tables of a store's schema on the center (its own and its migration records), each with its columns. */
export async function centerTables(db: Kysely<unknown>, schema: string): Promise<Map<string, string[]>> {
  const rows = await sql<{ table: string; column: string }>`
    SELECT c.relname AS table, a.attname AS column
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p')
     ORDER BY c.relname, a.attnum`.execute(db);
  const tables = new Map<string, string[]>();
  for (const row of rows.rows) tables.set(row.table, [...(tables.get(row.table) ?? []), row.column]);
  return tables;
}

/**
 * The auditor reads every table of the store's schema and writes none; a table with secret columns (a password hash) is
 * granted column by column, all its columns but those, listed from the catalogue now (a table-level SELECT cannot be
 * narrowed by a column REVOKE, so it is revoked first). A secret column the table does not have is refused: a misspelt
 * name would leave the real column readable.
 */
async function grantAuditor(
  db: Kysely<unknown>,
  definition: StoreDefinition,
  auditorRole: string,
  where: string,
): Promise<Record<string, AuditorColumns>> {
  const schema = definition.name;
  const auditor = sql.id(auditorRole);
  const secrets = definition.postgres.secretColumns ?? {};
  const tables = await centerTables(db, schema);
  for (const [table, hidden] of Object.entries(secrets)) {
    const missing = hidden.filter((column) => !(tables.get(table) ?? []).includes(column));
    if (missing.length > 0) {
      throw new StorageError(
        'store_migration_failed',
        `The ${definition.label} (${where}) names secret columns that ${schema}.${table} does not have (${missing.join(', ')}): the auditor's grants were not changed. Tell the app's developers.`,
      );
    }
  }
  await sql`GRANT USAGE ON SCHEMA ${sql.id(schema)} TO ${auditor}`.execute(db);
  const reads: Record<string, AuditorColumns> = {};
  for (const [table, columns] of tables) {
    const target = sql.table(`${schema}.${table}`);
    const hidden = secrets[table] ?? [];
    // Also takes away every column privilege granted before.
    await sql`REVOKE ALL ON ${target} FROM ${auditor}`.execute(db);
    if (hidden.length === 0) {
      await sql`GRANT SELECT ON ${target} TO ${auditor}`.execute(db);
      reads[table] = 'all';
    } else {
      const readable = columns.filter((column) => !hidden.includes(column));
      if (readable.length > 0)
        await sql`GRANT SELECT (${sql.join(readable.map((column) => sql.id(column)))}) ON ${target} TO ${auditor}`.execute(
          db,
        );
      reads[table] = { hidden: [...hidden] };
    }
  }
  return reads;
}
