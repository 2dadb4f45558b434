// Shared pieces of the desks' screens: tables, a query's loading and error lines, date ranges, status and refund badges,
// and text helpers (filled filters, local dates, downloads).
export { DataTable } from './DataTable';
export { DateRangeFields } from './DateRangeFields';
export { QueryState } from './QueryState';
export { RefundBadge, RequestBadge } from './RefundBadge';
export { StatusBadge } from './StatusBadge';
export { compactDetails, downloadText, filled, localIsoDate } from './text';
