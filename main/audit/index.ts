/** The audit trail: who did what, when, with what outcome — append-only and hash-chained; plain Node, no Electron imports. */
export { AuditTrail, GENESIS, type AuditEntry, type AuditFilter, type AuditOutcome, type AuditRow, type Verification } from './trail';
export { AUDITED_CALLS, auditEntryFor, outcomeOf, type AuditLookup } from './calls';
export { auditCsv } from './csv';
