// The agent's workspace: who is signed in, and (with the workspace issue) lookup, card entry and payment status.
import type { JSX } from 'react';
import type { OperatorView } from '../../../shared/operators';

interface Props {
  operator: OperatorView;
  onSignOut: () => void;
}

export function Workspace({ operator, onSignOut }: Props): JSX.Element {
  return (
    <section className="card" aria-labelledby="workspace-title">
      <h2 id="workspace-title">Workspace</h2>
      <p>
        Signed in as <strong>{operator.displayName}</strong> ({operator.role})
      </p>
      <p className="shell__note">Reservation lookup and card payments arrive with the workspace issue.</p>
      <button type="button" onClick={onSignOut}>
        Sign out
      </button>
    </section>
  );
}
