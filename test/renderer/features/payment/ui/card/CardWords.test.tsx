// @vitest-environment happy-dom
// The card form says what each control does: the second button verifies the card (nothing is kept by it); the CVV hint
// follows the brand once the number shows it and claims no length before; a cardholder name longer than the service
// takes is said under the field, never cut.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MethodView } from '../../../../../../shared/ipc/views';
import { CardCapture } from '../../../../../../renderer/src/features/payment/ui/card';
import type { Language } from '../../../../../../shared/language';
import { renderIn } from '../../../../support/render';

const METHOD: MethodView = {
  id: `mth_${'b'.repeat(32)}`,
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2030,
  createdAt: '2025-06-15T00:00:00Z',
};
const renderForm = (language: Language = 'es-MX') =>
  renderIn(language, <CardCapture tokenize={() => Promise.resolve(METHOD)} />);
const cvcHint = (): string => {
  const cvc = screen.getByRole('textbox', { name: /^Código de seguridad/ });
  const hint = (cvc.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '');
  return hint.join(' ').trim();
};

describe('the card form’s words', () => {
  it('the second button verifies the card, in both languages', () => {
    renderForm();
    expect(screen.getByRole('button', { name: 'Verificar tarjeta' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Guardar tarjeta' })).toBeNull();
  });

  it('the second button in English', () => {
    renderForm('en-US');
    expect(screen.getByRole('button', { name: 'Verify card' })).toBeTruthy();
  });

  it('the CVV hint claims no length before a number is typed, then follows the brand', async () => {
    renderForm();
    expect(cvcHint()).toBe('3 o 4 dígitos, según la marca');
    const user = userEvent.setup();
    const number = screen.getByRole('textbox', { name: 'Número de tarjeta' });
    await user.type(number, '4242');
    expect(cvcHint()).toBe('3 dígitos');
    await user.clear(number);
    await user.type(number, '3782');
    expect(cvcHint()).toBe('4 dígitos');
  });

  it('a cardholder name over 100 characters is kept whole and said under the field', async () => {
    renderForm();
    const holder = screen.getByRole<HTMLInputElement>('textbox', { name: /^Nombre del titular/ });
    holder.focus();
    const user = userEvent.setup();
    const name = `María ${'de la Cruz '.repeat(10)}Fernández`;
    expect(name.length).toBeGreaterThan(100);
    await user.paste(name);
    expect(holder.value).toBe(name);
    expect(holder.getAttribute('aria-invalid')).toBe('true');
    expect(
      screen.getByText(
        'El nombre puede tener como máximo 100 caracteres: escríbalo como aparece en la tarjeta, abreviado si hace falta.',
      ),
    ).toBeTruthy();
  });
});
