/** `npm run audit:verify -- <audit.db>`: walks the chain, checks its end against audit-head.json, prints one line; exit 1 at the first broken link. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AuditTrail } from './trail';

const file = process.argv[2];
if (file === undefined || !existsSync(file)) {
  console.error('Usage: npm run audit:verify -- <path to audit.db> (in the app data folder)');
  process.exit(2);
}
// The app keeps the last row's number and hash next to the database (audit-head.json): rows cut off the end show too.
const trail = new AuditTrail(file, { headFile: join(dirname(file), 'audit-head.json') });
const result = trail.verify();
trail.close();
if (result.ok) {
  console.log(`audit-verify ok rows=${result.rows}`);
} else {
  console.log(`audit-verify broken seq=${result.seq} rows_checked=${result.rows} reason="${result.reason}"`);
  process.exitCode = 1;
}
