// @vitest-environment happy-dom
// The card form in a DOM, found as a person finds it (roles, labels): its fields and buttons in both languages, the
// attributes that keep card data out of autofill and the clipboard, declines inside the form, the fields' checks as
// the agent types, and brand + last 4 only once the card is sent.
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { MethodView } from '../../../../../../shared/ipc/views';
import {
  CardCapture,
  type CardCaptureHandle,
  type CardCaptureProps,
} from '../../../../../../renderer/src/features/payment/ui/card';
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

function renderForm(props: Partial<CardCaptureProps> = {}, language: Language = 'es-MX'): ReturnType<typeof renderIn> {
  return renderIn(language, <CardCapture tokenize={() => Promise.resolve(METHOD)} {...props} />);
}

/** The three fields that hold card data (the name is not checked). */
const CARD_FIELDS = ['Número de tarjeta', 'Vencimiento', 'Código de seguridad'] as const;
const field = (name: string): HTMLInputElement => screen.getByLabelText<HTMLInputElement>(name, { exact: false });

describe('CardCapture', () => {
  it('labels every field in the screen’s language', () => {
    renderForm();
    expect(screen.getByRole('form', { name: 'Datos de la tarjeta' })).toBeTruthy();
    for (const label of [
      'Número de tarjeta',
      'Vencimiento (MM/AA)',
      'Código de seguridad (CVV)',
      'Nombre del titular',
    ]) {
      expect(screen.getByRole('textbox', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) })).toBeTruthy();
    }
  });

  it('speaks English on an English screen', () => {
    renderForm({}, 'en-US');
    expect(screen.getByRole('textbox', { name: 'Card number' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /^Security code \(CVV\)/ })).toBeTruthy();
  });

  it('describes each input by elements that exist', () => {
    const { container } = renderForm();
    const inputs = screen.getAllByRole('textbox');
    expect(inputs).toHaveLength(4);
    for (const input of inputs) {
      for (const described of (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean)) {
        expect(container.querySelector(`[id="${described}"]`)).not.toBeNull();
      }
    }
  });

  it('keeps browsers from remembering, autofilling or spell-checking card data', () => {
    renderForm();
    expect(screen.getByRole('form').getAttribute('autocomplete')).toBe('off');
    for (const input of screen.getAllByRole<HTMLInputElement>('textbox')) {
      expect(input.getAttribute('autocomplete')).toBe('off');
      expect(input.getAttribute('spellcheck')).toBe('false');
      expect(input.name).toBe('');
      expect(input.value).toBe('');
    }
  });

  it('refuses copy, cut and drag out of the card-data fields, not of the name', () => {
    renderForm();
    for (const name of ['Número de tarjeta', 'Vencimiento', 'Código de seguridad']) {
      const input = field(name);
      // fireEvent returns false when the handler called preventDefault.
      expect([fireEvent.copy(input), fireEvent.cut(input), fireEvent.dragStart(input)]).toEqual([false, false, false]);
    }
    expect(fireEvent.copy(field('Nombre del titular'))).toBe(true);
  });

  it('marks the card fields required and numeric, the CVC capped at 4 until the brand is known', () => {
    renderForm();
    for (const name of ['Número de tarjeta', 'Vencimiento', 'Código de seguridad']) {
      expect(field(name).getAttribute('aria-required')).toBe('true');
      expect(field(name).inputMode).toBe('numeric');
    }
    expect(field('Código de seguridad').maxLength).toBe(4);
    expect(field('Nombre del titular').getAttribute('aria-required')).toBeNull();
  });

  it('has a continue button (the form’s submit: Enter) and a save-card button, no cancel unless asked for', () => {
    renderForm();
    const buttons = screen.getAllByRole<HTMLButtonElement>('button');
    expect(buttons.map((button) => [button.type, button.textContent])).toEqual([
      ['submit', 'Continuar'],
      ['button', 'Verificar tarjeta'],
    ]);
    expect(screen.queryByRole('button', { name: 'Cancelar' })).toBeNull();
  });

  it('offers cancel, with Escape shown on screen, when the screen can cancel; Escape empties the form and cancels', async () => {
    const onCancel = vi.fn();
    renderForm({ onCancel });
    const cancel = screen.getByRole('button', { name: 'Cancelar' });
    expect(cancel.getAttribute('aria-keyshortcuts')).toBe('Escape');
    expect(screen.getByText('Esc').tagName).toBe('KBD');
    const user = userEvent.setup();
    await user.type(field('Número de tarjeta'), '4242');
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledOnce();
    expect(field('Número de tarjeta').value).toBe('');
  });

  it('disables every control when disabled (the fieldset that holds them all)', () => {
    const frame = (): HTMLFieldSetElement =>
      screen.getByRole<HTMLFieldSetElement>('group', { name: 'Datos de la tarjeta' });
    const { unmount } = renderForm({ disabled: true });
    expect(frame().disabled).toBe(true);
    expect(frame().contains(screen.getByRole('button', { name: 'Continuar' }))).toBe(true);
    unmount();
    renderForm();
    expect(frame().disabled).toBe(false);
  });

  it('shows no alert without an error', () => {
    renderForm();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    ['card_declined', 'El banco emisor rechazó la tarjeta. Pida al huésped otra tarjeta.'],
    ['insufficient_funds', 'La tarjeta no tiene fondos suficientes para este monto. Pida al huésped otra tarjeta.'],
    [
      'expired_card',
      'El banco reporta la tarjeta como vencida. Verifique la fecha de vencimiento o pida otra tarjeta.',
    ],
    ['incorrect_cvc', 'El código de seguridad (CVV) es incorrecto. Pida al huésped que se lo lea de nuevo.'],
    ['processing_error', 'El banco no pudo procesar la tarjeta. Intente de nuevo en un momento.'],
    ['invalid_card', 'Los datos de la tarjeta no son válidos. Verifíquelos con el huésped y vuelva a capturarlos.'],
  ])('shows the decline %s inside the form as an alert, in the desk’s words', (code, text) => {
    renderForm({ decline: { code, message: 'English text from the service' } });
    const alert = within(screen.getByRole('form')).getByRole('alert');
    expect(alert.textContent).toBe(text);
    expect(screen.queryByText('English text from the service')).toBeNull();
  });

  it('shows a decline in English on an English screen', () => {
    renderForm({ decline: { code: 'card_declined' } }, 'en-US');
    expect(screen.getByRole('alert').textContent).toContain('The card was declined by the issuing bank.');
  });

  it('shows its generic sentence, never the service’s English message, for a code it has no words for', () => {
    renderForm({ decline: { code: 'do_not_honor', message: 'Do not honor.' } });
    expect(screen.getByRole('alert').textContent).toBe(
      'No se pudo procesar la tarjeta por un error inesperado. Intente de nuevo; si vuelve a ocurrir, avise a TI.',
    );
  });
});

describe('the fields as typed', () => {
  it('shows the number in groups, the expiry as MM/YY and the brand as text, and moves on when a field is complete', async () => {
    renderForm();
    const user = userEvent.setup();
    await user.click(field('Número de tarjeta'));
    await user.keyboard('378282246310005');
    expect(field('Número de tarjeta').value).toBe('3782 822463 10005');
    expect(screen.getByText('Marca: American Express')).toBeTruthy();
    expect(document.activeElement).toBe(field('Vencimiento'));
    await user.keyboard('1230');
    expect(field('Vencimiento').value).toBe('12/30');
    expect(document.activeElement).toBe(field('Código de seguridad'));
    await user.keyboard('1234');
    expect(field('Código de seguridad').value).toBe('1234');
    expect(screen.getByText(/4 dígitos/)).toBeTruthy();
    for (const name of CARD_FIELDS) expect(field(name).getAttribute('aria-invalid')).toBe('false');
  });

  it('marks a field invalid and describes it by its message once it is complete or left', async () => {
    renderForm();
    const user = userEvent.setup();
    await user.type(field('Número de tarjeta'), '4242424242424241');
    await user.type(field('Vencimiento'), '0124');
    await user.type(field('Código de seguridad'), '12');
    await user.tab();
    const number = field('Número de tarjeta');
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('textbox', { description: /El número de tarjeta no es válido/ })).toBe(number);
    expect(screen.getByRole('textbox', { description: /Esta tarjeta está vencida/ })).toBe(field('Vencimiento'));
    expect(
      screen.getByRole('textbox', { description: /El código de seguridad debe tener 3 dígitos para esta tarjeta\./ }),
    ).toBe(field('Código de seguridad'));
  });

  it('says nothing while a field is still being typed', async () => {
    const { container } = renderForm();
    const user = userEvent.setup();
    await user.type(field('Número de tarjeta'), '424242');
    for (const name of CARD_FIELDS) expect(field(name).getAttribute('aria-invalid')).toBe('false');
    expect(Array.from(container.querySelectorAll('.card-capture__message'), (message) => message.textContent)).toEqual([
      '',
      '',
      '',
      '',
    ]);
  });
});

describe('after the card is sent', () => {
  it('shows brand and last 4 only, and a way to use another card', async () => {
    const handle = createRef<CardCaptureHandle>();
    renderForm({ ref: handle });
    const user = userEvent.setup();
    await user.type(field('Número de tarjeta'), '4242424242424242');
    await user.type(field('Vencimiento'), '1230');
    await user.type(field('Código de seguridad'), '123');
    expect(await handle.current?.createToken()).toEqual({
      token: { id: METHOD.id, card: { last4: '4242', brand: 'visa' } },
    });
    const summary = await screen.findByRole('group', { name: /^Tarjeta lista para el cobro/ });
    expect(summary.textContent).toContain('Visa •••• 4242');
    expect(summary.textContent?.match(/\d+/g)).toEqual(['4242']);
    expect(screen.queryAllByRole('textbox')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Usar otra tarjeta' }));
    expect(field('Número de tarjeta').value).toBe('');
    expect(document.activeElement).toBe(field('Número de tarjeta'));
  });

  it('says the card is being checked while tokenization runs', async () => {
    const handle = createRef<CardCaptureHandle>();
    renderForm({ ref: handle, tokenize: () => new Promise<MethodView>(() => undefined) }, 'en-US');
    const user = userEvent.setup();
    await user.type(field('Card number'), '378282246310005');
    await user.type(field('Expiry'), '1230');
    await user.type(field('Security code'), '1234');
    void handle.current?.createToken();
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe('American Express •••• 0005 — Checking the card…');
  });
});
