/** The audit rows as CSV for supervisors: one row per entry with its desk, details as JSON, spreadsheet formulas defused. */
import { csvRow } from '../../shared/desk';
import type { AuditRow } from './store';

export function auditCsv(rows: readonly AuditRow[]): string {
  const lines = [
    csvRow(['desk_id', 'seq', 'at', 'actor', 'action', 'outcome', 'resource', 'request_id', 'details', 'hash']),
    ...rows.map((r) =>
      csvRow([
        r.deskId,
        r.seq,
        r.at,
        r.actor,
        r.action,
        r.outcome,
        r.resource ?? '',
        r.requestId ?? '',
        JSON.stringify(r.details),
        r.hash,
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
