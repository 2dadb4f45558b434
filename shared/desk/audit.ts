/** The audit trail as supervisors read it: rows, filters and the chain's verification. */
import { z } from 'zod';
import { IsoDate } from '../reservations';
import { freeText } from '../text';

export const AuditOutcome = z.enum(['ok', 'refused', 'failed']);
export type AuditOutcome = z.infer<typeof AuditOutcome>;

/**
 * The actions main writes by itself (its own work, results it follows, refusals at the door), beside those the contract's
 * channels name in their audit rules. The trail's screen words each of both in the desk's language.
 */
export const MAIN_AUDIT_ACTIONS = [
  'call.refused',
  'payment.recovered',
  'payment.result',
  'refund.recovered',
  'refund.request',
  'refund.result',
  'session.lock',
  'session.takeOver',
  'settings.change',
  'settings.ignored',
  'window.recovered',
] as const;

export const AuditRowView = z.object({
  /** The row's place in the whole trail (every desk's rows): the order they are shown in, and paging. */
  id: z.number().int(),
  /** The desk that wrote it (each desk keeps its own chain). */
  deskId: z.string(),
  /** Its number in its desk's chain. */
  seq: z.number().int(),
  at: z.string(),
  actor: z.string(),
  /** The operator's display name, read from the operators' directory (absent for the trail's own actors and unknown ids). */
  actorName: z.string().optional(),
  action: z.string(),
  outcome: AuditOutcome,
  resource: z.string().optional(),
  requestId: z.string().optional(),
  details: z.record(z.string(), z.unknown()),
  /**
   * On the center: `center` when the center wrote the row (its time the center's, its hash keyed), `desk` when a desk
   * wrote it itself (before the center wrote the trail, or moved in from its files): that desk's word.
   */
  writtenBy: z.enum(['center', 'desk']).optional(),
  /** A row the center wrote later than it happened at the desk (kept there while the center was down): when it did. */
  deskAt: z.string().optional(),
  /** A row the center wrote: whether the operator it names had a session at that desk then (open, locked, none). */
  actorSession: z.enum(['open', 'locked', 'none']).optional(),
});
export type AuditRowView = z.infer<typeof AuditRowView>;

const Filter = freeText().trim().max(100, 'A filter can have at most 100 characters.');

export const AuditQuery = z.strictObject({
  actor: Filter.optional(),
  /** A prefix: "refund" matches refund.request, refund.approve… */
  action: Filter.optional(),
  outcome: AuditOutcome.optional(),
  resource: Filter.optional(),
  /** Local calendar days, both included. */
  from: IsoDate.optional(),
  to: IsoDate.optional(),
  /** Paging: rows older than this place in the trail (a row's id; newest first). */
  beforeId: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditVerification = z.object({
  ok: z.boolean(),
  rows: z.number().int(),
  /** How many desks' chains were walked. */
  desks: z.number().int().optional(),
  /** Where it breaks: the desk, and the row's number in that desk's chain. */
  deskId: z.string().optional(),
  seq: z.number().int().optional(),
  reason: z.string().optional(),
});
export type AuditVerification = z.infer<typeof AuditVerification>;
