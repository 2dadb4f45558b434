// The audit trail for supervisors: who did what and when, the chain's verification, and its CSV export.
export { auditKeys, useAuditRows } from './api';
export { AuditTrail } from './ui/AuditTrail';
