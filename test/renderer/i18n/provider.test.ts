// I18nProvider and useI18n, rendered to HTML with react-dom/server (no DOM environment needed).
import { createElement, type FunctionComponent, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { I18n } from '../../../renderer/src/i18n/bind';

// Typed here rather than by the .tsx module's declarations: the test project has neither JSX nor DOM types (see test/tsconfig.json).
const { I18nProvider, useI18n } = (await import('../../../renderer/src/i18n/I18nProvider')) as unknown as {
  I18nProvider: FunctionComponent<{ initialLanguage: 'es-MX' | 'en-US'; children?: ReactNode }>;
  useI18n: () => I18n;
};

function Probe(): ReactNode {
  const { language, t, money, date } = useI18n();
  return createElement('p', null, `${language}|${t('card.number.label')}|${money(123450, 'mxn')}|${date('2025-03-14')}`);
}

const render = (language: 'es-MX' | 'en-US'): string =>
  renderToString(createElement(I18nProvider, { initialLanguage: language }, createElement(Probe)));

describe('I18nProvider + useI18n', () => {
  it('gives messages, amounts and dates in the initial language', () => {
    expect(render('es-MX')).toMatch(/es-MX\|Número de tarjeta\|\$1,234.50 MXN\|14 mar\.? 2025/);
    expect(render('en-US')).toContain('en-US|Card number|$1,234.50 MXN|Mar 14, 2025');
  });

  it('refuses to work outside a provider, saying why', () => {
    expect(() => renderToString(createElement(Probe))).toThrow(/I18nProvider/);
  });
});
