// A form field: its label, then the control the label names (the control carries `id`) and what is said under it.
import type { JSX, ReactNode } from 'react';

interface Props {
  /** The control's id: the label is for it. */
  id: string;
  label: ReactNode;
  /** Classes besides "field" ("field--grow"). */
  className?: string;
  /** The control, then what is said under it (a FieldHint, a problem). */
  children: ReactNode;
}

export function Field({ id, label, className, children }: Props): JSX.Element {
  return (
    <div className={className === undefined ? 'field' : `field ${className}`}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
