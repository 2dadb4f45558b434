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
    expect(screen.getByRole('alert').textContent).toBe('Id de operador: este dato es obligatorio.');
    expect(document.activeElement).toBe(screen.getByLabelText('Id de operador'));
    expect(screen.getByLabelText('Id de operador').getAttribute('aria-invalid')).toBe('true');
    await user.keyboard('ana{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Contraseña: este dato es obligatorio.');
    expect(document.activeElement).toBe(screen.getByLabelText('Contraseña'));
    expect(screen.getByLabelText('Id de operador').hasAttribute('aria-invalid')).toBe(false);
    expect(main.sent.filter((call) => call.channel === 'session:signIn')).toEqual([]);
  });

  it('shows main’s refusal in the desk’s language, not main’s English message', async () => {
    main.reset();
    main.answer('session:signIn', () => ({ code: 'invalid_credentials', message: 'The ID or password is wrong.' }));
    renderWithData('es-MX', <SignIn onSignedIn={vi.fn()} />);
    const user = userEvent.setup();
    await user.keyboard('ana{Tab}wrong password{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('El id de operador o la contraseña no son correctos.');
    expect(main.sent.filter((call) => call.channel === 'session:signIn')).toHaveLength(1);
  });
});
