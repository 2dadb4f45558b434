// Renderer: the application shell; the payment workspace replaces the placeholder in a later issue.
import type { JSX } from 'react';

export function App(): JSX.Element {
  return (
    <main className="shell">
      <h1 className="shell__title">Card Payments Desk</h1>
      <p className="shell__note">The payment workspace arrives in a later issue.</p>
    </main>
  );
}
