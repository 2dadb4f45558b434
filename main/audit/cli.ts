/**
 * `npm run audit:verify -- <audit.db>`: walks every desk's chain in the file, checks this desk's end against
 * audit-head.json, prints one line; exit 1 at the first broken link.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DESK_FILE } from '../center/desk-id';
import { embeddedStorage } from '../storage';
import { AUDIT_STORE, AuditTrail } from './trail';

const file = process.argv[2];
if (file === undefined || !existsSync(file) || basename(file) !== AUDIT_STORE.sqlite.file) {
  console.error(`Usage: npm run audit:verify -- <path to ${AUDIT_STORE.sqlite.file}> (in the app data folder)`);
  process.exit(2);
}
const folder = dirname(file);
/** The desk whose file it is (desk.json beside it, read, never made): rows from before desks had ids are its own. */
function deskOfFolder(): string {
  try {
    const parsed = JSON.parse(readFileSync(join(folder, DESK_FILE), 'utf8')) as { deskId?: unknown };
    return typeof parsed.deskId === 'string' ? parsed.deskId : '';
  } catch {
    return '';
  }
}
const storage = embeddedStorage(folder);
// The app keeps the last row's number and hash next to the database (audit-head.json): rows cut off the end show too.
const trail = await AuditTrail.open(storage, { deskId: deskOfFolder() }, { headFile: join(folder, 'audit-head.json') });
const result = await trail.verify();
await trail.close();
await storage.close();
if (result.ok) {
  console.log(`audit-verify ok rows=${result.rows} desks=${result.desks}`);
} else {
  console.log(`audit-verify broken desk=${result.deskId || '-'} seq=${result.seq} rows_checked=${result.rows} reason="${result.reason}"`);
  process.exitCode = 1;
}
