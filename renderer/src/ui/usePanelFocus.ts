// Focus and scroll on a panel change (plans, 3DS panel, status, errors): the new panel's main control (or heading) gets
// the focus the old panel dropped, and its main button is scrolled into view — on a 1366×768 screen it may be below.
import { useEffect, useRef, type RefObject } from 'react';

/** How long the panel's main control is kept in view while the screen around it settles. */
const SETTLE_MS = 1500;

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
    // What is above may still grow as the panel settles (the payments list gains this payment's row): keep the control
    // in view for a moment, unless the agent scrolls or types meanwhile.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(scroll);
    const stop = (): void => {
      observer.disconnect();
      window.removeEventListener('wheel', stop);
      window.removeEventListener('keydown', stop);
    };
    observer.observe(document.body);
    window.addEventListener('wheel', stop, { passive: true });
    window.addEventListener('keydown', stop);
    const timer = setTimeout(stop, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, []);
  return { focusRef, scrollRef };
}
