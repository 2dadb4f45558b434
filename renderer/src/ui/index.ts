// Shared pieces of the desks' screens: tables, form fields, filters, panels' heads and notices, query state, date range,
// status and refund badges, text helpers, form checks.
export { ClosableHead } from './ClosableHead';
export { DataTable } from './DataTable';
export { Field } from './Field';
export { FieldHint } from './FieldHint';
export { FilterForm } from './FilterForm';
export { NoticePanel } from './NoticePanel';
export { Radio } from './Radio';
export { Table } from './Table';
export { DateRangeFields } from './DateRangeFields';
export { QueryState } from './QueryState';
export { RefundBadge, RequestBadge } from './RefundBadge';
export { StatusBadge } from './StatusBadge';
export { compactDetails, downloadText, filled, formatPhone, formText, localIsoDate } from './text';
export { useFormGaps, type FormGaps } from './useFormGaps';
export { usePanelFocus } from './usePanelFocus';
export { FocusAlert, FocusHeading } from './PanelFocus';
export { DateField } from './DateField';
