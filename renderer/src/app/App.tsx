// Renderer: the application shell — the start-up screen, first run, sign-in, then the workspace; everything through the bridge.
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef, useState, type JSX } from 'react';
import type { OperatorView } from '../../../shared/operators';
import { createQueryClient } from '../bridge/cache';
import { describeError } from '../bridge/errors';
import { useCall } from '../features/call';
import { FirstAdmin, readSessionStatus, SignIn, signOut as endSession, useSessionLocked } from '../features/session';
import { isStarting, StartingScreen, startupKeys, useStartupStatus } from '../features/startup';
import { I18nProvider, useI18n } from '../i18n';
import { appKeys, hasBridge, useAppInfo } from './api';
import { Workspace } from './Workspace';

const queryClient = createQueryClient();
/** What the shell itself reads (the start's status, the app's info): kept when a session's readings are forgotten. */
const KEPT_QUERIES: ReadonlySet<unknown> = new Set([appKeys.info[0], startupKeys.status[0]]);

type Screen =
  | { name: 'loading' }
  /** No bridge (error undefined), or main refused the first call: worded at render, in the language shown. */
  | { name: 'unavailable'; error?: unknown }
  | { name: 'first-admin' }
  | {
      name: 'sign-in';
      locked: boolean;
      handedOver?: boolean;
      endedElsewhere?: { deskId?: string | undefined; sinceAt?: string | undefined };
    }
  | { name: 'workspace'; operator: OperatorView };

/**
 * Forget the call, every reservation read and every operation's variables and answers (amounts, notes, guests' data):
 * what the lock screen or the next operator must not see.
 */
function forgetCall(): void {
  useCall.getState().reset();
  forgetReadings();
}

/**
 * The lock forgets what was read and every operation's variables and answers, but keeps the call (reservation, payment
 * followed, the choices made — never card data, which went with the card form): the same operator signing back
 * in finds the call as it was, its payment read again from main.
 */
function forgetReadings(): void {
  queryClient.removeQueries({ predicate: (query) => !KEPT_QUERIES.has(query.queryKey[0]) });
  queryClient.getMutationCache().clear();
}

function Shell(): JSX.Element {
  const { t } = useI18n();
  const [screen, setScreen] = useState<Screen>(hasBridge ? { name: 'loading' } : { name: 'unavailable' });
  /** Who had the call when the desk locked: anyone else signing in starts with none. */
  const callOf = useRef<string>(undefined);

  useEffect(() => {
    if (!hasBridge) return;
    readSessionStatus().then(
      (status) => {
        // The call kept over a reload (features/call/store.ts) is the signed-in operator's. Nobody signed in: it goes. A
        // locked desk does not say whose it was: its texts go, as at a lock, and the next sign-in starts a new call.
        if (status.operator && !status.locked) setScreen({ name: 'workspace', operator: status.operator });
        else setScreen(status.needsFirstAdmin ? { name: 'first-admin' } : { name: 'sign-in', locked: status.locked });
        if (status.locked) {
          useCall.getState().locked();
          callOf.current = '';
        } else if (!status.operator) forgetCall();
      },
      (error: unknown) => setScreen({ name: 'unavailable', error }),
    );
  }, []);

  // The idle lock: the workspace (and every form with it) is unmounted, so typed card data is gone; the payment's amount
  // and note, kept for the call, are forgotten too.
  useSessionLocked((event) => {
    forgetReadings();
    useCall.getState().locked();
    if (event.endedElsewhere !== undefined) {
      // The operator signed in at another desk and ended this session: nothing of it stays here.
      callOf.current = undefined;
      forgetCall();
      setScreen({ name: 'sign-in', locked: false, endedElsewhere: event.endedElsewhere });
      return;
    }
    if (screen.name === 'workspace') callOf.current = screen.operator.id;
    setScreen({ name: 'sign-in', locked: true });
  });

  const signedIn = (operator: OperatorView): void => {
    if (callOf.current !== undefined && callOf.current !== operator.id) forgetCall();
    callOf.current = undefined;
    setScreen({ name: 'workspace', operator });
  };
  // The locked session ended on the lock screen: a plain sign-in for whoever is at the desk now.
  const handedOver = (): void => {
    callOf.current = undefined;
    forgetCall();
    setScreen({ name: 'sign-in', locked: false, handedOver: true });
  };
  const signOut = (): void => {
    if (!hasBridge) return;
    forgetCall();
    void endSession().then(() => setScreen({ name: 'sign-in', locked: false }));
  };

  if (screen.name === 'workspace') return <Workspace operator={screen.operator} onSignOut={signOut} />;
  return (
    <main className="shell">
      <h1 className="shell__title">{t('app.title')}</h1>
      {screen.name === 'loading' && <p aria-busy="true">{t('common.loading')}</p>}
      {screen.name === 'unavailable' && (
        <p className="shell__note" role="status">
          {screen.error === undefined ? t('app.noBridge') : describeError(screen.error, t)}
        </p>
      )}
      {screen.name === 'first-admin' && <FirstAdmin onSignedIn={signedIn} />}
      {screen.name === 'sign-in' && (
        // A new form (empty, focused) when the lock screen becomes the plain sign-in.
        <SignIn
          key={screen.locked ? 'locked' : 'open'}
          locked={screen.locked}
          handedOver={screen.handedOver === true}
          {...(screen.endedElsewhere === undefined ? {} : { endedElsewhere: screen.endedElsewhere })}
          onSignedIn={signedIn}
          onHandedOver={handedOver}
        />
      )}
    </main>
  );
}

/** main could not say where the start stands (the page is not the app's own window, say): in words, never a stack. */
function Unavailable({ error }: { error: unknown }): JSX.Element {
  const { t } = useI18n();
  return (
    <main className="shell">
      <h1 className="shell__title">{t('app.title')}</h1>
      <p className="shell__note" role="status">
        {describeError(error, t)}
      </p>
    </main>
  );
}

/**
 * Before anything else the shell asks where the desk's start stands: until it is ready, the start-up screen, in the
 * language the status carries (main's settings); then the app's info, whose language the desk opens in.
 */
function Localized(): JSX.Element {
  const startup = useStartupStatus();
  const status = startup.data;
  const ready = status?.phase === 'ready';
  const info = useAppInfo(ready);
  if (!hasBridge) {
    return (
      <I18nProvider initialLanguage="es-MX">
        <Shell />
      </I18nProvider>
    );
  }
  if (status === undefined) {
    if (!startup.isError) return <p aria-busy="true">…</p>;
    return (
      <I18nProvider initialLanguage="es-MX">
        <Unavailable error={startup.error} />
      </I18nProvider>
    );
  }
  // Until app:info answers, the start-up screen stays (a refusal `starting` at the edge of ready is asked again, never shown).
  if (!ready || (info.data === undefined && (info.isPending || isStarting(info.error)))) {
    return (
      <I18nProvider key="starting" initialLanguage={status.language}>
        <StartingScreen status={status} />
      </I18nProvider>
    );
  }
  return (
    <I18nProvider key="desk" initialLanguage={info.data?.language ?? status.language}>
      <Shell />
    </I18nProvider>
  );
}

export function App(): JSX.Element {
  return (
    <QueryClientProvider client={queryClient}>
      <Localized />
    </QueryClientProvider>
  );
}
