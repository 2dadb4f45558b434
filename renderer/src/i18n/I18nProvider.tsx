/** The language context: I18nProvider holds the screen language; useI18n() gives messages, amounts and dates in it. */
import { createContext, useContext, useEffect, useMemo, useState, type JSX, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Language } from '../../../shared/language';
import { bindI18n, type I18n } from './bind';
import { messageFor } from './catalogue';
import { createLanguageStore, type LanguageStore } from './store';

const I18nContext = createContext<LanguageStore | undefined>(undefined);

interface Props {
  /** The language on first render (from the settings); later changes go through `setLanguage`. */
  initialLanguage: Language;
  /** Told after the agent switches language, e.g. to save it in the settings. */
  onLanguageChange?: (language: Language) => void;
  children?: ReactNode;
}

export function I18nProvider({ initialLanguage, onLanguageChange, children }: Props): JSX.Element {
  const [store] = useState(() => createLanguageStore(initialLanguage));
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        if (state.language !== previous.language) onLanguageChange?.(state.language);
      }),
    [store, onLanguageChange],
  );

  // The page's own language follows the screen's, so that screen readers pronounce it right; the window's title too.
  const language = useStore(store, (state) => state.language);
  useEffect(() => {
    document.documentElement.lang = language;
    document.title = messageFor(language, 'app.title');
  }, [language]);

  return <I18nContext value={store}>{children}</I18nContext>;
}

export function useI18n(): I18n {
  const store = useContext(I18nContext);
  if (store === undefined) throw new Error('useI18n() needs an <I18nProvider> above it in the tree.');
  const language = useStore(store, (state) => state.language);
  const setLanguage = useStore(store, (state) => state.setLanguage);
  return useMemo(() => bindI18n(language, setLanguage), [language, setLanguage]);
}
