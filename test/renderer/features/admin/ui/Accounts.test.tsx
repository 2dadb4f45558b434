// @vitest-environment happy-dom
// The admin's accounts in a DOM, against a fake of main: a field's problem is said next to the field with its rule, and
// a role chosen in a row's list is sent only after a confirmation that names the person, the old and the new role.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OperatorView } from '../../../../../shared/operators';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { Accounts } = await import('../../../../../renderer/src/features/admin/ui/Accounts');

const OPERATORS: OperatorView[] = [
  { id: 'ada', displayName: 'Ada Gómez', role: 'admin', disabled: false },
  { id: 'ana', displayName: 'Ana López', role: 'agent', disabled: false },
];

/** The text that describes a field (aria-describedby), as a screen reader reads it. */
const description = (field: HTMLElement): string =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();

describe('Accounts: a new account', () => {
  it('says the rule of the operator ID next to the field, and sends nothing', async () => {
    main.reset();
    main.answer('operators:list', () => ({ operators: OPERATORS }));
    renderWithData('es-MX', <Accounts self="ada" />);
    const user = userEvent.setup();
    const id = screen.getByLabelText('ID del operador');
    await user.type(id, 'Ana López');
    await user.type(screen.getByLabelText('Nombre'), 'Ana López');
    await user.type(screen.getByLabelText(/^Contraseña/), 'corta');
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(id.getAttribute('aria-invalid')).toBe('true');
    expect(description(id)).toMatch(/^ID del operador: .*de 2 a 32 caracteres.*punto.*guion/);
    const field = id.closest('.field') as HTMLElement;
    expect(within(field).getByText(/de 2 a 32 caracteres/)).toBeTruthy();
    const password = screen.getByLabelText(/^Contraseña/);
    expect(description(password)).toMatch(/al menos 12 caracteres, con letras y números/);
    expect(document.activeElement).toBe(id);
    expect(main.sent.filter((call) => call.channel === 'operators:create')).toEqual([]);
  });

  it('places main’s refusal of a taken ID next to the ID field', async () => {
    main.reset();
    main.answer('operators:list', () => ({ operators: OPERATORS }));
    main.answer('operators:create', () => ({
      code: 'already_exists',
      message: 'An operator with the id "ana" already exists.',
    }));
    renderWithData('en-US', <Accounts self="ada" />);
    const user = userEvent.setup();
    const id = screen.getByLabelText('Operator ID');
    await user.type(id, 'ana');
    await user.type(screen.getByLabelText('Name'), 'Ana Two');
    await user.type(screen.getByLabelText(/^Password/), 'a long password 42');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(description(id)).toMatch(/^Operator ID: an account with the ID ana already exists/));
  });
});

describe('Accounts: a role change', () => {
  it('asks to confirm, naming the person, the old and the new role, before anything is sent', async () => {
    main.reset();
    main.answer('operators:list', () => ({ operators: OPERATORS }));
    main.answer(
      'operators:update',
      (input) => ({ ...OPERATORS[1], ...(input as Partial<OperatorView>) }) as OperatorView,
    );
    renderWithData('es-MX', <Accounts self="ada" />);
    const select = await screen.findByLabelText('Rol de ana');
    fireEvent.change(select, { target: { value: 'supervisor' } });
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('¿Cambiar el rol de Ana López (ana) de agente a supervisor?');
    expect(main.sent.filter((call) => call.channel === 'operators:update')).toEqual([]);
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Cambiar a supervisor' }));
    await waitFor(() =>
      expect(main.sent.filter((call) => call.channel === 'operators:update').map((call) => call.input)).toEqual([
        { id: 'ana', role: 'supervisor' },
      ]),
    );
  });

  it('cancelled, sends nothing and shows the role as it was', async () => {
    main.reset();
    main.answer('operators:list', () => ({ operators: OPERATORS }));
    renderWithData('en-US', <Accounts self="ada" />);
    const select = await screen.findByLabelText<HTMLSelectElement>('Role of ana');
    fireEvent.change(select, { target: { value: 'admin' } });
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Change the role of Ana López (ana) from agent to admin?');
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(select.value).toBe('agent');
    expect(main.sent.filter((call) => call.channel === 'operators:update')).toEqual([]);
  });
});
