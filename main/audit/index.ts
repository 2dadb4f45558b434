/** The audit trail: who did what, when, with what outcome — append-only and hash-chained; plain Node, no Electron imports. */
export { AuditTrail, type AuditTrailOptions } from './trail';
export {
  AUDIT_STORE,
  type AuditDB,
  type AuditEntry,
  type AuditFilter,
  type AuditOutcome,
  type AuditRow,
  type Verification,
} from './store';
export { GENESIS, walkChain, type ChainRow, type ChainWalk } from './chain';
export { withActorNames } from './actor-names';
export { AUDIT_SPOOL_FILE, AUDIT_SPOOL_STORE } from './spool';
export {
  auditEntryFor,
  createCallRecorder,
  MAX_SUMMARY_BYTES,
  outcomeOf,
  REFUSAL_REPEAT_MS,
  summarize,
  type RecordedCall,
} from './calls';
export { auditCsv } from './csv';
export { verifyCenterAudit } from './verify-center';
export { AUDIT_MOVE_IN } from './move-in';
