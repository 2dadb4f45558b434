/** The screen language, held in a small zustand store (one per I18nProvider): the only thing i18n keeps in zustand. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Language } from '../../../shared/language';

export interface LanguageState {
  language: Language;
  setLanguage: (language: Language) => void;
}

export type LanguageStore = StoreApi<LanguageState>;

export function createLanguageStore(initial: Language): LanguageStore {
  return createStore<LanguageState>()((set, get) => ({
    language: initial,
    setLanguage: (language) => {
      // Setting the same language again changes nothing: no render, no change reported.
      if (get().language !== language) set({ language });
    },
  }));
}
