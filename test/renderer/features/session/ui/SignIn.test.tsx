// @vitest-environment happy-dom
// The sign-in form in a DOM: no browser bubble (noValidate), an empty field named in the desk's language and focused,
// nothing sent until both are filled; main's refusal worded from the catalogue by its code, never main's English.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { SignIn } = await import('../../../../../renderer/src/features/session');

describe('SignIn', () => {
  it('names the empty field in Spanish, focuses it, and sends nothing', async () => {
    main.reset();
    renderWithData('es-MX', <SignIn onSignedIn={vi.fn()} />);
    const form = screen.getByRole('form', { name: 'Iniciar sesión' });
    expect(form.hasAttribute('novalidate')).toBe(true);
    const user = userEvent.setup();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('ID de operador: este dato es obligatorio.');
    expect(document.activeElement).toBe(screen.getByLabelText('ID de operador'));
    expect(screen.getByLabelText('ID de operador').getAttribute('aria-invalid')).toBe('true');
    await user.keyboard('ana{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Contraseña: este dato es obligatorio.');
    expect(document.activeElement).toBe(screen.getByLabelText('Contraseña'));
    expect(screen.getByLabelText('ID de operador').hasAttribute('aria-invalid')).toBe(false);
    expect(main.sent.filter((call) => call.channel === 'session:signIn')).toEqual([]);
  });

  it('shows main’s refusal in the desk’s language, not main’s English message', async () => {
    main.reset();
    main.answer('session:signIn', () => ({ code: 'invalid_credentials', message: 'The ID or password is wrong.' }));
    renderWithData('es-MX', <SignIn onSignedIn={vi.fn()} />);
    const user = userEvent.setup();
    await user.keyboard('ana{Tab}wrong password{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('El ID de operador o la contraseña no son correctos.');
    expect(main.sent.filter((call) => call.channel === 'session:signIn')).toHaveLength(1);
  });

  it('a wrong password is cleared and focused with the message, ready to be typed again', async () => {
    main.reset();
    main.answer('session:signIn', () => ({ code: 'invalid_credentials', message: 'No.' }));
    renderWithData('es-MX', <SignIn onSignedIn={vi.fn()} />);
    const user = userEvent.setup();
    await user.keyboard('ana{Tab}wrong password{Enter}');
    await screen.findByRole('alert');
    const password = screen.getByLabelText<HTMLInputElement>('Contraseña');
    expect(password.value).toBe('');
    expect(document.activeElement).toBe(password);
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText<HTMLInputElement>('ID de operador').value).toBe('ana');
    await user.keyboard('right password 12{Enter}');
    expect(main.sent.filter((call) => call.channel === 'session:signIn').map((call) => call.input)).toEqual([
      { id: 'ana', password: 'wrong password' },
      { id: 'ana', password: 'right password 12' },
    ]);
  });

  it('refused because the session is open at another desk: says which and since when, and offers to end it there', async () => {
    main.reset();
    const DESK = '3f1c2a4e-7b1d-4c8e-9a2f-5d6e7f809a1b';
    main.answer('session:signIn', (input) =>
      (input as { endSessionElsewhere?: boolean }).endSessionElsewhere === true
        ? { id: 'ana', displayName: 'Ana', role: 'agent', disabled: false }
        : {
            code: 'session_elsewhere',
            message: 'You are signed in at another desk.',
            params: { deskId: DESK, sinceAt: '2026-11-24T15:05:00.000Z' },
          },
    );
    const onSignedIn = vi.fn();
    renderWithData('es-MX', <SignIn onSignedIn={onSignedIn} />);
    const user = userEvent.setup();
    await user.keyboard('ana{Tab}agent password 1234{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(
      new RegExp(`^Usted tiene una sesión abierta en el escritorio ${DESK} desde .*2026.*\\. Ciérrela allí`),
    );
    expect(alert.textContent).not.toContain('2026-11-24T15:05');
    expect(onSignedIn).not.toHaveBeenCalled();

    await user.click(
      screen.getByRole('button', { name: `Terminar la sesión en el escritorio ${DESK} e iniciar sesión aquí` }),
    );
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    const signIns = main.sent.filter((call) => call.channel === 'session:signIn').map((call) => call.input);
    expect(signIns).toEqual([
      { id: 'ana', password: 'agent password 1234' },
      { id: 'ana', password: 'agent password 1234', endSessionElsewhere: true },
    ]);
  });

  it('offers no such choice for any other refusal', async () => {
    main.reset();
    main.answer('session:signIn', () => ({ code: 'invalid_credentials', message: 'No.' }));
    renderWithData('en-US', <SignIn onSignedIn={vi.fn()} />);
    const user = userEvent.setup();
    await user.keyboard('ana{Tab}wrong password{Enter}');
    await screen.findByRole('alert');
    expect(screen.queryByRole('button', { name: /End the session at desk/ })).toBeNull();
  });

  it("says why when this desk's session was ended from another desk", () => {
    main.reset();
    renderWithData(
      'en-US',
      <SignIn onSignedIn={vi.fn()} endedElsewhere={{ deskId: 'desk-7', sinceAt: '2026-11-24T15:05:00.000Z' }} />,
    );
    const note = screen.getByRole('status').textContent ?? '';
    expect(note).toMatch(
      /^Your session on this desk was ended when you signed in at desk desk-7 \(.*2026.*\)\. Sign in again to continue here\.$/,
    );
    expect(note).not.toContain('2026-11-24T15:05');
  });
});
