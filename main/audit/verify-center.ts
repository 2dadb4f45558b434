/**
 * The auditor's check of the center's audit trail: signed in as a person granted the auditor role (SELECT only), every
 * desk's chain is walked. What protects the center's trail is the database (the app role may only add rows, a trigger
 * refuses changes whoever asks) and this check, run by someone who is not IT's owner or a superuser.
 */
import { centerStorage, type CenterConnectionOptions } from '../storage';
import type { Verification } from './store';
import { AuditTrail } from './trail';

export async function verifyCenterAudit(connection: CenterConnectionOptions): Promise<Verification> {
  const storage = centerStorage({ ...connection, maxConnections: 1 });
  try {
    // No desk of its own: every chain is a desk's.
    const trail = await AuditTrail.open(storage, { deskId: '' });
    return await trail.verify();
  } finally {
    await storage.close();
  }
}
