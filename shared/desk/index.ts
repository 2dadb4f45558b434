/** The supervisor desk as every layer sees it: refunds and approvals, finding payments, the audit trail, the end-of-day report. */
export * from './refunds';
export * from './audit';
export * from './search';
export * from './report';
