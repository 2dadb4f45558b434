// Renderer: the application shell — first run, sign-in, then the workspace; everything through the bridge.
import { useEffect, useState, type JSX } from 'react';
import type { OperatorView } from '../../shared/operators';
import { api, messageOf, unwrap } from './api/client';
import { FirstAdmin, SignIn } from './session/SignIn';
import { Workspace } from './workspace/Workspace';

type Screen = { name: 'loading' } | { name: 'unavailable'; message: string } | { name: 'first-admin' } | { name: 'sign-in' } | { name: 'workspace'; operator: OperatorView };

export function App(): JSX.Element {
  const [screen, setScreen] = useState<Screen>(
    api ? { name: 'loading' } : { name: 'unavailable', message: 'This page runs outside the app: the payment bridge is missing.' },
  );

  useEffect(() => {
    if (!api) return;
    unwrap(api.session.status({})).then(
      (status) => {
        if (status.operator && !status.locked) setScreen({ name: 'workspace', operator: status.operator });
        else setScreen(status.needsFirstAdmin ? { name: 'first-admin' } : { name: 'sign-in' });
      },
      (error: unknown) => setScreen({ name: 'unavailable', message: messageOf(error) }),
    );
    return api.events.on('session:locked', () => setScreen({ name: 'sign-in' }));
  }, []);

  const signedIn = (operator: OperatorView): void => setScreen({ name: 'workspace', operator });
  const signOut = (): void => {
    if (!api) return;
    void unwrap(api.session.signOut({})).finally(() => setScreen({ name: 'sign-in' }));
  };

  return (
    <main className="shell">
      <h1 className="shell__title">Card Payments Desk</h1>
      {screen.name === 'loading' && <p aria-busy="true">Loading…</p>}
      {screen.name === 'unavailable' && (
        <p className="shell__note" role="status">
          {screen.message}
        </p>
      )}
      {screen.name === 'first-admin' && <FirstAdmin onSignedIn={signedIn} />}
      {screen.name === 'sign-in' && <SignIn onSignedIn={signedIn} />}
      {screen.name === 'workspace' && <Workspace operator={screen.operator} onSignOut={signOut} />}
    </main>
  );
}
