/** The desk's language as a preference the agent changes from the UI: saved in the user's settings.json unless IT locked it. */
import type { Language } from '../../shared/language';
import type { LoadedSettings } from './load';
import { saveUserSettings } from './save';

export interface LanguagePreference {
  language(): { language: Language; locked: boolean };
  setLanguage(language: Language): Promise<Language>;
}

/** Keeps the loaded settings current after each save; a locked language is refused by saveUserSettings in words. */
export function languagePreference(userDir: string, loaded: LoadedSettings): LanguagePreference {
  let current = loaded;
  return {
    language: () => ({
      language: current.settings.language,
      locked: current.locked.has('language') || current.sources.language === 'managed',
    }),
    async setLanguage(language) {
      if (current.settings.language === language) return language;
      current = await saveUserSettings(userDir, { language }, current);
      return current.settings.language;
    },
  };
}
