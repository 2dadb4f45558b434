/**
 * `npm run center:check`, `npm run center:migrate` and `npm run center:move-in -- <data folder>`: --check-center,
 * --migrate-center and --move-in from a shell without the app (IT's workstation, CI, a developer): the center setting from
 * the managed file (or --managed=<file>); the password from PGPASSWORD as psql takes it (the app role's to check and to
 * move a desk in, the owner role's, with PGUSER, to migrate).
 */
import { readManagedSettings } from '../settings/load';
import { managedSettingsPath } from '../settings/paths';
import { MIGRATE_CENTER_FLAG, MOVE_IN_FLAG, runCenterCheck, runCenterMigration, runMoveIn } from '../center';

const flag = process.argv.find((arg) => arg.startsWith('--managed='));
const managedPath =
  flag === undefined ? managedSettingsPath(process.platform, process.env) : flag.slice('--managed='.length);
try {
  const managed = await readManagedSettings(managedPath);
  const center = managed?.settings.center;
  const password = process.env['PGPASSWORD'];
  const moveIn = process.argv.indexOf(MOVE_IN_FLAG);
  const { output, exitCode } = process.argv.includes(MIGRATE_CENTER_FLAG)
    ? await runCenterMigration({ center, managedPath, user: process.env['PGUSER'], password })
    : moveIn >= 0
      ? await runMoveIn({
          center,
          managedPath,
          dataDir: process.argv[moveIn + 1],
          password: () => Promise.resolve(password === '' ? undefined : password),
        })
      : await runCenterCheck({
          center,
          managedPath,
          password: () => Promise.resolve(password === '' ? undefined : password),
        });
  process.stdout.write(output);
  process.exitCode = exitCode;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
