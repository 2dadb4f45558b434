/**
 * `npm run center:check` and `npm run center:migrate`: --check-center and --migrate-center from a shell without the app
 * (IT's workstation, CI, a developer): the center setting from the managed file (or --managed=<file>); the password from
 * PGPASSWORD as psql takes it (the app role's to check, the owner role's, with PGUSER, to migrate).
 */
import { readManagedSettings } from '../settings/load';
import { managedSettingsPath } from '../settings/paths';
import { runCenterCheck } from './check';
import { MIGRATE_CENTER_FLAG, runCenterMigration } from './migrate';

const flag = process.argv.find((arg) => arg.startsWith('--managed='));
const managedPath = flag === undefined ? managedSettingsPath(process.platform, process.env) : flag.slice('--managed='.length);
try {
  const managed = await readManagedSettings(managedPath);
  const center = managed?.settings.center;
  const password = process.env['PGPASSWORD'];
  const { output, exitCode } = process.argv.includes(MIGRATE_CENTER_FLAG)
    ? await runCenterMigration({ center, managedPath, user: process.env['PGUSER'], password })
    : await runCenterCheck({ center, managedPath, password: () => Promise.resolve(password === '' ? undefined : password) });
  process.stdout.write(output);
  process.exitCode = exitCode;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
