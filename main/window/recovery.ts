/**
 * What the desk does when its page dies or hangs, without Electron: which losses are recovered, how long a hang may last,
 * when reloading stops (a crash loop), and what the agent is told then. main/shell/recovery.ts applies it to the window.
 */
import type { Language } from '../../shared/language';

/**
 * Why a renderer went away, as Electron says it (docs/api/structures/render-process-gone-details.md), and `unresponsive`:
 * the desk ended a page that hung (webContents.forcefullyCrashRenderer()).
 */
export const RECOVERY_REASONS = [
  'abnormal-exit',
  'killed',
  'crashed',
  'oom',
  'launch-failed',
  'integrity-failure',
  'memory-eviction',
  'unresponsive',
  'unknown',
] as const;
export type RecoveryReason = (typeof RECOVERY_REASONS)[number];

/** Electron's reason as one of the desk's, or undefined for `clean-exit` (the page ended normally: nothing to recover). */
export function recoveryReason(gone: string): RecoveryReason | undefined {
  if (gone === 'clean-exit') return undefined;
  return (RECOVERY_REASONS as readonly string[]).includes(gone) ? (gone as RecoveryReason) : 'unknown';
}

export const RECOVERY_LIMITS = {
  /** This many losses within `withinMs` is a crash loop: the page is not reloaded again. */
  losses: 3,
  withinMs: 60_000,
  /** How long a page may stay unresponsive (after Chromium's own hang monitor said so) before the desk ends it. */
  unresponsiveGraceMs: 10_000,
} as const;

/**
 * Counts the losses of the page on a monotonic clock (performance.now(): a change of the system's clock neither hides a
 * loop nor makes one). `lost` answers whether to reload or to stop.
 */
export class CrashLoop {
  private readonly times: number[] = [];
  constructor(
    private readonly now: () => number,
    private readonly limits: { losses: number; withinMs: number } = RECOVERY_LIMITS,
  ) {}

  lost(): 'reload' | 'stop' {
    const at = this.now();
    this.times.push(at);
    while (this.times.length > 0 && at - (this.times[0] ?? at) >= this.limits.withinMs) this.times.shift();
    return this.times.length >= this.limits.losses ? 'stop' : 'reload';
  }
}

/** What the agent is told when the page keeps failing, in the desk's language (main words it: the page is gone). */
export const RENDERER_KEEPS_FAILING: Record<Language, { message: string; detail: string; close: string }> = {
  'es-MX': {
    message: 'La ventana de la aplicación dejó de funcionar varias veces.',
    detail:
      `Falló ${RECOVERY_LIMITS.losses} veces en menos de un minuto y ya no se vuelve a abrir. Cierre la aplicación, ábrala otra vez y avise a TI. ` +
      'Los pagos en curso siguen en el servicio: la aplicación los vuelve a consultar al abrirse. Los datos de tarjeta que se ' +
      'estaban escribiendo se borraron: pídalos de nuevo al huésped.',
    close: 'Cerrar la aplicación',
  },
  'en-US': {
    message: 'The app’s window stopped working several times.',
    detail:
      `It failed ${RECOVERY_LIMITS.losses} times in less than a minute and is not reopened again. Close the app, open it again and tell IT. ` +
      'Payments in progress go on at the service: the app checks them again when it opens. Any card details being typed ' +
      'were erased: ask the guest for them again.',
    close: 'Close the app',
  },
};
