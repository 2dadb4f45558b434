// A panel's head with its title and the link that closes the panel (a reservation, a payment, a refund request).
import type { JSX, ReactNode } from 'react';

interface Props {
  /** The title's id: the panel is labelled by it. */
  id: string;
  /** The title's level: 2 for a panel, 3 for a panel inside another. */
  level?: 2 | 3;
  /** The close link's words ("Close"). */
  closeLabel: string;
  onClose: () => void;
  /** The title. */
  children: ReactNode;
}

export function ClosableHead({ id, level = 2, closeLabel, onClose, children }: Props): JSX.Element {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="panel__head">
      <Heading id={id}>{children}</Heading>
      <button type="button" className="link" onClick={onClose}>
        {closeLabel}
      </button>
    </div>
  );
}
