// What is said under a field and read with it (the control's aria-describedby names `id`): its problem, as an error,
// while it has one; its hint otherwise.
import type { JSX, ReactNode } from 'react';

interface Props {
  id: string;
  /** What is wrong, in words; undefined shows the hint. */
  problem: string | undefined;
  hint: ReactNode;
  /** The problem is announced as it appears (role="alert"). */
  alert?: boolean;
}

export function FieldHint({ id, problem, hint, alert = false }: Props): JSX.Element {
  return (
    <p id={id} className={problem ? 'error' : 'hint'} {...(alert && problem ? { role: 'alert' } : {})}>
      {problem ?? hint}
    </p>
  );
}
