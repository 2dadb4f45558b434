// Focus and scroll on a panel change (plans, 3DS panel, status, errors): the new panel's main control (or heading) gets
// the focus the old panel dropped, and its main button is scrolled into view — on a 1366×768 screen it may be below.
import { useEffect, useRef, type RefObject } from 'react';

/** What the agent does that makes the page theirs: from then on nothing scrolls it for them. */
const AGENT_ACTS = ['wheel', 'keydown', 'pointerdown', 'touchstart'] as const;

/** Marks an element that holds the focus only until the next panel's control comes (a panel's heading, an error). */
export const RESTING = 'data-focus-rest';

/**
 * True when nobody holds the focus (the panel that had it was just replaced: its element left the page), or a panel's
 * heading holds it only to say where the agent is (the status heading before the 3DS panel comes).
 */
const focusDropped = (): boolean => {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected || active.hasAttribute(RESTING);
};

/**
 * Refs for a panel's element to focus when it appears and the element to scroll into view (the same by default). The
 * focus is taken only when it was dropped, never from where the agent is typing (the search box, another field).
 */
export function usePanelFocus<F extends HTMLElement, S extends HTMLElement = F>(): {
  focusRef: RefObject<F | null>;
  scrollRef: RefObject<S | null>;
} {
  const focusRef = useRef<F>(null);
  const scrollRef = useRef<S>(null);
  useEffect(() => {
    const focus = focusRef.current;
    if (focus && focusDropped()) focus.focus({ preventScroll: true });
    const scroll = (): void => (scrollRef.current ?? focusRef.current)?.scrollIntoView?.({ block: 'nearest' });
    scroll();
    // What is above may still grow as the panel settles (the payments list gains this payment's row, seconds later on a
    // busy workstation): the control is kept in view until the agent scrolls, clicks or types, or the panel leaves.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(scroll);
    const stop = (): void => {
      observer.disconnect();
      for (const event of AGENT_ACTS) window.removeEventListener(event, stop);
    };
    observer.observe(document.body);
    for (const event of AGENT_ACTS) window.addEventListener(event, stop, { passive: true });
    return stop;
  }, []);
  return { focusRef, scrollRef };
}
