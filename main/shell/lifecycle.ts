/** The shell's life and its end without Electron: the deadline every shutdown keeps, and what main says when it cannot go on. */
import type { Language } from '../../shared/language';

/**
 * How long the stack, the center's pool and the logs may take to close. Past it the process ends anyway: Windows ends a
 * session a few seconds after asking, the NSIS installer is waiting to replace the files, and the agent is waiting for
 * the app to close. What the journal wrote is on disk already; what is cut is only a connection or a log line.
 */
export const SHUTDOWN_DEADLINE_MS = 5_000;

/** Resolves when `work` settles or `ms` have passed, whichever is first; never rejects (the reason is given to `onLate`/`onError`). */
export function withDeadline(
  work: Promise<unknown>,
  ms: number,
  handlers: { onLate?: () => void; onError?: (error: unknown) => void } = {},
): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      handlers.onLate?.();
      resolve();
    }, ms);
    timer.unref?.();
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        handlers.onError?.(error);
        resolve();
      },
    );
  });
}

/** The language of a dialog shown before the desk's settings are read: the system's (Electron's app.getLocale()). */
export function languageOfLocale(locale: string): Language {
  return /^en\b/i.test(locale) ? 'en-US' : 'es-MX';
}

interface ShellWords {
  /** The error box's title when the desk cannot start. */
  cannotStart: string;
  /** After the reason: what the agent does next. */
  tellIt: string;
  /** The error box's title and text when main meets an error it did not expect, after start. */
  failed: string;
  failedDetail: string;
  /** Closing the app while a payment is in progress. */
  quitWhilePaying: { message: string; detail: string; stay: string; quit: string };
}

/** What main itself says (dialogs shown by the OS, outside the renderer's catalogues), in the desk's language. */
export const SHELL_WORDS: Record<Language, ShellWords> = {
  'es-MX': {
    cannotStart: 'Card Payments Desk no puede iniciar',
    tellIt: 'Si vuelve a pasar, avise a TI.',
    failed: 'Card Payments Desk tuvo un error y se va a cerrar',
    failedDetail:
      'Los pagos que ya se enviaron siguen en el servicio; al volver a abrir la aplicación se consultan de nuevo. ' +
      'Vuelva a abrir la aplicación. Si vuelve a pasar, avise a TI.',
    quitWhilePaying: {
      message: 'Hay un pago en curso.',
      detail:
        'Todavía no se conoce su resultado. Deje la aplicación abierta hasta que el pago tenga su resultado. ' +
        'Si sale ahora, el pago sigue en el servicio y la aplicación lo vuelve a consultar la próxima vez que se abra.',
      stay: 'Seguir trabajando',
      quit: 'Salir de todos modos',
    },
  },
  'en-US': {
    cannotStart: 'Card Payments Desk cannot start',
    tellIt: 'If this keeps happening, tell IT.',
    failed: 'Card Payments Desk met an error and will close',
    failedDetail:
      'Payments already sent go on at the service; the app checks them again when it opens. Open the app again. ' +
      'If this keeps happening, tell IT.',
    quitWhilePaying: {
      message: 'A payment is in progress.',
      detail:
        'Its result is not known yet. Keep the app open until the payment has its result. ' +
        'If you quit now, the payment goes on at the service and the app checks it again the next time it starts.',
      stay: 'Keep working',
      quit: 'Quit anyway',
    },
  },
};
