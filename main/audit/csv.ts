/**
 * The audit rows as CSV for supervisors: one row per entry with its desk, details as JSON, spreadsheet formulas defused.
 * `at` is the center's time for a row the center wrote, the desk's own otherwise; the last columns are the center's:
 * who wrote the row, the desk's time of it where that is not the center's, and the actor's session at the desk then.
 */
import { csvRow } from '../../shared/desk';
import type { AuditRow } from './store';

export function auditCsv(rows: readonly AuditRow[]): string {
  const lines = [
    csvRow([
      'desk_id',
      'seq',
      'at',
      'actor',
      'action',
      'outcome',
      'resource',
      'request_id',
      'details',
      'hash',
      'written_by',
      'desk_at',
      'actor_session',
    ]),
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
        r.writtenBy ?? '',
        r.deskAt ?? '',
        r.actorSession ?? '',
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
