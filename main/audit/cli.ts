/** `npm run audit:verify -- <audit.db>`: walks the chain and prints one line; exit 1 at the first broken link. */
import { existsSync } from 'node:fs';
import { AuditTrail } from './trail';

const file = process.argv[2];
if (file === undefined || !existsSync(file)) {
  console.error('Usage: npm run audit:verify -- <path to audit.db> (in the app data folder)');
  process.exit(2);
}
const trail = new AuditTrail(file);
const result = trail.verify();
trail.close();
if (result.ok) {
  console.log(`audit-verify ok rows=${result.rows}`);
} else {
  console.log(`audit-verify broken seq=${result.seq} rows_checked=${result.rows} reason="${result.reason}"`);
  process.exitCode = 1;
}
