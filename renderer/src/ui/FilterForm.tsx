// A supervisor's filters (payments, audit): the fields given, then the "from" and "to" days, then the button that
// applies them; the form is read on submit (from/to as ISO days).
import type { FormEvent, JSX, ReactNode } from 'react';
import { DateRangeFields } from './DateRangeFields';

interface Props {
  /** The screen's id: the days' ids are made from it. */
  id: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  /** The filter's own fields, before the days. */
  children: ReactNode;
}

export function FilterForm({ id, onSubmit, submitLabel, children }: Props): JSX.Element {
  return (
    <form className="filters" noValidate onSubmit={onSubmit}>
      {children}
      <DateRangeFields id={id} />
      <button type="submit" className="primary">
        {submitLabel}
      </button>
    </form>
  );
}
