// @vitest-environment happy-dom
// I18nProvider and useI18n in a DOM: messages, amounts and dates in the initial language, a switch of language that
// re-renders and tells the settings, the page's own lang attribute and the window's title, and a clear refusal outside a provider.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JSX } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider, useI18n } from '../../../renderer/src/i18n';
import { renderIn } from '../support/render';

function Probe(): JSX.Element {
  const { language, t, money, date, setLanguage } = useI18n();
  return (
    <>
      <p>{`${language}|${t('card.number.label')}|${money(123450, 'mxn')}|${date('2025-03-14')}`}</p>
      <button type="button" onClick={() => setLanguage(language === 'es-MX' ? 'en-US' : 'es-MX')}>
        switch
      </button>
    </>
  );
}

describe('I18nProvider + useI18n', () => {
  it('gives messages, amounts and dates in the initial language', () => {
    renderIn('es-MX', <Probe />);
    expect(screen.getByText(/^es-MX\|Número de tarjeta\|\$1,234\.50 MXN\|14 mar\.? 2025$/)).toBeTruthy();
  });

  it('in English too', () => {
    renderIn('en-US', <Probe />);
    expect(screen.getByText('en-US|Card number|$1,234.50 MXN|Mar 14, 2025')).toBeTruthy();
  });

  it('switches language: the screen, the page’s lang, and the settings are told', async () => {
    const onLanguageChange = vi.fn();
    render(
      <I18nProvider initialLanguage="es-MX" onLanguageChange={onLanguageChange}>
        <Probe />
      </I18nProvider>,
    );
    expect(document.documentElement.lang).toBe('es-MX');
    expect(document.title).toBe('Escritorio de pagos con tarjeta');
    await userEvent.setup().click(screen.getByRole('button', { name: 'switch' }));
    expect(screen.getByText(/^en-US\|Card number/)).toBeTruthy();
    expect(document.documentElement.lang).toBe('en-US');
    expect(document.title).toBe('Card Payments Desk');
    expect(onLanguageChange).toHaveBeenCalledWith('en-US');
  });

  it('refuses to work outside a provider, saying why', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Probe />)).toThrow(/I18nProvider/);
  });
});
