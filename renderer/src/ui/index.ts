// Shared pieces of the desks' screens: table, query state, date range, status and refund badges, text helpers, form checks.
export { DataTable } from './DataTable';
export { DateRangeFields } from './DateRangeFields';
export { QueryState } from './QueryState';
export { RefundBadge, RequestBadge } from './RefundBadge';
export { StatusBadge } from './StatusBadge';
export { compactDetails, downloadText, filled, formatPhone, localIsoDate } from './text';
export { useFormGaps, type FormGaps } from './useFormGaps';
export { usePanelFocus } from './usePanelFocus';
export { FocusAlert, FocusHeading } from './PanelFocus';
export { DateField } from './DateField';
