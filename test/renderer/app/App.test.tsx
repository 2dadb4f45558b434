// @vitest-environment happy-dom
// The shell's first screen: before anything else it asks main where the start stands and, until main says ready, shows
// the start-up screen in the language that status carries, moved on by main's app:startup events; only then does it
// ask the app's info and the session and show the sign-in. A refusal `starting` (a call at the edge of ready) is asked
// again, never shown.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Output } from '../../../shared/ipc';
import { installFakeMain } from '../support/bridge';

const main = installFakeMain();

const INFO: Output<'app:info'> = {
  environment: 'training',
  version: '0.1.0',
  language: 'es-MX',
  languageLocked: false,
  deskId: '3f1c2a4e-7b1d-4c8e-9a2f-5d6e7f809a1b',
  storage: 'embedded',
};

async function renderApp(): Promise<void> {
  // A new module each time: the shell's query cache is the module's own.
  vi.resetModules();
  const { App } = await import('../../../renderer/src/app/App');
  render(<App />);
}

const channels = (): string[] => main.sent.map((call) => call.channel);

beforeEach(() => {
  main.reset();
  main.answer('app:info', () => INFO);
  main.answer('session:status', () => ({ locked: false, needsFirstAdmin: false }));
});
afterEach(cleanup);

describe('the shell while the desk starts', () => {
  it('asks app:startup first and shows the start-up screen in its language, moved on by events, then the sign-in once ready', async () => {
    main.answer('app:startup', () => ({ phase: 'connecting_center', language: 'en-US' }));
    await renderApp();
    expect(await screen.findByText('Connecting to the center…')).toBeTruthy();
    expect(channels()).toEqual(['app:startup']);

    act(() => main.emit('app:startup', { phase: 'recovering', language: 'en-US', recovering: { total: 2, done: 0 } }));
    // The cache tells the screen on its own tick: the new status is waited for, not assumed.
    expect(await screen.findByText('Completing 1 of 2 operations left without an answer…')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Do not close the app while they complete.');
    act(() => main.emit('app:startup', { phase: 'recovering', language: 'en-US', recovering: { total: 2, done: 1 } }));
    expect(await screen.findByText('Completing 2 of 2 operations left without an answer…')).toBeTruthy();
    // Nothing else is asked of main while it starts.
    expect(channels()).toEqual(['app:startup']);

    main.answer('app:info', () => ({ ...INFO, language: 'en-US' }));
    act(() => main.emit('app:startup', { phase: 'ready', language: 'en-US' }));
    expect(await screen.findByRole('form', { name: 'Sign in' })).toBeTruthy();
    expect(channels()).toEqual(['app:startup', 'app:info', 'session:status']);
  });

  it('in Spanish when the settings say so; ready at once goes straight to the sign-in', async () => {
    main.answer('app:startup', () => ({ phase: 'starting', language: 'es-MX' }));
    await renderApp();
    expect(await screen.findByText('Iniciando el escritorio…')).toBeTruthy();
    act(() => main.emit('app:startup', { phase: 'ready', language: 'es-MX' }));
    expect(await screen.findByRole('form', { name: 'Iniciar sesión' })).toBeTruthy();
  });

  it('a refusal `starting` of app:info at the edge of ready is asked again and never shown', async () => {
    main.answer('app:startup', () => ({ phase: 'ready', language: 'es-MX' }));
    let asked = 0;
    main.answer('app:info', () =>
      ++asked === 1 ? { code: 'starting', message: 'The desk is still starting.' } : INFO,
    );
    await renderApp();
    expect(await screen.findByRole('form', { name: 'Iniciar sesión' }, { timeout: 3_000 })).toBeTruthy();
    expect(asked).toBe(2);
    expect(document.body.textContent).not.toContain('todavía se está iniciando');
  });

  it('a refused app:startup (a window main does not trust) is said in words', async () => {
    main.answer('app:startup', () => ({ code: 'forbidden_sender', message: 'This window may not use the app.' }));
    await renderApp();
    expect(await screen.findByText('Esta ventana no puede usar la aplicación.')).toBeTruthy();
    expect(channels()).toEqual(['app:startup']);
  });
});
