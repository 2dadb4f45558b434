// The desks' tables: scrolled sideways inside their panel when narrow, named for screen readers, one header row.
import type { JSX, ReactNode } from 'react';
import { Table } from './Table';

type Props = {
  /** The column headers, in order (a node: a visually hidden header is fine). */
  columns: readonly ReactNode[];
  className?: string;
  children: ReactNode;
} & ({ label: string; labelledBy?: never } | { labelledBy: string; label?: never });

export function DataTable({ columns, className, label, labelledBy, children }: Props): JSX.Element {
  return (
    // Focusable, so that a table wider than its panel (ids are never broken) can be scrolled from the keyboard.
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label} aria-labelledby={labelledBy}>
      <Table columns={columns} className={className} label={label} labelledBy={labelledBy}>
        {children}
      </Table>
    </div>
  );
}
