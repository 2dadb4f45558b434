// A minute before the idle lock, a banner says when the desk locks; any key or click keeps it open (and hides the banner).
import { useEffect, useState, type JSX } from 'react';
import { useI18n } from '../../../i18n';
import { reportActivity, useIdleWarning } from '../api';

export function IdleWarning(): JSX.Element | null {
  const { t, time } = useI18n();
  const [locksAt, setLocksAt] = useState<number>();
  useIdleWarning((at) => setLocksAt(Date.parse(at)));

  useEffect(() => {
    if (locksAt === undefined) return;
    // The operator is at work again: main hears it at once (not throttled), and the lock moves on.
    function onActivity(): void {
      reportActivity();
      setLocksAt(undefined);
    }
    const options = { capture: true, passive: true } as const;
    window.addEventListener('keydown', onActivity, options);
    window.addEventListener('pointerdown', onActivity, options);
    const gone = setTimeout(() => setLocksAt(undefined), Math.max(0, locksAt - Date.now()) + 1_000);
    return () => {
      window.removeEventListener('keydown', onActivity, options);
      window.removeEventListener('pointerdown', onActivity, options);
      clearTimeout(gone);
    };
  }, [locksAt]);

  if (locksAt === undefined) return null;
  return (
    <p className="idle-warning" role="alert">
      {t('idle.warning', { time: time(locksAt) })}
    </p>
  );
}
