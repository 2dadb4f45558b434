// A table of the desks: one header row of column headers, then the rows given. DataTable puts one in a named region
// that scrolls sideways; a table inside a panel of its own (a payment's refunds, a report's totals) is this one alone.
import type { JSX, ReactNode } from 'react';

export interface TableProps {
  /** The column headers, in order (a node: a visually hidden header is fine). */
  columns: readonly ReactNode[];
  /** Classes besides "table" ("numbers"). */
  className?: string | undefined;
  label?: string | undefined;
  labelledBy?: string | undefined;
  /** The rows. */
  children: ReactNode;
}

export function Table({ columns, className, label, labelledBy, children }: TableProps): JSX.Element {
  return (
    <table
      className={className === undefined ? 'table' : `table ${className}`}
      aria-label={label}
      aria-labelledby={labelledBy}
    >
      <thead>
        <tr>
          {columns.map((column, index) => (
            <th key={index} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
