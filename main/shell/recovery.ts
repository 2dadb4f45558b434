/**
 * A page that crashes or hangs is reloaded into a safe state: the page starts afresh (card data, which lives only in the
 * card form, is gone), and the call comes back from what the renderer keeps in sessionStorage (its call store: ids only)
 * and from main. A crash loop stops the reloads and tells the agent to restart and call IT (main/window/recovery.ts).
 */
import { app, dialog, type BrowserWindow } from 'electron';

import type { Language } from '../../shared/language';
import { CrashLoop, RECOVERY_LIMITS, recoveryReason, RENDERER_KEEPS_FAILING, type RecoveryReason } from '../window';

export interface RendererRecovery {
  reason: RecoveryReason;
  /** False: a crash loop, the page was not reloaded and the agent was told to restart the app. */
  reloaded: boolean;
  /** The renderer's exit code, as Electron gives it (never for a hang ended by the desk). */
  exitCode?: number;
}

export interface WatchRendererOptions {
  /** The desk's language now (the agent may have changed it since the start). */
  language: () => Language;
  /** Each loss of the page, for the audit trail (no card data: none is known here). */
  onRecovered: (recovery: RendererRecovery) => void;
  /** Tests only: the monotonic clock (performance.now() when not given); never the wall clock, which can jump. */
  now?: () => number;
}

/**
 * Watches the window's page (docs/api/web-contents.md): 'render-process-gone' with any reason but 'clean-exit' reloads it;
 * 'unresponsive' with no 'responsive' within the grace ends the renderer (contents.forcefullyCrashRenderer(), which the
 * docs give for recovering from 'unresponsive'; it emits 'render-process-gone') and so reloads it too. Returns a stop.
 */
export function watchRenderer(window: BrowserWindow, options: WatchRendererOptions): () => void {
  const contents = window.webContents;
  const loop = new CrashLoop(options.now ?? (() => performance.now()));
  let hang: ReturnType<typeof setTimeout> | undefined;
  /** The desk ended the renderer because it hung: its 'render-process-gone' says killed or crashed, the cause is the hang. */
  let endedHung = false;
  let gaveUp = false;

  const stopWaiting = (): void => {
    if (hang !== undefined) clearTimeout(hang);
    hang = undefined;
  };

  const giveUp = async (): Promise<void> => {
    const words = RENDERER_KEEPS_FAILING[options.language()];
    await dialog.showMessageBox(window, {
      type: 'error',
      title: app.getName(),
      message: words.message,
      detail: words.detail,
      buttons: [words.close],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    app.quit();
  };

  const gone = (_event: unknown, details: { reason: string; exitCode: number }): void => {
    stopWaiting();
    const reason = endedHung ? 'unresponsive' : recoveryReason(details.reason);
    endedHung = false;
    if (reason === undefined || gaveUp || window.isDestroyed()) return;
    const exitCode = reason === 'unresponsive' ? {} : { exitCode: details.exitCode };
    if (loop.lost() === 'stop') {
      gaveUp = true;
      options.onRecovered({ reason, reloaded: false, ...exitCode });
      void giveUp();
      return;
    }
    // A reload after the renderer is gone starts the page in a new renderer (docs: contents.forcefullyCrashRenderer()).
    contents.reload();
    options.onRecovered({ reason, reloaded: true, ...exitCode });
  };
  const unresponsive = (): void => {
    if (hang !== undefined || gaveUp) return;
    hang = setTimeout(() => {
      hang = undefined;
      if (window.isDestroyed()) return;
      endedHung = true;
      contents.forcefullyCrashRenderer();
    }, RECOVERY_LIMITS.unresponsiveGraceMs);
  };

  contents.on('render-process-gone', gone);
  contents.on('unresponsive', unresponsive);
  contents.on('responsive', stopWaiting);
  window.once('closed', stopWaiting);
  return () => {
    stopWaiting();
    contents.off('render-process-gone', gone);
    contents.off('unresponsive', unresponsive);
    contents.off('responsive', stopWaiting);
  };
}
