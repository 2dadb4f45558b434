/**
 * `npm run audit:verify -- <audit.db>`: walks every desk's chain in the file, checks this desk's end against
 * audit-head.json, prints one line; exit 1 at the first broken link.
 * `npm run audit:verify -- --center [--managed=<file>]`: the same for the center's trail, signed in as PGUSER with
 * PGPASSWORD (a person granted the auditor role), at the managed file's center setting.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DESK_FILE } from '../center';
import { UserError } from '../errors';
import { AUDIT_STORE, AuditTrail, verifyCenterAudit, type Verification } from '../audit';
import { readManagedSettings } from '../settings/load';
import { managedSettingsPath } from '../settings/paths';
import { centerConnection, describeCenter, embeddedStorage } from '../storage';

function report(result: Verification): void {
  if (result.ok) {
    console.log(`audit-verify ok rows=${result.rows} desks=${result.desks}`);
  } else {
    console.log(
      `audit-verify broken desk=${result.deskId || '-'} seq=${result.seq} rows_checked=${result.rows} reason="${result.reason}"`,
    );
    process.exitCode = 1;
  }
}

async function verifyFile(file: string): Promise<void> {
  const folder = dirname(file);
  /** The desk whose file it is (desk.json beside it, read, never made): rows from before desks had ids are its own. */
  let deskId = '';
  try {
    const parsed = JSON.parse(readFileSync(join(folder, DESK_FILE), 'utf8')) as { deskId?: unknown };
    if (typeof parsed.deskId === 'string') deskId = parsed.deskId;
  } catch {
    // No desk.json beside it: rows from before desks had ids form a chain of their own.
  }
  const storage = embeddedStorage(folder);
  // The app keeps the last row's number and hash next to the database (audit-head.json): rows cut off the end show too.
  const trail = await AuditTrail.open(storage, { deskId }, { headFile: join(folder, 'audit-head.json') });
  const result = await trail.verify();
  await trail.close();
  await storage.close();
  report(result);
}

async function verifyCenter(): Promise<void> {
  const flag = process.argv.find((arg) => arg.startsWith('--managed='));
  const managedPath =
    flag === undefined ? managedSettingsPath(process.platform, process.env) : flag.slice('--managed='.length);
  const center = (await readManagedSettings(managedPath))?.settings.center;
  const user = process.env['PGUSER'];
  const password = process.env['PGPASSWORD'];
  if (center === undefined || user === undefined || user === '' || password === undefined || password === '') {
    console.error(
      `Usage: PGUSER=<a person granted the auditor role> PGPASSWORD=… npm run audit:verify -- --center [--managed=<file>] (the center setting of ${managedPath})`,
    );
    process.exitCode = 2;
    return;
  }
  try {
    const connection = await centerConnection(
      { ...center, user },
      { password: () => Promise.resolve(password), applicationName: 'card-payments-desk audit:verify' },
    );
    report(await verifyCenterAudit(connection));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    console.error(`The audit trail of the center at ${describeCenter(center)} could not be read: ${error.message}`);
    process.exitCode = 2;
  }
}

const file = process.argv[2];
if (file === '--center') {
  await verifyCenter();
} else if (file === undefined || !existsSync(file) || basename(file) !== AUDIT_STORE.sqlite.file) {
  console.error(
    `Usage: npm run audit:verify -- <path to ${AUDIT_STORE.sqlite.file}> (in the app data folder), or -- --center`,
  );
  process.exitCode = 2;
} else {
  await verifyFile(file);
}
