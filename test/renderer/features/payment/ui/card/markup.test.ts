// The card form's markup, rendered to HTML with react-dom/server (no DOM environment here): labels, ids, card-data
// input attributes, the MSI picker, declines inside the form, and brand + last 4 only after tokenization.
import { createElement, type FunctionComponent, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { cardFormReducer, initialCardForm, type CardFormState } from '../../../../../../renderer/src/features/payment/ui/card/state';
import { bindI18n } from '../../../../../../renderer/src/i18n/bind';
import type { MethodView } from '../../../../../../shared/ipc/views';

// The .tsx modules are typed here rather than by their own declarations: the test project has neither JSX nor DOM
// types (see test/tsconfig.json); the renderer's own type check covers their props.
type AnyProps = Record<string, unknown>;
const { CardCapture, CardFields, CardSummary } = (await import('../../../../../../renderer/src/features/payment/ui/card/CardCapture')) as unknown as Record<
  'CardCapture' | 'CardFields' | 'CardSummary',
  FunctionComponent<AnyProps>
>;
const { I18nProvider } = (await import('../../../../../../renderer/src/i18n/I18nProvider')) as unknown as {
  I18nProvider: FunctionComponent<{ initialLanguage: Language }>;
};

type Language = 'es-MX' | 'en-US';

const METHOD: MethodView = { id: `mth_${'b'.repeat(32)}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, createdAt: '2025-06-15T00:00:00Z' };

const inLanguage = (language: Language, element: ReactElement): string => renderToString(createElement(I18nProvider, { initialLanguage: language }, element));

function renderForm(props: AnyProps = {}, language: Language = 'es-MX'): string {
  const tokenize = (): Promise<MethodView> => Promise.resolve(METHOD);
  return inLanguage(language, createElement(CardCapture, { tokenize, ...props }));
}

const i18nIn = (language: Language) => bindI18n(language, () => undefined);

const tags = (html: string, name: string): string[] => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? [];
/** An attribute's value (HTML attribute names are case-insensitive; React's server renderer keeps the prop's case). */
const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
/** The text a person sees: the markup without its tags. */
const visibleText = (html: string): string => html.replace(/<[^>]*>/g, ' ');
const textInputs = (html: string): string[] => tags(html, 'input').filter((tag) => attr(tag, 'type') === 'text');
const ids = (html: string): Set<string> => new Set(Array.from(html.matchAll(/\sid="([^"]*)"/g), (match) => match[1] ?? ''));
const noop = (): void => undefined;

describe('CardCapture markup', () => {
  it('labels every field in the screen’s language', () => {
    const html = renderForm();
    for (const label of ['Datos de la tarjeta', 'Número de tarjeta', 'Vencimiento (MM/AA)', 'Código de seguridad (CVV)', 'Nombre del titular']) {
      expect(html).toContain(label);
    }
    const english = renderForm({}, 'en-US');
    expect(english).toContain('Card number');
    expect(english).toContain('Security code (CVV)');
  });

  it('ties each input to a label, and each description to an element that exists', () => {
    const html = renderForm();
    const inputs = textInputs(html);
    expect(inputs).toHaveLength(4);
    const labelled = new Set(tags(html, 'label').map((tag) => attr(tag, 'for')));
    const present = ids(html);
    for (const input of inputs) {
      expect(labelled).toContain(attr(input, 'id'));
      for (const described of (attr(input, 'aria-describedby') ?? '').split(' ').filter(Boolean)) expect(present).toContain(described);
    }
  });

  it('keeps browsers from remembering, autofilling or spell-checking card data', () => {
    const html = renderForm();
    expect(html).not.toContain('cc-number');
    expect(html).not.toContain('cc-csc');
    expect(attr(tags(html, 'form')[0] ?? '', 'autocomplete')).toBe('off');
    for (const input of textInputs(html)) {
      expect(attr(input, 'autocomplete')).toBe('off');
      expect(attr(input, 'spellcheck')).toBe('false');
      expect(attr(input, 'name')).toBeUndefined();
      expect(attr(input, 'value')).toBe('');
    }
  });

  it('marks the card fields required and numeric, the CVC capped at 4 until the brand is known', () => {
    const [number, expiry, cvc, holder] = textInputs(renderForm());
    for (const input of [number, expiry, cvc]) {
      expect(attr(input ?? '', 'aria-required')).toBe('true');
      expect(attr(input ?? '', 'inputmode')).toBe('numeric');
    }
    expect(attr(cvc ?? '', 'maxlength')).toBe('4');
    expect(attr(holder ?? '', 'aria-required')).toBeUndefined();
  });

  it('has a continue button (the form’s submit: Enter) and a save-method button', () => {
    const html = renderForm();
    const buttons = tags(html, 'button');
    expect(buttons.map((tag) => attr(tag, 'type'))).toEqual(['submit', 'button']);
    expect(html).toMatch(/<button type="submit"[^>]*>Continuar<\/button>/);
    expect(html).toContain('Guardar tarjeta');
    expect(html).not.toContain('Cancelar');
    expect(html).not.toContain('<kbd>Esc</kbd>');
  });

  it('offers cancel, with Escape shown on screen, when the screen can cancel', () => {
    const html = renderForm({ onCancel: noop });
    expect(html).toContain('Cancelar');
    expect(html).toContain('<kbd>Esc</kbd>');
    expect(html).toContain('aria-keyshortcuts="Escape"');
  });

  it('disables every control when disabled', () => {
    expect(tags(renderForm({ disabled: true }), 'fieldset')[0]).toMatch(/\sdisabled=""/);
    expect(tags(renderForm(), 'fieldset')[0]).not.toMatch(/\sdisabled/);
  });

  it('shows no alert without an error', () => {
    expect(renderForm()).not.toContain('role="alert"');
  });

  it.each([
    ['card_declined', 'El banco emisor rechazó la tarjeta. Pida al huésped otra tarjeta.'],
    ['insufficient_funds', 'La tarjeta no tiene fondos suficientes para este monto. Pida al huésped otra tarjeta.'],
    ['expired_card', 'El banco reporta la tarjeta como vencida. Verifique la fecha de vencimiento o pida otra tarjeta.'],
    ['incorrect_cvc', 'El código de seguridad (CVV) es incorrecto. Pida al huésped que se lo lea de nuevo.'],
    ['processing_error', 'El banco no pudo procesar la tarjeta. Intente de nuevo en un momento.'],
    ['invalid_card', 'Los datos de la tarjeta no son válidos. Verifíquelos con el huésped y vuelva a capturarlos.'],
  ])('shows the decline %s inside the form as an alert', (code, text) => {
    const html = renderForm({ decline: { code, message: 'English text from the service' } });
    expect(html).toContain(`role="alert">${text}</p>`);
    expect(html).not.toContain('English text from the service');
    expect(html.indexOf('role="alert"')).toBeGreaterThan(html.indexOf('<form'));
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf('</form>'));
  });

  it('shows a decline in English on an English screen', () => {
    expect(renderForm({ decline: { code: 'card_declined' } }, 'en-US')).toContain('The card was declined by the issuing bank.');
  });

  it('shows the error’s own message for a code it has no words for', () => {
    expect(renderForm({ decline: { code: 'do_not_honor', message: 'Do not honor.' } })).toContain('role="alert">Do not honor.</p>');
  });
});

describe('the installment picker', () => {
  const offer = { counts: [6, 3], amountCents: 100000, currency: 'mxn' as const, onPick: noop };

  it('lists paying in full and each plan with its per-installment amount', () => {
    const html = renderForm({ installments: offer });
    expect(html).toContain('Meses sin intereses (MSI)');
    expect(html).toContain('Pago de contado');
    expect(html).toContain('3 meses de $333.33 MXN');
    expect(html).toContain('6 meses de $166.67 MXN');
    expect(html.indexOf('3 meses')).toBeLessThan(html.indexOf('6 meses'));
    const radios = tags(html, 'input').filter((tag) => attr(tag, 'type') === 'radio');
    expect(radios).toHaveLength(3);
    expect(new Set(radios.map((tag) => attr(tag, 'name'))).size).toBe(1);
    expect(radios[0]).toMatch(/\schecked=""/);
  });

  it('starts on the plan chosen before', () => {
    const radios = tags(renderForm({ installments: { ...offer, selected: 6 } }), 'input').filter((tag) => attr(tag, 'type') === 'radio');
    expect(radios.map((tag) => /\schecked=""/.test(tag))).toEqual([false, false, true]);
  });

  it('speaks English too', () => {
    expect(renderForm({ installments: offer }, 'en-US')).toContain('3 months of $333.33 MXN');
  });

  it('is absent without an offer', () => {
    expect(renderForm()).not.toContain('Meses sin intereses');
  });
});

describe('the fields as typed', () => {
  const typed = (number: string, expiry: string, cvc: string, left = false): CardFormState => {
    let state = initialCardForm(Date.UTC(2025, 5, 15));
    state = cardFormReducer(state, { type: 'edit', field: 'number', value: number, now: state.now });
    state = cardFormReducer(state, { type: 'edit', field: 'expiry', value: expiry, now: state.now });
    state = cardFormReducer(state, { type: 'edit', field: 'cvc', value: cvc, now: state.now });
    if (left) for (const field of ['number', 'expiry', 'cvc'] as const) state = cardFormReducer(state, { type: 'leave', field, now: state.now });
    return state;
  };
  const handlers = { changeNumber: noop, changeExpiry: noop, changeCvc: noop, leave: () => noop, edited: noop };
  const fields = (state: CardFormState, language: Language = 'es-MX'): string =>
    renderToString(
      createElement(CardFields, { id: 'c', state, i18n: i18nIn(language), numberRef: null, expiryRef: null, cvcRef: null, holderRef: null, autoFocus: false, handlers }),
    );

  it('shows the number in groups, the expiry as MM/YY and the brand as text', () => {
    const html = fields(typed('378282246310005', '1230', '1234'));
    expect(html).toContain('value="3782 822463 10005"');
    expect(html).toContain('value="12/30"');
    expect(html).toContain('Marca: American Express');
    expect(html).toContain('4 dígitos');
    expect(html).not.toContain('aria-invalid="true"');
  });

  it('marks a field invalid and describes it by its message once it is complete or left', () => {
    const html = fields(typed('4242424242424241', '0124', '12', true));
    const [number, expiry, cvc] = textInputs(html);
    for (const input of [number, expiry, cvc]) expect(attr(input ?? '', 'aria-invalid')).toBe('true');
    expect(attr(number ?? '', 'aria-describedby')).toBe('c-brand c-number-message');
    expect(html).toContain('id="c-number-message" class="card-capture__message" aria-live="polite">El número de tarjeta no es válido');
    expect(html).toContain('Esta tarjeta está vencida');
    expect(html).toContain('El código de seguridad debe tener 3 dígitos para esta tarjeta.');
  });

  it('says nothing while a field is still being typed', () => {
    const html = fields(typed('424242', '12', '1'));
    expect(html).not.toContain('aria-invalid="true"');
    expect(html).not.toMatch(/aria-describedby="[^"]*-message/);
    expect(html.match(/class="card-capture__message" aria-live="polite">[^<]/g)).toBeNull();
  });
});

describe('after tokenization', () => {
  const summary = (state: CardFormState, language: Language = 'es-MX'): string =>
    renderToString(createElement(CardSummary, { id: 's', state, i18n: i18nIn(language), statusRef: null, summaryRef: null, onAnotherCard: noop }));

  it('shows brand and last 4 only, and a way to use another card', () => {
    const state = cardFormReducer(initialCardForm(0), { type: 'tokenized', method: METHOD });
    const html = summary(state);
    expect(html).toContain('Visa •••• 4242');
    expect(html).toContain('Tarjeta lista para el cobro');
    expect(html).toContain('Usar otra tarjeta');
    expect(visibleText(html).match(/\d+/g)).toEqual(['4242']);
    expect(html).not.toContain('<input');
  });

  it('says the card is being checked while tokenization runs', () => {
    const state = cardFormReducer(initialCardForm(0), { type: 'tokenizing', brand: 'american-express', last4: '0005', dismiss: undefined });
    const html = summary(state, 'en-US');
    expect(html).toContain('American Express •••• 0005');
    expect(html).toContain('Checking the card…');
    expect(html).toContain('role="status"');
  });
});
