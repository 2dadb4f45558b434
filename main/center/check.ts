/**
 * `--check-center`: connects to the center as this desk does and reports, for IT, the server, TLS, the roles, each store's
 * schema version and the app role's grants, table by table (column-level ones too) and function by function (a function
 * of the owner the store does not list is a problem); exit code 0 only when all is as this version of the app needs.
 */
import { sql, type Kysely } from 'kysely';
import { AUDIT_STORE } from '../audit/trail';
import { DELIVERIES_STORE } from '../messaging/audit';
import { RESERVATIONS_STORE } from '../reservations/store';
import { UserError } from '../errors';
import { OPERATORS_STORE } from '../operators/store';
import { REFUND_REQUESTS_STORE } from '../refunds/requests';
import { describeCenter, type CenterSettings } from '../storage';
import { commandConnection } from './connect';
import { JOURNAL_STORE } from '../payments/journal';
import { DESKS_STORE } from './registry';
import {
  StorageError,
  TABLE_PRIVILEGES,
  centerKysely,
  centerPool,
  centerSchemaState,
  readCenterRoles,
  type CenterConnectionOptions,
  type StoreDefinition,
} from '../storage';

export const CHECK_CENTER_FLAG = '--check-center';

/** What the app role never has on a store's table, whatever the store grants (emptying it, triggers, foreign keys). */
const NEVER_GRANTED = ['TRUNCATE', 'TRIGGER', 'REFERENCES'] as const;

/** A warning is said and does not fail the check: what IT should change, while the desk works meanwhile. */
export type CheckStatus = 'ok' | 'warning' | 'problem';

export interface CenterCheckLine {
  status: CheckStatus;
  /** What was checked: "connection", "tls", "roles", "store journal", "grants journal.operations". */
  check: string;
  /** In words, for IT. */
  detail: string;
}

export interface CenterCheckReport {
  target: string;
  ok: boolean;
  lines: CenterCheckLine[];
  /** The StorageError code that stopped the check (center_unavailable…), when one did. */
  errorCode?: string;
}

/** Connects with `options` (the app role, as a desk) and checks everything; never throws for the center's state. */
export async function checkCenter(
  options: CenterConnectionOptions,
  stores: readonly StoreDefinition[],
): Promise<CenterCheckReport> {
  const target = `${options.host}:${options.port}/${options.database}`;
  const lines: CenterCheckLine[] = [];
  const ok = (check: string, detail: string): void => void lines.push({ status: 'ok', check, detail });
  const problem = (check: string, detail: string): void => void lines.push({ status: 'problem', check, detail });
  const warning = (check: string, detail: string): void => void lines.push({ status: 'warning', check, detail });
  const pool = centerPool({ ...options, maxConnections: 1 });
  const db = centerKysely(pool, {
    host: options.host,
    port: options.port,
    database: options.database,
    user: options.user,
  });
  try {
    const server = await sql<{ version: string; user: string; ssl: boolean | null; superuser: boolean }>`
      SELECT current_setting('server_version') AS version, session_user AS user,
             (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl,
             (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) AS superuser`.execute(db);
    const row = server.rows[0];
    if (row === undefined) throw new Error('the server answered no row');
    ok('connection', `signed in to PostgreSQL ${row.version} at ${target} as "${row.user}"`);
    if (row.ssl === true) ok('tls', `encrypted (sslmode ${options.tls.mode})`);
    else if (options.tls.mode === 'disable')
      problem(
        'tls',
        'not encrypted (sslmode "disable"): passwords and card-payment records cross the network in clear; use "verify-full" outside a lab',
      );
    else problem('tls', 'not encrypted although the setting asks for TLS');

    const roles = await readCenterRoles(db, target);
    ok('roles', `owner "${roles.owner}", app "${roles.app}", auditor "${roles.auditor}" (center.roles)`);
    const member = await sql<{ member: boolean; shared_login: boolean }>`
      SELECT pg_has_role(session_user, ${roles.app}, 'MEMBER') AS member,
             (SELECT rolcanlogin FROM pg_roles WHERE rolname = ${roles.app}) AS shared_login`.execute(db);
    if (row.user === roles.app) {
      warning(
        'user',
        `this desk signs in as the shared app role "${roles.app}": every desk on it holds one credential, and whoever has it can act as any desk. IT gives each desk its own login role (docs/center/add-desk.sql), then makes "${roles.app}" NOLOGIN`,
      );
    } else if (member.rows[0]?.member === true) {
      ok('user', `this desk signs in as its own login role "${row.user}", a member of the app role "${roles.app}"`);
      const binding = await sql<{ desk: string | null }>`SELECT center.current_desk() AS desk`.execute(db).then(
        (result) => result.rows[0]?.desk ?? null,
        () => undefined,
      );
      if (binding === undefined)
        problem('desk', 'the center cannot tell desks apart yet: IT must run --migrate-center with this version');
      else if (binding === null)
        ok('desk', `"${row.user}" is bound to no desk yet: the first desk to start with it takes it`);
      else ok('desk', `"${row.user}" is the login of desk ${binding}`);
      if (member.rows[0].shared_login)
        warning(
          'shared credential',
          `the shared app role "${roles.app}" can still sign in: once every desk has its own login role, IT makes it NOLOGIN (docs/it/center-database.md)`,
        );
    } else {
      problem(
        'user',
        `this desk signs in as "${row.user}", which is not a member of the app role "${roles.app}": the center setting's user must be this desk's own login role (docs/center/add-desk.sql); the owner and superusers can change the audit trail`,
      );
    }
    if (row.superuser)
      problem(
        'user',
        `"${row.user}" is a superuser: a desk must sign in as the app role, which can change nothing but rows`,
      );

    if (stores.length === 0) ok('stores', 'this version of the app keeps no store on the center yet');
    for (const store of stores) {
      const state = await centerSchemaState(db, store);
      if (state.missing.length > 0) {
        problem(
          `store ${store.name}`,
          `the ${store.label} is at schema ${state.applied}, this app needs ${state.known}: IT must run --migrate-center`,
        );
        continue;
      }
      ok(
        `store ${store.name}`,
        `the ${store.label} is at schema ${state.applied}${state.newer.length > 0 ? ' (migrated by a newer app)' : ''}`,
      );
      for (const [table, wanted] of Object.entries(store.postgres.grants)) {
        const target = `${store.name}.${table}`;
        // A privilege granted on some columns only (GRANT UPDATE (role) …) is that privilege all the same.
        const granted = await sql<Record<string, boolean>>`
          SELECT ${sql.join(
            TABLE_PRIVILEGES.map(
              (privilege) => sql`has_table_privilege(${target}, ${privilege}) AS ${sql.id(privilege)}`,
            ),
          )},
                 has_any_column_privilege(${target}, 'SELECT') AS "columns SELECT",
                 has_any_column_privilege(${target}, 'INSERT') AS "columns INSERT",
                 has_any_column_privilege(${target}, 'UPDATE') AS "columns UPDATE",
                 ${sql.join(
                   NEVER_GRANTED.map(
                     (privilege) =>
                       sql`${privilege === 'REFERENCES' ? sql`has_any_column_privilege` : sql`has_table_privilege`}(${target}, ${privilege}) AS ${sql.id(privilege)}`,
                   ),
                 )}`.execute(db);
        const privileges = granted.rows[0] ?? {};
        const hidden = store.postgres.secretColumns?.[table] ?? [];
        // A table with secret columns is read column by column: SELECT on every other column, none on those.
        const columns =
          hidden.length === 0
            ? undefined
            : await sql<{ column: string; readable: boolean }>`
                SELECT a.attname AS column, has_column_privilege(${target}, a.attnum, 'SELECT') AS readable
                  FROM pg_catalog.pg_attribute a
                 WHERE a.attrelid = ${target}::regclass AND a.attnum > 0 AND NOT a.attisdropped`.execute(db);
        const secretRead = (columns?.rows ?? []).filter((row) => hidden.includes(row.column) && row.readable);
        const columnRead =
          columns === undefined
            ? privileges['columns SELECT'] === true
            : columns.rows.some((row) => !hidden.includes(row.column) && row.readable);
        const has = TABLE_PRIVILEGES.filter(
          (privilege) =>
            privileges[privilege] === true ||
            (privilege === 'SELECT' && columnRead && secretRead.length === 0) ||
            ((privilege === 'INSERT' || privilege === 'UPDATE') && privileges[`columns ${privilege}`] === true),
        );
        const lacking = wanted.filter((privilege) => !has.includes(privilege));
        const extra = [
          ...has
            .filter((privilege) => !wanted.includes(privilege))
            .map((privilege) =>
              privileges[privilege] === true || privilege === 'SELECT' ? privilege : `${privilege} (of some columns)`,
            ),
          ...NEVER_GRANTED.filter((privilege) => privileges[privilege] === true),
        ];
        const check = `grants ${target}`;
        if (lacking.length === 0 && extra.length === 0 && secretRead.length === 0)
          ok(
            check,
            has.length === 0 ? 'none' : `${has.join(', ')}${hidden.length > 0 ? `; not ${hidden.join(', ')}` : ''}`,
          );
        else {
          const parts = [
            ...(lacking.length > 0 ? [`lacks ${lacking.join(', ')}`] : []),
            ...(extra.length > 0 ? [`may also ${extra.join(', ')}, which it must not`] : []),
            ...(secretRead.length > 0
              ? [`reads ${secretRead.map((row) => `${target}.${row.column}`).join(', ')}, a secret`]
              : []),
          ];
          problem(check, `${parts.join('; ')}: IT must run --migrate-center, which sets the app role's grants`);
        }
      }
      const declared = store.postgres.functions ?? [];
      for (const signature of declared) {
        const callable = await sql<{ callable: boolean }>`
          SELECT has_function_privilege(${`${store.name}.${signature}`}, 'EXECUTE') AS callable`.execute(db);
        if (callable.rows[0]?.callable === true) ok(`function ${store.name}.${signature}`, 'callable');
        else
          problem(
            `function ${store.name}.${signature}`,
            'not callable by this desk: IT must run --migrate-center, which grants it to the app role',
          );
      }
      // Every other function of the schema that runs as its owner (SECURITY DEFINER) and this desk may call: the door's
      // inner workings (issuing a ticket, reading the center's secret…), which no desk's login calls directly.
      const others = await sql<{ signature: string }>`
        SELECT format('%s(%s)', p.proname, pg_catalog.oidvectortypes(p.proargtypes)) AS signature
          FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = ${store.name} AND p.prosecdef AND has_function_privilege(p.oid, 'EXECUTE')
           AND p.oid NOT IN (SELECT pg_catalog.to_regprocedure(d)::oid FROM unnest(${declared.map((signature) => `${store.name}.${signature}`)}::text[]) d
                              WHERE pg_catalog.to_regprocedure(d) IS NOT NULL)
         ORDER BY 1`.execute(db);
      if (others.rows.length === 0)
        ok(
          `functions ${store.name}`,
          declared.length === 0 ? "none of the owner's callable" : "none of the owner's callable but those listed",
        );
      else
        problem(
          `functions ${store.name}`,
          `may also call ${others.rows.map((row) => `${store.name}.${row.signature}`).join(', ')}, which run as the schema's owner and are not a desk's to call: IT must run --migrate-center, which takes them away`,
        );
      const auditor = await auditorFindings(db, store, roles.auditor);
      if (auditor.problems.length === 0) ok(`auditor ${store.name}`, auditor.reads);
      else
        problem(
          `auditor ${store.name}`,
          `${auditor.problems.join('; ')}: IT must run --migrate-center, which sets the auditor's grants`,
        );
    }
    return { target, ok: lines.every((line) => line.status !== 'problem'), lines };
  } catch (error) {
    const said =
      error instanceof UserError
        ? error.message
        : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    problem('connection', said);
    return { target, ok: false, lines, ...(error instanceof StorageError ? { errorCode: error.code } : {}) };
  } finally {
    await db.destroy();
    await pool.end();
  }
}

/**
 * What the auditor role may do on a store's tables, against what it must: read every table, write none, and never read a
 * secret column (StoreDefinition.postgres.secretColumns) — which a table-level SELECT would allow.
 */
async function auditorFindings(
  db: Kysely<unknown>,
  store: StoreDefinition,
  auditor: string,
): Promise<{ reads: string; problems: string[] }> {
  const rows = await sql<{ table: string; column: string; table_select: boolean; writes: boolean; readable: boolean }>`
    SELECT c.relname AS table, a.attname AS column,
           has_table_privilege(${auditor}, c.oid, 'SELECT') AS table_select,
           has_table_privilege(${auditor}, c.oid, 'DELETE, TRUNCATE, TRIGGER')
             OR has_any_column_privilege(${auditor}, c.oid, 'INSERT, UPDATE, REFERENCES') AS writes,
           has_column_privilege(${auditor}, c.oid, a.attnum, 'SELECT') AS readable
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = ${store.name} AND c.relkind IN ('r', 'p')
     ORDER BY c.relname, a.attnum`.execute(db);
  const secrets = store.postgres.secretColumns ?? {};
  const problems: string[] = [];
  const tables = [...new Set(rows.rows.map((row) => row.table))];
  for (const table of tables) {
    const columns = rows.rows.filter((row) => row.table === table);
    const hidden = secrets[table] ?? [];
    if (columns.some((row) => row.writes)) problems.push(`may write to ${store.name}.${table}, which it must not`);
    const secretRead = columns.filter((row) => hidden.includes(row.column) && row.readable).map((row) => row.column);
    if (secretRead.length > 0) {
      const how = columns[0]?.table_select === true ? ' (it has SELECT on the whole table)' : '';
      problems.push(
        `reads ${secretRead.map((column) => `${store.name}.${table}.${column}`).join(', ')}, a secret${how}`,
      );
    }
    const unread = columns.filter((row) => !hidden.includes(row.column) && !row.readable).map((row) => row.column);
    if (unread.length > 0)
      problems.push(`cannot read ${unread.map((column) => `${store.name}.${table}.${column}`).join(', ')}`);
  }
  const withSecrets = Object.entries(secrets).flatMap(([table, columns]) =>
    columns.map((column) => `${table}.${column}`),
  );
  const reads =
    tables.length === 0
      ? 'no tables'
      : withSecrets.length === 0
        ? 'reads every table, writes none'
        : `reads every table, writes none; not ${withSecrets.join(', ')}`;
  return { reads, problems };
}

const LABELS: Record<CheckStatus, string> = { ok: 'ok     ', warning: 'WARNING', problem: 'PROBLEM' };

/** The report as IT reads it: one line per check, then the verdict. */
export function formatCenterCheck(report: CenterCheckReport): string {
  const width = Math.max(...report.lines.map((line) => line.check.length), 0);
  const body = report.lines.map((line) => `${LABELS[line.status]}  ${line.check.padEnd(width)}  ${line.detail}`);
  const verdict = report.ok
    ? `The center at ${report.target} is ready for this desk.`
    : `The center at ${report.target} is NOT ready for this desk: see the PROBLEM lines.`;
  return `${[...body, verdict].join('\n')}\n`;
}

/** The stores this version of the app keeps on the center: --migrate-center migrates them, --check-center checks them. */
export const CENTER_STORES: readonly StoreDefinition[] = [
  DESKS_STORE,
  JOURNAL_STORE,
  OPERATORS_STORE,
  REFUND_REQUESTS_STORE,
  AUDIT_STORE,
  DELIVERIES_STORE,
  RESERVATIONS_STORE,
];

export interface RunCenterCheckOptions {
  /** The effective `center` setting; undefined: this desk has none (it keeps its records in its own files). */
  center: CenterSettings | undefined;
  /** Where it came from, for the sentence when it is missing. */
  managedPath: string;
  password: () => Promise<string | undefined>;
  stores?: readonly StoreDefinition[];
}

/** What --check-center prints and its exit code: 0 ready, 1 a problem, 2 no center setting. */
export async function runCenterCheck(options: RunCenterCheckOptions): Promise<{ output: string; exitCode: number }> {
  if (options.center === undefined) {
    return {
      output: `This desk has no center setting: it keeps its records in its own files. IT sets "center" in ${options.managedPath} (docs/IT.md).\n`,
      exitCode: 2,
    };
  }
  const connection = await commandConnection(options.center, options.password, CHECK_CENTER_FLAG);
  if (connection instanceof UserError) {
    return {
      output: formatCenterCheck({
        target: describeCenter(options.center),
        ok: false,
        lines: [{ status: 'problem', check: 'tls', detail: connection.message }],
      }),
      exitCode: 1,
    };
  }
  const report = await checkCenter(connection, options.stores ?? CENTER_STORES);
  return { output: formatCenterCheck(report), exitCode: report.ok ? 0 : 1 };
}
