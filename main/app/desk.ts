/** The desk's own records for the door: its payments found, the audit trail listed and exported, the end-of-day report. */
import { MAX_PAYMENT_RESULTS, type AuditQuery } from '../../shared/desk';
import { shortReferenceKey } from '../../shared/payments';
import { auditCsv, withActorNames, type AuditFilter, type AuditTrail } from '../audit';
import type { DeskPort } from '../ipc';
import type { OperatorDirectory } from '../operators';
import type { Journal, PaymentEngine } from '../payments';
import { endOfDayReport, searchWindow } from '../reports';
import type { AnyReservationSource } from '../reservations';

export interface DeskDeps {
  engine: PaymentEngine;
  journal: Journal;
  audit: AuditTrail;
  directory: OperatorDirectory;
  reservationSource: AnyReservationSource;
  timeZone: string;
}

/** A local calendar day (YYYY-MM-DD) as the instant its midnight starts, in the desk's (the process's) time zone. */
function localMidnight(date: string, plusDays = 0): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + plusDays).toISOString();
}

function auditFilter(query: Omit<AuditQuery, 'beforeId' | 'limit'> & { beforeId?: number }): AuditFilter {
  return {
    ...(query.actor ? { actor: query.actor } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(query.resource ? { resource: query.resource } : {}),
    ...(query.from ? { from: localMidnight(query.from) } : {}),
    ...(query.to ? { to: localMidnight(query.to, 1) } : {}),
    ...(query.beforeId === undefined ? {} : { beforeId: query.beforeId }),
  };
}

export function deskPort({ engine, journal, audit, directory, reservationSource, timeZone }: DeskDeps): DeskPort {
  return {
    async searchPayments(query) {
      let reservationIds: string[] | undefined;
      if (query.guestName)
        reservationIds = (await reservationSource.search({ text: query.guestName })).map((r) => r.confirmationNumber);
      if (query.reservationId)
        reservationIds = reservationIds
          ? reservationIds.filter((id) => id.toLowerCase() === query.reservationId?.toLowerCase())
          : [query.reservationId];
      return engine.search({
        ...(reservationIds ? { reservationIds } : {}),
        ...(query.paymentId ? { paymentId: query.paymentId } : {}),
        ...(query.shortReference
          ? { shortReference: shortReferenceKey(query.shortReference) ?? query.shortReference }
          : {}),
        ...(query.last4 ? { last4: query.last4 } : {}),
        ...(query.operatorId ? { operatorId: query.operatorId } : {}),
        ...(query.from ? { createdFrom: localMidnight(query.from) } : {}),
        ...(query.to ? { createdTo: localMidnight(query.to, 1) } : {}),
        limit: MAX_PAYMENT_RESULTS,
      });
    },
    async auditList(query) {
      const limit = query.limit ?? 100;
      const found = await audit.query(auditFilter(query), limit);
      const rows = await withActorNames(found, async (id) => (await directory.view(id))?.displayName);
      const last = rows.at(-1);
      return rows.length === limit && last ? { rows, nextBeforeId: last.id } : { rows };
    },
    async auditCsv(query) {
      const rows = await audit.query(auditFilter(query), 1_000_000);
      return { csv: auditCsv(rows), rows: rows.length };
    },
    auditVerify: () => audit.verify(),
    async endOfDay(date) {
      const window = searchWindow(date);
      return endOfDayReport({
        date,
        timeZone,
        payments: await journal.paymentsCreatedBetween(window.from, window.to),
        refunds: await journal.refundsCreatedBetween(window.from, window.to),
      });
    },
  };
}
