/** What the stack uses where its options give nothing: no secrets, the language in memory, no auto-update. */
import type { Language } from '../../shared/language';
import type { PreferencesPort } from '../ipc';
import type { SecretStore } from '../payments';
import type { MainStackOptions } from './options';

export const noSecrets: SecretStore = { read: () => Promise.resolve(undefined) };

export function memoryPreferences(initial: Language = 'es-MX'): PreferencesPort {
  let language = initial;
  return {
    language: () => ({ language, locked: false }),
    setLanguage: (next) => {
      language = next;
      return Promise.resolve(language);
    },
  };
}

export const updatesDisabled: NonNullable<MainStackOptions['updates']> = {
  status: () => ({ state: 'disabled' }),
  restart: () => undefined,
};
