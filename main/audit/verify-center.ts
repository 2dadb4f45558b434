/**
 * The auditor's check of the center's audit trail: signed in as a person granted the auditor role, the center's
 * audit.verify_chain walks every desk's chain (main/audit/center-chain.ts): the rows the desks wrote by their plain
 * SHA-256, the rows the center wrote by the key only it holds, and each chain's end. What protects the center's trail is
 * the database (no desk writes a row itself, a trigger refuses changes whoever asks) and this check, run by someone who
 * is not IT's owner or a superuser — who can read the key and replace the function.
 */
import { sql } from 'kysely';
import { centerStorage, type CenterConnectionOptions } from '../storage';
import { AUDIT_STORE, type AuditDB, type Verification } from './store';

/**
 * The walk is one statement over the whole trail (about 150,000 rows a second on a test server): longer than a desk's
 * statements may run.
 */
const VERIFY_TIMEOUT_MS = 15 * 60_000;

interface VerifyChainRow {
  ok: boolean;
  rows_checked: number;
  desks: number;
  broken_desk: string | null;
  broken_seq: number | null;
  reason: string | null;
}

export async function verifyCenterAudit(connection: CenterConnectionOptions): Promise<Verification> {
  const storage = centerStorage({ ...connection, maxConnections: 1, statementTimeoutMs: VERIFY_TIMEOUT_MS });
  try {
    // Refuses a center not migrated for this version (center_not_ready), in words for IT.
    const store = await storage.open<AuditDB>(AUDIT_STORE);
    const { rows } = await sql<VerifyChainRow>`SELECT * FROM audit.verify_chain()`.execute(store.db);
    const result = rows[0];
    if (result === undefined) throw new Error('audit.verify_chain answered no row');
    if (result.ok) return { ok: true, rows: result.rows_checked, desks: result.desks };
    return {
      ok: false,
      rows: result.rows_checked,
      desks: result.desks,
      deskId: result.broken_desk ?? '',
      seq: result.broken_seq ?? 0,
      reason: result.reason ?? '',
    };
  } finally {
    await storage.close();
  }
}
