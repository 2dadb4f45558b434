// The language store: one value, changed only by setLanguage, subscribers told only of real changes.
import { describe, expect, it, vi } from 'vitest';
import { createLanguageStore } from '../../../renderer/src/i18n/store';

describe('createLanguageStore', () => {
  it('starts in the initial language', () => {
    expect(createLanguageStore('en-US').getState().language).toBe('en-US');
    expect(createLanguageStore('es-MX').getState().language).toBe('es-MX');
  });

  it('switches language and tells subscribers once per real change', () => {
    const store = createLanguageStore('es-MX');
    const listener = vi.fn();
    store.subscribe(listener);
    store.getState().setLanguage('en-US');
    store.getState().setLanguage('en-US');
    expect(store.getState().language).toBe('en-US');
    expect(listener).toHaveBeenCalledTimes(1);
    store.getState().setLanguage('es-MX');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing but the language', () => {
    const store = createLanguageStore('es-MX');
    expect(Object.keys(store.getState()).sort()).toEqual(['language', 'setLanguage']);
  });

  it('gives each provider its own store', () => {
    const a = createLanguageStore('es-MX');
    const b = createLanguageStore('es-MX');
    a.getState().setLanguage('en-US');
    expect(b.getState().language).toBe('es-MX');
  });
});
