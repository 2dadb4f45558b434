// One choice of a radio group: the radio and its words, in one label (a click on the words chooses it).
import type { JSX, ReactNode } from 'react';

interface Props {
  /** The group's name. */
  name: string;
  /** What the choice sends with a form; a group read only on screen needs none. */
  value?: string;
  checked: boolean;
  onChoose: () => void;
  children: ReactNode;
}

export function Radio({ name, value, checked, onChoose, children }: Props): JSX.Element {
  return (
    <label className="check">
      <input type="radio" name={name} value={value} checked={checked} onChange={onChoose} />
      {children}
    </label>
  );
}
