// The update banner: tells the agent a new version is ready and lets them restart at the end of the call, never during a payment.
import type { JSX } from 'react';
import { ApiError, describeError } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { useRestartToUpdate, useUpdateStatus } from '../api';
import { UpdateNotice } from './UpdateNotice';

/** Shows main's update status and restarts when the agent says so. */
export function UpdateBanner(): JSX.Element | null {
  const { t } = useI18n();
  const status = useUpdateStatus();
  const restart = useRestartToUpdate();
  // On success the app quits to install; nothing more happens here.
  const error = restart.error;
  const problem =
    error === null
      ? undefined
      : error instanceof ApiError && error.code === 'payment_in_progress'
        ? t('update.blocked')
        : t('update.failed', { reason: describeError(error, t) });

  return (
    <UpdateNotice
      status={status.data}
      restarting={restart.isPending || restart.isSuccess}
      problem={problem}
      onRestart={() => restart.mutate()}
    />
  );
}
