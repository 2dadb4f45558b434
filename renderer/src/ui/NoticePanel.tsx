// A panel of notices said as soon as main tells them, whatever screen is open (refunds' outcomes, late successes): its
// title, then the notices (list items) in a live region. The region wraps the list: a list keeps its own role, so
// that its items stay items.
import type { JSX, ReactNode } from 'react';

interface Props {
  /** The title's id: the panel is labelled by it. */
  id: string;
  title: string;
  /** Classes besides "panel" ("panel--warning"). */
  className: string;
  /** "status" for news, "alert" for what needs the operator now. */
  role: 'status' | 'alert';
  /** The notices, each an <li>. */
  children: ReactNode;
}

export function NoticePanel({ id, title, className, role, children }: Props): JSX.Element {
  return (
    <section className={`panel ${className}`} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div role={role}>
        <ul>{children}</ul>
      </div>
    </section>
  );
}
