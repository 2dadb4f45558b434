// The update banner: tells the agent a new version is ready and lets them restart at the end of the call, never during a payment.
import { useEffect, useState, type JSX } from 'react';
import type { UpdateStatus } from '../../../../../shared/ipc';
import { api, ApiError, unwrap } from '../../../bridge/client';
import { useI18n } from '../../../i18n';
import { UpdateNotice } from './UpdateNotice';

/** While a ready update waits for a payment, the status is asked again this often (besides after each payment event). */
const BLOCKED_RECHECK_MS = 15_000;

/** Asks main for the update status, follows its changes, and restarts when the agent says so. */
export function UpdateBanner(): JSX.Element | null {
  const { t } = useI18n();
  const [status, setStatus] = useState<UpdateStatus | undefined>(undefined);
  const [restarting, setRestarting] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (!api) return;
    const bridge = api;
    let active = true;
    const refresh = (): void => {
      unwrap(bridge.updates.status({})).then(
        (next) => {
          if (active) setStatus(next);
        },
        // The banner is a courtesy: when main cannot say, it stays as it was.
        () => undefined,
      );
    };
    refresh();
    const offChanged = bridge.events.on('updates:changed', (next) => setStatus(next));
    // A payment reaching its result can unblock a ready update.
    const offPayments = bridge.events.on('payments:changed', refresh);
    return () => {
      active = false;
      offChanged();
      offPayments();
    };
  }, []);

  const waiting = status?.state === 'ready' && status.blockedBy === 'payment_in_progress';
  useEffect(() => {
    if (!waiting || !api) return;
    const bridge = api;
    const timer = window.setInterval(() => {
      unwrap(bridge.updates.status({})).then(setStatus, () => undefined);
    }, BLOCKED_RECHECK_MS);
    return () => window.clearInterval(timer);
  }, [waiting]);

  function restart(): void {
    if (!api) return;
    setProblem(undefined);
    setRestarting(true);
    // On success the app quits to install; nothing more happens here.
    unwrap(api.updates.restart({})).catch((error: unknown) => {
      setRestarting(false);
      if (error instanceof ApiError && error.code === 'payment_in_progress') setProblem(t('update.blocked'));
      else setProblem(t('update.failed', { reason: error instanceof ApiError ? error.message : t('common.retry') }));
    });
  }

  return <UpdateNotice status={status} restarting={restarting} problem={problem} onRestart={restart} />;
}
