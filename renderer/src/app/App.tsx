// Renderer: the application shell — first run, sign-in, then the workspace; everything through the bridge.
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type JSX } from 'react';
import type { OperatorView } from '../../../shared/operators';
import { api, messageOf, unwrap } from '../bridge/client';
import { keys, queryClient } from '../api/queries';
import { useCall } from '../features/call/store';
import { I18nProvider, useI18n } from '../i18n';
import { FirstAdmin, SignIn } from '../features/session/ui/SignIn';
import { Workspace } from './Desk';

type Screen =
  | { name: 'loading' }
  | { name: 'unavailable'; message: string }
  | { name: 'first-admin' }
  | { name: 'sign-in'; locked: boolean; handedOver?: boolean }
  | { name: 'workspace'; operator: OperatorView };

/** Forget the call and every reservation read: what the lock screen or the next operator must not see. */
function forgetCall(): void {
  useCall.getState().reset();
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.appInfo[0] });
}

function Shell(): JSX.Element {
  const { t } = useI18n();
  const [screen, setScreen] = useState<Screen>(api ? { name: 'loading' } : { name: 'unavailable', message: t('app.noBridge') });

  useEffect(() => {
    if (!api) return;
    unwrap(api.session.status({})).then(
      (status) => {
        if (status.operator && !status.locked) setScreen({ name: 'workspace', operator: status.operator });
        else setScreen(status.needsFirstAdmin ? { name: 'first-admin' } : { name: 'sign-in', locked: status.locked });
      },
      (error: unknown) => setScreen({ name: 'unavailable', message: messageOf(error) }),
    );
    // The idle lock: the workspace (and the card form with it) is unmounted, so typed card data is gone.
    return api.events.on('session:locked', () => {
      forgetCall();
      setScreen({ name: 'sign-in', locked: true });
    });
  }, []);

  const signedIn = (operator: OperatorView): void => setScreen({ name: 'workspace', operator });
  // The locked session ended on the lock screen: a plain sign-in for whoever is at the desk now.
  const handedOver = (): void => {
    forgetCall();
    setScreen({ name: 'sign-in', locked: false, handedOver: true });
  };
  const signOut = (): void => {
    if (!api) return;
    forgetCall();
    void unwrap(api.session.signOut({})).finally(() => setScreen({ name: 'sign-in', locked: false }));
  };

  if (screen.name === 'workspace') return <Workspace operator={screen.operator} onSignOut={signOut} />;
  return (
    <main className="shell">
      <h1 className="shell__title">Card Payments Desk</h1>
      {screen.name === 'loading' && <p aria-busy="true">{t('common.loading')}</p>}
      {screen.name === 'unavailable' && (
        <p className="shell__note" role="status">
          {screen.message}
        </p>
      )}
      {screen.name === 'first-admin' && <FirstAdmin onSignedIn={signedIn} />}
      {screen.name === 'sign-in' && (
        // A new form (empty, focused) when the lock screen becomes the plain sign-in.
        <SignIn key={screen.locked ? 'locked' : 'open'} locked={screen.locked} handedOver={screen.handedOver === true} onSignedIn={signedIn} onHandedOver={handedOver} />
      )}
    </main>
  );
}

/** The language comes from main's settings before the first screen is drawn. */
function Localized(): JSX.Element {
  const info = useQuery({ queryKey: keys.appInfo, queryFn: () => (api ? unwrap(api.app.info({})) : Promise.reject(new Error('no bridge'))), staleTime: Number.POSITIVE_INFINITY });
  if (info.isPending && api) return <p aria-busy="true">…</p>;
  return (
    <I18nProvider initialLanguage={info.data?.language ?? 'es-MX'}>
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
