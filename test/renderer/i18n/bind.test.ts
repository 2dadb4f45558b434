// The object useI18n() returns, bound to a language: every helper speaks that language.
import { describe, expect, it, vi } from 'vitest';
import { bindI18n } from '../../../renderer/src/i18n/bind';

describe('bindI18n', () => {
  it('translates, writes amounts and dates in its language', () => {
    const es = bindI18n('es-MX', () => undefined);
    expect(es.language).toBe('es-MX');
    expect(es.t('common.cancel')).toBe('Cancelar');
    expect(es.t('card.installments.plan', { count: 3, amount: es.money(33333, 'mxn') })).toBe('3 meses de $333.33 MXN');
    expect(es.date('2025-03-14')).toMatch(/^14 mar\.? 2025$/);
    const en = bindI18n('en-US', () => undefined);
    expect(en.t('common.cancel')).toBe('Cancel');
    expect(en.money(123450, 'usd')).toBe('$1,234.50 USD');
    expect(en.date('2025-03-14')).toBe('Mar 14, 2025');
    expect(en.dateTime('2025-03-14')).toBe('Mar 14, 2025');
    expect(en.time(Number.NaN)).toBe('');
  });

  it('hands setLanguage through', () => {
    const setLanguage = vi.fn();
    bindI18n('es-MX', setLanguage).setLanguage('en-US');
    expect(setLanguage).toHaveBeenCalledWith('en-US');
  });
});
