// Typing, pointing and scrolling in the window tell main the operator is at work (at most every 30 s): the card form makes no
// other call while it is filled in, and the idle lock is main's alone.
import { useEffect } from 'react';
import { reportActivity } from './api';
import { throttledActivity } from './throttle';

export function useActivityReport(): void {
  useEffect(() => {
    const onActivity = throttledActivity(reportActivity, () => performance.now());
    const options = { capture: true, passive: true } as const;
    window.addEventListener('keydown', onActivity, options);
    window.addEventListener('pointerdown', onActivity, options);
    window.addEventListener('wheel', onActivity, options);
    return () => {
      window.removeEventListener('keydown', onActivity, options);
      window.removeEventListener('pointerdown', onActivity, options);
      window.removeEventListener('wheel', onActivity, options);
    };
  }, []);
}
