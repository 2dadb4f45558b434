// The channels of the supervisors' records: the audit trail (list, CSV export, chain check) and the end-of-day report.
import { z } from 'zod';
import { IsoDate } from '../reservations';
import { AuditQuery, AuditRowView, AuditVerification, EndOfDayReport } from '../desk';
import { REFUNDS } from './access';
import { background, channel, defined, none, type ChannelSpec } from './spec';

export const REPORT_CHANNELS = {
  'audit:list': background(
    AuditQuery,
    z.object({ rows: z.array(AuditRowView), nextBeforeId: z.number().int().optional() }),
    REFUNDS,
  ),
  /** Every row the filters match (no paging), as CSV. */
  'audit:exportCsv': channel({
    input: AuditQuery.omit({ beforeId: true, limit: true }),
    output: z.object({ csv: z.string(), rows: z.number().int() }),
    access: REFUNDS,
    activity: 'operator',
    audit: { action: 'audit.export', details: (input, output) => defined({ ...input, rows: output?.rows }) },
  }),
  'audit:verify': channel({
    input: none,
    output: AuditVerification,
    access: REFUNDS,
    activity: 'operator',
    audit: 'none',
  }),
  'reports:endOfDay': background(z.strictObject({ date: IsoDate }), EndOfDayReport, REFUNDS),
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
