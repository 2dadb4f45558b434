// A panel's heading, or an error that replaces a panel, that takes the focus the old panel dropped when it appears and
// is scrolled into view (usePanelFocus): for panels whose main control is not a field or a button of their own.
import type { JSX, ReactNode } from 'react';
import { RESTING, usePanelFocus } from './usePanelFocus';

export function FocusHeading({
  id,
  className,
  children,
}: {
  id: string;
  className?: string;
  children?: ReactNode;
}): JSX.Element {
  const { focusRef } = usePanelFocus<HTMLHeadingElement>();
  return (
    <h2 ref={focusRef} id={id} className={className} tabIndex={-1} {...{ [RESTING]: '' }}>
      {children}
    </h2>
  );
}

export function FocusAlert({ children }: { children?: ReactNode }): JSX.Element {
  const { focusRef } = usePanelFocus<HTMLParagraphElement>();
  return (
    <p ref={focusRef} className="error" role="alert" tabIndex={-1} {...{ [RESTING]: '' }}>
      {children}
    </p>
  );
}
