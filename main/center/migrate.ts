/**
 * `--migrate-center`: run by IT as the schema owner (never by a desk), when a new version of the app needs it: each store's
 * schema on the center brought up to this app's migrations, and the app role granted exactly what each store declares.
 */
import { UserError } from '../errors';
import { migrateCenter, type AuditorColumns, type StoreDefinition } from '../storage';
import { CENTER_STORES } from './check';
import { centerConnection, describeCenter, type CenterSettings } from '../storage';

export const MIGRATE_CENTER_FLAG = '--migrate-center';

export interface RunCenterMigrationOptions {
  center: CenterSettings | undefined;
  managedPath: string;
  /** The owner role (docs/center/setup.sql's owner_role) and its password: PGUSER and PGPASSWORD, as psql takes them. */
  user: string | undefined;
  password: string | undefined;
  stores?: readonly StoreDefinition[];
}

/** "reads every table", or which secret columns it does not. */
function auditorReads(tables: Readonly<Record<string, AuditorColumns>>): string {
  const hidden = Object.entries(tables).flatMap(([table, reads]) =>
    reads === 'all' ? [] : reads.hidden.map((column) => `${table}.${column}`),
  );
  return hidden.length === 0 ? 'reads every table' : `reads every table but ${hidden.join(', ')}`;
}

/** What --migrate-center prints and its exit code: 0 done, 1 refused or failed, 2 not asked right. */
export async function runCenterMigration(
  options: RunCenterMigrationOptions,
): Promise<{ output: string; exitCode: number }> {
  if (options.center === undefined) {
    return {
      output: `There is no center setting in ${options.managedPath}: IT sets "center" there first (docs/IT.md).\n`,
      exitCode: 2,
    };
  }
  if (options.user === undefined || options.user === '' || options.password === undefined || options.password === '') {
    return {
      output:
        "--migrate-center signs in as the owner role of docs/center/setup.sql, not as the desks' app role: set PGUSER to the owner role and PGPASSWORD to its password.\n",
      exitCode: 2,
    };
  }
  const password = options.password;
  const target = describeCenter(options.center);
  try {
    const connection = await centerConnection(
      { ...options.center, user: options.user },
      {
        password: () => Promise.resolve(password),
        applicationName: 'card-payments-desk --migrate-center',
      },
    );
    const stores = options.stores ?? CENTER_STORES;
    const reports = await migrateCenter(connection, stores);
    const lines = reports.map(
      (report) =>
        `${report.store}: ${report.applied.length === 0 ? `already at schema ${report.to}` : `schema ${report.from} → ${report.to} (${report.applied.join(', ')})`}; ` +
        `app role: ${
          Object.entries(report.grants)
            .map(([table, privileges]) => `${table} ${privileges.length === 0 ? 'none' : privileges.join(', ')}`)
            .join('; ') || 'no tables'
        }; ` +
        `auditor: ${auditorReads(report.auditor)}`,
    );
    if (stores.length === 0)
      lines.push('This version of the app keeps no store on the center yet: nothing to migrate.');
    return {
      output: `${[...lines, `The center at ${target} is up to date for this version of the app.`].join('\n')}\n`,
      exitCode: 0,
    };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { output: `The center at ${target} was not migrated: ${error.message}\n`, exitCode: 1 };
  }
}
