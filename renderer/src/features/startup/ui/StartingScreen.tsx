// The start-up screen: what main is doing before the desk opens (connecting to the center, completing the operations the
// last run left unanswered), in the desk's language, so that a window is there at once and the agent knows to wait.
import type { JSX } from 'react';
import type { StartupStatus } from '../../../../../shared/ipc';
import { useI18n } from '../../../i18n';
import './StartingScreen.css';

interface Props {
  status: StartupStatus;
}

/** "Completing 2 of 5": the operation being completed now (the last one once all are done). */
const current = ({ done, total }: { done: number; total: number }): number => Math.min(done + 1, total);

export function StartingScreen({ status }: Props): JSX.Element {
  const { t } = useI18n();
  const recovering =
    status.phase === 'recovering' && status.recovering !== undefined && status.recovering.total > 0
      ? status.recovering
      : undefined;
  const what =
    recovering !== undefined
      ? t('startup.recovering', { current: current(recovering), total: recovering.total })
      : status.phase === 'recovering'
        ? t('startup.checking')
        : status.phase === 'connecting_center'
          ? t('startup.connectingCenter')
          : status.phase === 'ready'
            ? t('startup.opening')
            : t('startup.starting');

  return (
    <main className="shell startup">
      <h1 className="shell__title">{t('app.title')}</h1>
      <p className="startup__what" role="status">
        {what}
      </p>
      {recovering !== undefined && (
        <>
          <progress
            className="startup__progress"
            value={recovering.done}
            max={recovering.total}
            aria-label={t('startup.progressLabel')}
          />
          <p className="startup__warning" role="alert">
            <strong>{t('startup.doNotClose')}</strong> {t('startup.doNotCloseWhy')}
          </p>
        </>
      )}
      {recovering === undefined && <p className="shell__note">{t('startup.wait')}</p>}
    </main>
  );
}
